import numpy as np

from ._helpers.arrays import describe, is_array, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class ReverseSequence(Module):
    """Reverses a sequence in time: a table (list) of steps comes out in
    reverse order (the same arrays), an array ``[seqlen, ...]`` is reversed
    along its first dim (a new array).  gradInput is gradOutput reversed the
    same way.  torch/rnn's ReverseSequence (2017), which replaced
    SeqReverseSequence (an array, a dim of your choice) and dpnn's
    ReverseTable (a table, see ReverseTable).  Runs on CUDA.
    """

    def _reversed(self, buffer, value, name):
        if (type(value) is np.ndarray and type(buffer) is np.ndarray and buffer.shape == value.shape
                and value.ndim and buffer.dtype == value.dtype and buffer.flags.writeable
                and not np.may_share_memory(buffer, value)):   # the usual case: reuse()'s, without its calls
            buffer[...] = value[::-1]
            return buffer
        if isinstance(value, (list, tuple)):
            return list(reversed(value))
        if not is_array(value):
            raise TypeError(f"{type(self).__name__}: {name} must be a table of steps or an array [seqlen, ...], "
                            f"got {type(value).__name__}")
        if value.ndim < 1:
            raise ValueError(f"{type(self).__name__}: {name} must have a time dim, got {describe(value)}")
        out = reuse(buffer if is_array(buffer) else None, value.shape, value.dtype, value)
        # on the host a reversed view (np.flip's axis handling is Python, a few microseconds a call)
        out[...] = value[::-1] if type(value) is np.ndarray else array_namespace(value).flip(value, 0)
        return out

    def _t7_fixup(self, version):
        for name in ("_range", "outputIndices", "gradIndices"):
            vars(self).pop(name, None)
        self.output = self.gradInput = None

    def updateOutput(self, input):
        self.output = self._reversed(self.output, input, "input")
        return self.output

    def updateGradInput(self, input, gradOutput):
        if isinstance(input, (list, tuple)) != isinstance(gradOutput, (list, tuple)) or len(input) != len(gradOutput):
            raise ValueError(f"{type(self).__name__}: gradOutput must be laid out as the input ({len(input)} steps)")
        if is_array(input) and gradOutput.shape != input.shape:
            raise ValueError(f"{type(self).__name__}: gradOutput must be {describe(input)} like the input, got "
                             f"{describe(gradOutput)}")
        self.gradInput = self._reversed(self.gradInput, gradOutput, "gradOutput")
        return self.gradInput

    def _onnx(self, g, x, y):
        """a table's entries in reverse order, or Slice with step -1 along time"""
        if isinstance(x, list):
            return list(reversed(x))
        return g.slice(x, 0, -1, np.iinfo(np.int64).min, -1)
