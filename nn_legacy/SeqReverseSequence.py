import numpy as np

from ._helpers.arrays import check_like, describe, is_array, reuse
from ._bases.dims import from_lua
from ._helpers.namespace import array_namespace
from .Module import Module


class SeqReverseSequence(Module):
    """Reverses an array along one of its first three dims: ``output =
    np.flip(input, dim)`` as a new contiguous array (``dim`` 0-based, at
    most 2; the rnn package's dims were 1-based).  gradInput is gradOutput
    reversed the same way."""

    def __init__(self, dim):
        super().__init__()
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool) or not 0 <= dim <= 2:
            raise ValueError(f"SeqReverseSequence: dim must be 0, 1 or 2, got {dim!r}")
        self.dim = int(dim)

    _t7_one_based = ('dim',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dim = from_lua(self.dim)
        for name in ("outputIndices", "gradIndices"):
            vars(self).pop(name, None)

    def _reversed(self, buffer, value, name):
        if not is_array(value):
            raise TypeError(f"SeqReverseSequence: {name} must be an array, got {type(value).__name__}")
        if value.ndim <= self.dim:
            raise ValueError(f"SeqReverseSequence: {name} must have more than {self.dim} dims to reverse dim "
                             f"{self.dim}, got {describe(value)}")
        out = reuse(buffer, value.shape, value.dtype, value)
        out[...] = array_namespace(value).flip(value, self.dim)
        return out

    def updateOutput(self, input):
        self._kernels(input)
        self.output = self._reversed(self.output, input, "input")
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = self._reversed(self.gradInput, gradOutput, "gradOutput")
        return self.gradInput

    def __repr__(self):
        return f"nn.SeqReverseSequence({self.dim})"

    def _onnx(self, g, x, y):
        """Slice with step -1 along the dim"""
        return g.slice(x, self.dim, -1, np.iinfo(np.int64).min, -1)
