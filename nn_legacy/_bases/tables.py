"""Table plumbing shared by the table modules.

A table is a Python list of arrays, possibly nested; the gradInput of a
table input is a list of the same layout.  Here: the argument checks
(errors name the entry, ``input[2]``), gradInput tables kept under the
buffer contract, and two bases: ``ElementwiseTable`` (CAddTable, CSubTable,
CMulTable, CDivTable, CMaxTable, CMinTable) and ``RowPair``
(PairwiseDistance, DotProduct, CosineDistance).
"""

import numpy as np

from .._helpers.arrays import check_float_array, check_like, check_shape, describe, is_array, name_of, quietly, reuse
from .dims import check_array
from .._helpers.namespace import array_namespace
from ..Module import Module


def entries(n):
    return f"{n} entry" if n == 1 else f"{n} entries"


def check_list(module, value, name="input", at_least=1):
    """value as a list of at least ``at_least`` entries (a tuple is taken too)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name_of(module)}: {name} must be a table (list), got {type(value).__name__}")
    if len(value) < at_least:
        raise ValueError(f"{name_of(module)}: {name} must be a table of at least {entries(at_least)}, "
                         f"got {entries(len(value))}")
    return list(value)


def check_length(module, value, n, name="gradOutput", what="the output"):
    """value as a list of exactly n entries (the length of ``what``)."""
    value = check_list(module, value, name, 0)
    if len(value) != n:
        raise ValueError(f"{name_of(module)}: {name} must be a table of {entries(n)} like {what}, "
                         f"got {entries(len(value))}")
    return value


def check_arrays(module, value, name="input", at_least=1):
    """A list of at least at_least numeric arrays (any dtype), checked entry by entry."""
    value = check_list(module, value, name, at_least)
    for i, v in enumerate(value):
        check_array(module, v, f"{name}[{i}]")
    return value


def check_float_arrays(module, value, name="input", at_least=1):
    """A list of float arrays of one shape and dtype, as contiguous arrays."""
    value = check_list(module, value, name, at_least)
    check_float_array(module, value[0], f"{name}[0]")
    first = value[0]
    for i, v in enumerate(value[1:], 1):
        check_float_array(module, v, f"{name}[{i}]", first.dtype)
        if v.shape != first.shape:
            raise ValueError(f"{name_of(module)}: {name}[{i}] must be of size [{', '.join(map(str, first.shape))}] "
                             f"like {name}[0], got {describe(v)}")
    xp = array_namespace(*value)
    return [xp.ascontiguousarray(v) for v in value]


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def plain_floats(value, n=None):
    """Whether value is a list of n (None: one or more) numpy arrays of one
    shape and one native float dtype: a table check_float_arrays accepts,
    told without a Python call per entry or a list built (the table
    modules' usual case, checked first; anything else takes the checks)."""
    if type(value) is not list or not value or (n is not None and len(value) != n):
        return False
    first = value[0]
    if type(first) is not np.ndarray:
        return False
    dtype, shape = first.dtype, first.shape
    if dtype is not _F32 and dtype is not _F64:
        return False
    for v in value:
        if type(v) is not np.ndarray or v.dtype is not dtype or v.shape != shape:
            return False
    return True


def reuse_list(buffer, shapes, dtype, *avoid):
    """``buffer`` (a list) with its arrays when it holds arrays of exactly
    these shapes and dtype that may be written to (and overlap none of
    ``avoid``); else a new list of new arrays.  So a list handed out
    before is never changed to hold arrays of other shapes."""
    if isinstance(buffer, list) and len(buffer) == len(shapes):
        kept = [reuse(b, s, dtype, *avoid) for b, s in zip(buffer, shapes)]
        if all(k is b for k, b in zip(kept, buffer)):
            return buffer
    return [reuse(None, s, dtype, *avoid) for s in shapes]


def same_layout(buffer, like):
    """buffer has like's nesting and arrays of like's shapes and dtypes (and place)."""
    if is_array(like):
        return (type(buffer) is type(like) and buffer.shape == like.shape and buffer.dtype == like.dtype
                and buffer.flags.writeable and array_namespace(buffer) is array_namespace(like))
    return (isinstance(like, (list, tuple)) and isinstance(buffer, list) and len(buffer) == len(like)
            and all(same_layout(b, v) for b, v in zip(buffer, like)))


def nested_zeros(buffer, like):
    """Zeros laid out as ``like`` (an array or a nested table of arrays):
    buffer itself, zeroed, when its layout fits, else new arrays."""
    if not same_layout(buffer, like):
        return _fresh(like)
    fill_nested(buffer, None)
    return buffer


def nested_copy(buffer, value):
    """A copy of ``value`` (an array or a nested table): into buffer when
    its layout fits, else into new arrays."""
    if not same_layout(buffer, value):
        buffer = _fresh(value)
    fill_nested(buffer, value)
    return buffer


def _fresh(like):
    if is_array(like):
        return array_namespace(like).zeros(like.shape, like.dtype)
    return [_fresh(v) for v in like]


def fill_nested(buffer, value):
    """buffer[...] = value, or 0 where value is None, through the nesting."""
    if is_array(buffer):
        buffer[...] = 0 if value is None else value
    else:
        for i, b in enumerate(buffer):
            fill_nested(b, None if value is None else value[i])


def check_nested(module, value, name="input"):
    """value is an array or a (nested) table of arrays; errors name the entry."""
    if isinstance(value, (list, tuple)):
        return [check_nested(module, v, f"{name}[{i}]") for i, v in enumerate(value)]
    return check_array(module, value, name)


def check_nested_like(module, value, like, name="gradOutput", what="the output"):
    """value has the nesting of ``like`` and arrays of its shapes."""
    if isinstance(like, (list, tuple)):
        value = check_length(module, value, len(like), name, what)
        return [check_nested_like(module, v, w, f"{name}[{i}]", what) for i, (v, w) in enumerate(zip(value, like))]
    check_array(module, value, name)
    if value.shape != like.shape:
        raise ValueError(f"{name_of(module)}: {name} must be of size [{', '.join(map(str, like.shape))}] "
                         f"like {what}, got {describe(value)}")
    return value


class ElementwiseTable(Module):
    """The plumbing of the elementwise table modules (not a layer itself):
    the input is a table of float arrays of one shape and dtype, the output
    an array of that shape, gradInput a table of such arrays.  A subclass
    sets ``_arity`` (the exact number of entries, or None for one or more)
    and supplies ``_forward(xs, out)`` and ``_backward(xs, g, outs)``."""

    _arity = None
    #: the numpy ufunc _forward applies entry after entry (np.add for CAddTable), or None: a table of two
    #: numpy arrays then takes it in one call into the output, the same arithmetic without _forward's steps
    _ufunc = None

    def _inputs(self, input):
        xs = check_float_arrays(self, input, "input", self._arity or 1)
        if self._arity is not None and len(xs) != self._arity:
            raise ValueError(f"{name_of(self)}: input must be a table of {entries(self._arity)}, "
                             f"got {entries(len(xs))}")
        return xs

    def updateOutput(self, input):
        if type(input) is list and len(input) == 2 and self._ufunc is not None:
            a, b = input   # two numpy arrays of one shape and float dtype, checked inline (plain_floats's
            dtype = a.dtype   # general checks cost more than the ufunc): the ufunc into the kept output
            if type(a) is np.ndarray and type(b) is np.ndarray and (dtype is _F32 or dtype is _F64) \
                    and b.dtype is dtype and a.shape == b.shape:
                self.output = out = reuse(self.output, a.shape, dtype, a, b)
                quietly(self._ufunc, a, b, out)   # (out given by position: a ufunc's third)
                return out
        # numpy arrays as they are (elementwise arithmetic gives the same values for any memory layout)
        if plain_floats(input, self._arity):
            xs = input
        else:
            xs = self._inputs(input)
        self.output = reuse(self.output, xs[0].shape, xs[0].dtype, *input)
        quietly(self._forward, xs, self.output)   # inf and nan as the arithmetic gives them, as in Torch7
        return self.output

    def updateGradInput(self, input, gradOutput):
        xs = self._inputs(input)
        check_like(self, gradOutput, "gradOutput", xs[0], "the output")
        g = array_namespace(gradOutput).ascontiguousarray(gradOutput)
        self.gradInput = reuse_list(self.gradInput, [x.shape for x in xs], xs[0].dtype, *input, gradOutput)
        quietly(self._backward, xs, g, self.gradInput)
        return self.gradInput

    def _forward(self, xs, out):
        raise NotImplementedError

    def _backward(self, xs, g, outs):
        raise NotImplementedError


class RowPair(Module):
    """The plumbing of PairwiseDistance, DotProduct and CosineDistance (not
    a layer itself): the input is a table [a, b] of two float arrays of one
    shape, 1D (one pair of vectors; the output has size [1], as in Torch7)
    or 2D ``[batch, n]`` (a pair per row; output ``[batch]``).  A subclass
    supplies ``_values(a, b)`` (one value per row of the 2D views) and
    ``_grads(a, b, g)`` (dL/da and dL/db for g, one value per row)."""

    def _pair(self, input):
        pair = check_float_arrays(self, input, "input", 2)
        if len(pair) != 2:
            raise ValueError(f"{name_of(self)}: input must be a table of 2 entries [a, b], "
                             f"got {entries(len(pair))}")
        a, b = pair
        if a.ndim not in (1, 2):
            raise ValueError(f"{name_of(self)}: input[0] must be 1D [n] or 2D [batch, n], got {describe(a)}")
        return a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])

    @staticmethod
    def _out_shape(input):
        return (input[0].shape[0],) if input[0].ndim == 2 else (1,)

    def updateOutput(self, input):
        a, b = self._pair(input)
        self.output = reuse(self.output, self._out_shape(input), a.dtype, *input)
        self.output[...] = quietly(self._values, a, b)
        return self.output

    def updateGradInput(self, input, gradOutput):
        a, b = self._pair(input)
        check_shape(self, gradOutput, "gradOutput", self._out_shape(input), a.dtype, "the output")
        self.gradInput = reuse_list(self.gradInput, [input[0].shape] * 2, a.dtype, *input, gradOutput)
        ga, gb = quietly(self._grads, a, b, array_namespace(gradOutput).ascontiguousarray(gradOutput).reshape(-1, 1))
        self.gradInput[0][...] = ga.reshape(input[0].shape)
        self.gradInput[1][...] = gb.reshape(input[1].shape)
        return self.gradInput

    def _values(self, a, b):
        raise NotImplementedError

    def _grads(self, a, b, g):
        raise NotImplementedError



def table_leaves(value):
    """The arrays of an array or (nested) table, in order."""
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in table_leaves(v)]
    return [value]


class ElementwiseExtremum(ElementwiseTable):
    """The plumbing of CMaxTable and CMinTable (not a layer itself): per
    element, the entry ``_pick`` ("argmax" or "argmin" over the entries)
    chooses wins; the gradient goes to it."""

    _pick = None

    def _winners(self, xs):
        xp = array_namespace(*xs)
        stacked = xp.stack(xs)
        return stacked, getattr(xp, self._pick)(stacked, axis=0)

    def _forward(self, xs, out):
        stacked, winners = self._winners(xs)
        out[...] = array_namespace(*xs).take_along_axis(stacked, winners[None], axis=0)[0]

    def _backward(self, xs, g, outs):
        winners = self._winners(xs)[1]
        xp = array_namespace(g)
        for i, out in enumerate(outs):
            out[...] = xp.where(winners == i, g, 0)
