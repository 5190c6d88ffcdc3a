"""Dims, slices and reductions shared by the shape and table modules.

- ``check_array``: the modules that only move elements (Narrow, View,
  SplitTable, ...) take arrays of any numeric or boolean dtype, as Torch7's
  took any tensor type; the modules that compute take float32/float64 only.
- ``batch_dim``: Torch7's rule for a dim given with ``nInputDims`` (one
  helper for every module that has it).
- ``from_lua``: a dim or index read from a Torch7 file, made 0-based.
- ``SliceOf``: output = a copy of part of the input (Narrow, Select).
- ``Reduction``: the plumbing of Sum, Mean, Max and Min.
"""
import numpy as np

from .._helpers.arrays import ARRAYS, check_float_array, check_shape, describe, host_plan, name_of, reuse
from .._helpers.namespace import array_namespace
from ..Module import Module

_NUMERIC = "biuf"   # bool, int, unsigned, float


def check_array(module, value, name="input"):
    """value, checked to be an array of numbers or booleans."""
    if not isinstance(value, ARRAYS):
        raise TypeError(f"{name_of(module)}: {name} must be a numpy array, got {type(value).__name__}")
    if value.dtype.kind not in _NUMERIC:
        raise TypeError(f"{name_of(module)}: {name} must hold numbers, got {value.dtype}")
    return value


def check_grad(module, gradOutput, shape, name="gradOutput", what="the output"):
    """gradOutput of a module that moves elements: any numeric array of this shape."""
    check_array(module, gradOutput, name)
    if gradOutput.shape != tuple(shape):
        raise ValueError(f"{name_of(module)}: {name} must be of size [{', '.join(map(str, shape))}] "
                         f"like {what}, got {describe(gradOutput)}")
    return gradOutput


def check_int(module, value, name, minimum=None, optional=False):
    """value as an int (a bool is refused); at least minimum when given."""
    if optional and value is None:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name_of(module)}: {name} must be an integer{' or None' if optional else ''}, "
                        f"got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name_of(module)}: {name} must be at least {minimum}, got {value}")
    return int(value)


def batch_dim(module, dim, array, nInputDims=None, name="dimension", what="input", new=False):
    """The 0-based dim of ``array`` that ``dim`` names, by Torch7's rule:
    a negative dim counts from the end; otherwise, with ``nInputDims`` set
    and an array of ``nInputDims + 1`` dims (a batch), dim moves one on,
    past the batch dim.  With ``new=True`` dim is the place of a dim to be
    inserted, so it may also be ``array.ndim``."""
    n = array.ndim + (1 if new else 0)
    if dim < 0:
        d = dim + n
    elif nInputDims is not None and array.ndim == nInputDims + 1:
        d = dim + 1
    else:
        d = dim
    if not 0 <= d < n:
        given = f"{name} {dim}" + (f" (nInputDims {nInputDims})" if nInputDims is not None else "")
        raise ValueError(f"{name_of(module)}: {given} is out of range for {what} {describe(array)}")
    return d


def from_lua(value):
    """A dim or index as Torch7 stored it (a Lua number counted from 1, or
    negative from the end) as a 0-based int; None stays None."""
    if value is None:
        return None
    value = int(value)
    return value - 1 if value > 0 else value


def lua_int(value):
    """A Lua number (a float) that holds a count, as an int; None stays None."""
    return None if value is None else int(value)


