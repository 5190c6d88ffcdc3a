import numpy as np

from ._helpers.arrays import name_of, reuse
from ._bases.dims import _NUMERIC, batch_dim, check_grad, check_int, from_lua, lua_int, shape_text
from ._helpers.namespace import array_namespace
from ._bases.tables import check_arrays, reuse_list
from .Module import Module

#: np.concatenate without the __array_function__ dispatch, for numpy arrays only (0.45 of its 1.1 us on a
#: small table)
_concatenate = getattr(np.concatenate, "_implementation", np.concatenate)


class JoinTable(Module):
    """A table of arrays concatenated along ``dimension``: ``output =
    np.concatenate(input, axis=dimension)``.  The arrays must have one
    dtype and agree in every other dim.  ``dimension`` is 0-based,
    negative from the end; with ``nInputDims`` and inputs of
    ``nInputDims + 1`` dims it counts after the batch dim.  gradInput[i] is
    the part of gradOutput that came from input[i] (a copy)."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, dimension, nInputDims=None):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")
        self.nInputDims = check_int(self, nInputDims, "nInputDims", 0, optional=True)

    _t7_one_based = ('dimension',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dimension = from_lua(self.dimension)
        self.nInputDims = lua_int(getattr(self, "nInputDims", None))

    def _layout(self, input):
        """(dim, output shape, whether every entry is a numpy array) after the checks."""
        if type(input) is list and input and type(input[0]) is np.ndarray:   # the usual case, checked fast
            first = input[0]
            dtype, shape, total = first.dtype, first.shape, 0
            d = self.dimension + len(shape) if self.dimension < 0 else self.dimension
            if self.nInputDims is not None and self.dimension >= 0 and len(shape) == self.nInputDims + 1:
                d += 1
            if dtype.kind in _NUMERIC and 0 <= d < len(shape):   # (else the checks below raise, in their order)
                for x in input:
                    s = x.shape if type(x) is np.ndarray and x.dtype is dtype else None
                    if s is None or len(s) != len(shape) or s[:d] != shape[:d] or s[d + 1:] != shape[d + 1:]:
                        break
                    total += s[d]
                else:
                    return d, shape[:d] + (total,) + shape[d + 1:], True
        xs = check_arrays(self, input)
        first = xs[0]
        d = batch_dim(self, self.dimension, first, self.nInputDims, what="input[0]")
        rest = first.shape[:d] + first.shape[d + 1:]
        for i, x in enumerate(xs[1:], 1):
            if x.dtype != first.dtype:
                raise TypeError(f"{name_of(self)}: input[{i}] is {x.dtype} but input[0] is {first.dtype}")
            if x.ndim != first.ndim or x.shape[:d] + x.shape[d + 1:] != rest:
                raise ValueError(f"{name_of(self)}: input[{i}] has size {shape_text(x.shape)}, which cannot be "
                                 f"joined along dimension {d} with size {shape_text(first.shape)} of input[0]")
        shape = first.shape[:d] + (sum(x.shape[d] for x in xs),) + first.shape[d + 1:]
        return d, shape, False

    def updateOutput(self, input):
        d, shape, host = self._layout(input)
        self.output = out = reuse(self.output, shape, input[0].dtype, *input)
        if host and type(out) is np.ndarray:   # numpy arrays only: numpy's concatenate without its dispatch
            _concatenate(input, d, out)
        else:
            array_namespace(*input).concatenate(input, axis=d, out=out)
        return out

    def updateGradInput(self, input, gradOutput):
        d, shape, _ = self._layout(input)
        check_grad(self, gradOutput, shape)
        self.gradInput = reuse_list(self.gradInput, [x.shape for x in input], gradOutput.dtype, *input, gradOutput)
        index, offset = [slice(None)] * gradOutput.ndim, 0
        for x, g in zip(input, self.gradInput):
            index[d] = slice(offset, offset + x.shape[d])
            g[...] = gradOutput[tuple(index)]
            offset += x.shape[d]
        return self.gradInput

    def __repr__(self):
        return f"nn.{name_of(self)}({self.dimension})"

    def _onnx(self, g, x, y):
        """Concat"""
        d, _, _ = self._layout([v.value for v in x])
        return g.op("Concat", x, axis=d)
