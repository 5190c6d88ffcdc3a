import numbers

import numpy as np

from ._helpers.arrays import describe, name_of, reuse
from ._helpers.checks import torch7_order_error
from ._bases.dims import batch_dim, check_array, check_grad, check_int, from_lua, lua_int
from .Module import Module


class Padding(Module):
    """``|pad|`` entries of ``value`` inserted along ``dim`` (0-based).

    ``pad < 0`` counts ``index`` from the start: the padding goes after the
    first ``index`` entries of the input (index 0, the default: before all
    of them).  ``pad > 0`` counts it from the end: the padding goes before
    the last ``index`` entries (index 0: after all of them).  With
    ``nInputDim`` and an input of ``nInputDim + 1`` dims, dim counts after
    the batch dim.  gradInput is gradOutput without the padded entries.

    The arguments are Torch7's, in its order:
    ``Padding(dim, pad, nInputDim, value, index)``; torch.legacy.nn had
    ``Padding(dim, pad, value, index)``.  A third argument that is a float
    (``Padding(1, 2, 0.5)``, torch.legacy.nn's value) is refused with a
    TypeError naming both orders; an integer there is nInputDim, as in
    Torch7.  Write ``Padding(1, 2, value=0.5)``.
    """

    _exact_integer_arguments = ("nInputDim",)   # a float there is torch.legacy.nn's value

    def __init__(self, dim, pad, nInputDim=None, value=0, index=0):
        if isinstance(nInputDim, (float, np.floating)):
            raise torch7_order_error("Padding", f"Padding({dim!r}, {pad!r}, {nInputDim!r})",
                                     "Padding(dim, pad, nInputDim, value, index)", "Padding(dim, pad, value, index)",
                                     f"Padding({dim!r}, {pad!r}, value={nInputDim!r})")
        super().__init__()
        self.dim = check_int(self, dim, "dim")
        self.pad = check_int(self, pad, "pad")
        self.nInputDim = check_int(self, nInputDim, "nInputDim", 0, optional=True)
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(f"{name_of(self)}: value must be a number, got {value!r}")
        self.value = value
        self.index = check_int(self, index, "index", 0)

    _t7_one_based = ('dim', 'index')   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dim = from_lua(self.dim)
        self.pad = lua_int(self.pad)
        self.nInputDim = lua_int(getattr(self, "nInputDim", None))
        self.index = from_lua(getattr(self, "index", 1))
        self.value = float(getattr(self, "value", 0))
        self.__dict__.pop("outputSize", None)   # Torch7's buffer

    def _layout(self, input):
        """(dim, where the padding starts, input part before it, after it)."""
        d = batch_dim(self, self.dim, input, self.nInputDim, name="dim")
        size = input.shape[d]
        if self.index > size:
            raise ValueError(f"{name_of(self)}: index {self.index} is beyond size {size} of dimension {d} "
                             f"of input {describe(input)}")
        start = self.index if self.pad < 0 else size - self.index
        return d, start

    def _parts(self, array, d, start, stop):
        index = [slice(None)] * array.ndim
        index[d] = slice(start, stop)
        return tuple(index)

    def updateOutput(self, input):
        check_array(self, input)
        d, start = self._layout(input)
        n, p = input.shape[d], abs(self.pad)
        shape = input.shape[:d] + (n + p,) + input.shape[d + 1:]
        self.output = reuse(self.output, shape, input.dtype, input)
        self.output.fill(self.value)
        self.output[self._parts(input, d, 0, start)] = input[self._parts(input, d, 0, start)]
        self.output[self._parts(input, d, start + p, n + p)] = input[self._parts(input, d, start, n)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        d, start = self._layout(input)
        n, p = input.shape[d], abs(self.pad)
        check_grad(self, gradOutput, input.shape[:d] + (n + p,) + input.shape[d + 1:])
        self.gradInput = reuse(self.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
        self.gradInput[self._parts(input, d, 0, start)] = gradOutput[self._parts(input, d, 0, start)]
        self.gradInput[self._parts(input, d, start, n)] = gradOutput[self._parts(input, d, start + p, n + p)]
        return self.gradInput

    def __repr__(self):
        return f"nn.Padding({self.dim}, {self.pad})"

    def _onnx(self, g, x, y):
        """Pad (where the padding goes inside the input: Slice, Pad, Concat)"""
        d, start = self._layout(x.value)
        n, p = x.shape[d], abs(self.pad)
        if d == 0 and x.batched:
            g.fix_batch("it pads the batch dimension")
        before, after = [0] * x.ndim, [0] * x.ndim
        if start == 0 or start == n:
            (before if start == 0 else after)[d] = p
            return g.pad(x, before, after, value=self.value)
        after[d] = p
        head = g.pad(g.slice(x, d, 0, start), before, after, value=self.value)
        return g.op("Concat", [head, g.slice(x, d, start, n)], axis=d)