class SliceOf(Module):
    """The plumbing of Narrow and Select (not a layer itself): the output is
    a copy of ``input[index]`` for the index ``_index(input)`` gives, and
    gradInput is zero but for gradOutput at that index.  The subclasses'
    fields are ``dimension``, ``index`` and (Narrow) ``length``."""

    _cache_names = ("_plan",)   # the checked index per input shape (see host_plan)

    def __init__(self):
        super().__init__()
        self._plan = None

    def _index(self, input):
        raise NotImplementedError

    def _checked_index(self, input):
        check_array(self, input)
        return self._index(input)

    def updateOutput(self, input):
        index = host_plan(self, input, (self.dimension, self.index, getattr(self, "length", None)),
                          self._checked_index)
        if index is None:   # a device or strided input: the checks each call
            index = self._checked_index(input)
        part = input[index]
        self.output = reuse(self.output, part.shape, input.dtype, input)
        self.output[...] = part
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        index = self._index(input)
        check_grad(self, gradOutput, input[index].shape)
        self.gradInput = reuse(self.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
        self.gradInput.fill(0)
        self.gradInput[index] = gradOutput
        return self.gradInput


class Reduction(Module):
    """The plumbing of Sum, Mean, Max and Min (not a layer itself): a float
    input reduced along ``dimension`` (0-based, negative from the end,
    shifted past the batch dim by ``nInputDims``, see ``batch_dim``).  The
    reduced dim is removed, except that a 1D input gives a 1D output of
    size 1, as in Torch7.  A subclass supplies ``_reduce(x, d, out)`` (the
    reduction of the C-contiguous x into out, shaped as x with the dim
    kept at size 1) and ``_spread(x, g, d, out)`` (dL/dx into out, from g
    shaped as ``_reduce``'s out)."""

    _cache_names = ("_plan",)   # _shapes per input shape (see host_plan)

    def __init__(self, dimension=0, nInputDims=None):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")
        self.nInputDims = check_int(self, nInputDims, "nInputDims", 0, optional=True)
        self._plan = None

    _t7_one_based = ("dimension",)   # save_lua: 1-based again

    def _t7_fixup(self, version):
        self.dimension = from_lua(self.dimension)
        self.nInputDims = lua_int(getattr(self, "nInputDims", None))

    def _dim(self, input):
        check_float_array(self, input, "input")
        if input.ndim == 0:
            raise ValueError(f"{name_of(self)}: input must have at least one dimension, got a 0D array")
        return batch_dim(self, self.dimension, input, self.nInputDims)

    def _out_shape(self, input, d):
        return input.shape[:d] + input.shape[d + 1:] if input.ndim > 1 else (1,)

    def _shapes(self, input):
        """input checked; (the dim, the output's shape, the input's shape with the dim kept at size 1)."""
        d = self._dim(input)
        return d, self._out_shape(input, d), input.shape[:d] + (1,) + input.shape[d + 1:]

    def updateOutput(self, input):
        plan = host_plan(self, input, (self.dimension, self.nInputDims, getattr(self, "squeeze", None)),
                         self._shapes)
        if plan is None:   # the same sums, in the same order, whatever the layout
            plan, x = self._shapes(input), array_namespace(input).ascontiguousarray(input)
        else:   # (a C-contiguous host array of a shape seen before: checked then)
            x = input
        d, out_shape, kept = plan
        output = reuse(self.output, out_shape, input.dtype, input)
        if type(output) is np.ndarray and not output.flags.c_contiguous:   # (a strided buffer from a file)
            output = np.empty(output.shape, output.dtype)   # its reshape below would be a copy
        self.output = output
        self._reduce(x, d, output.reshape(kept))
        return output

    def updateGradInput(self, input, gradOutput):
        d = self._dim(input)
        check_shape(self, gradOutput, "gradOutput", self._out_shape(input, d), input.dtype, "the output")
        xp = array_namespace(input, gradOutput)
        x = xp.ascontiguousarray(input)
        kept = input.shape[:d] + (1,) + input.shape[d + 1:]
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self._spread(x, xp.ascontiguousarray(gradOutput).reshape(kept), d, self.gradInput)
        return self.gradInput

    def _reduce(self, x, d, out):
        raise NotImplementedError

    def _spread(self, x, g, d, out):
        raise NotImplementedError

    def __repr__(self):
        return f"nn.{name_of(self)}({self.dimension})"

    def _onnx_reduce(self, g, x, op):
        """The reduction ``op`` (ReduceSum, ReduceMax, ...) along the dim, as forward shapes it."""
        return g.op(op, [x, g.ints([self._dim(x.value)])], keepdims=1 if x.ndim == 1 else 0)


class Extremum(Reduction):
    """Max and Min: the largest (smallest) value along the dim, and its
    0-based position in ``indices`` (the first one on ties; a NaN counts as
    the extremum, so it propagates).  The gradient goes to that position."""

    _arg = None  # "argmax" or "argmin": the namespace function that finds the position
    _buffer_names = ("indices", "_offsets")

    def __init__(self, dimension=0, nInputDims=None):
        super().__init__(dimension, nInputDims)
        self.indices = None

    def updateOutput(self, input):
        super().updateOutput(input)
        self.indices = self.indices.reshape(self.output.shape)
        return self.output

    def _reduce(self, x, d, out):
        if type(x) is np.ndarray:   # (x is C-contiguous: updateOutput made it so)
            self._take_host(x, d, out)
            return
        xp = array_namespace(x)
        self.indices = xp.expand_dims(getattr(xp, self._arg)(x, axis=d), d)
        out[...] = xp.take_along_axis(x, self.indices, axis=d)

    def _take_host(self, x, d, out):
        """take_along_axis's values for a C-contiguous host array, into out,
        without its index building per call: the flat position of element
        (a, k, b) of x seen as [before d, along d, after d] is
        a * n * after + k * after + b; the a * n * after + b part depends
        only on the shape and d, so it is kept (``_offsets``) while they
        stay the same."""
        self.indices = getattr(x, self._arg)(axis=d, keepdims=True)   # (the methods: no dispatch through Python)
        cached = getattr(self, "_offsets", None)
        if cached is None or cached[0] != (x.shape, d):
            n, before, after = x.shape[d], 1, 1
            for size in x.shape[d + 1:]:
                after *= size
            for size in x.shape[:d]:
                before *= size
            offsets = np.arange(before).reshape(before, 1) * (n * after) + np.arange(after)
            cached = self._offsets = ((x.shape, d), offsets.reshape(self.indices.shape), after)
        if cached[2] == 1:   # the dim is the last: the positions along it are the offsets' steps
            flat = self.indices + cached[1]
        else:
            flat = self.indices * cached[2]
            flat += cached[1]
        x.reshape(-1).take(flat, out=out, mode="clip")   # (every flat position is in range)

    def _spread(self, x, g, d, out):
        # the positions again: the input may differ from the last forward's
        xp = array_namespace(x)
        index = xp.expand_dims(getattr(xp, self._arg)(x, axis=d), d)
        out.fill(0)
        xp.put_along_axis(out, index, g, axis=d)


class ViewOf(Module):
    """The plumbing of Reshape, View, Squeeze, Unsqueeze and Collapse (not a
    layer itself): the output is the input with the shape ``_shape(input)``
    gives, and gradInput is gradOutput with the input's shape.  Both are
    views of the array passed in when its memory allows (numpy's reshape;
    always so for C-contiguous arrays), else copies, so writing into the
    output writes into the input, as in Torch7."""

    def _shape(self, input):
        raise NotImplementedError

    def updateOutput(self, input):
        check_array(self, input)
        self.output = input.reshape(self._shape(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        check_grad(self, gradOutput, self._shape(input))
        self.gradInput = gradOutput.reshape(input.shape)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Reshape"""
        return g.reshape(x, y)


def sizes_arg(module, size, name="size", allow_infer=False):
    """Sizes given Torch7-style as numbers (``View(3, 4)``) or as one tuple
    or list (``View((3, 4))``): a tuple of positive ints, with one -1 (the
    size to infer) allowed when allow_infer."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    ok = bool(size) and all(isinstance(n, (int, np.integer)) and not isinstance(n, (bool, np.bool_))
                            and (n > 0 or (allow_infer and n == -1)) for n in size)
    if not ok or list(size).count(-1) > 1:
        what = "positive integers, with at most one -1" if allow_infer else "positive integers"
        raise ValueError(f"{name_of(module)}: {name} must be one or more {what}, got {size}")
    return tuple(int(n) for n in size)


def shape_text(shape):
    return "[" + ", ".join(map(str, shape)) + "]"
