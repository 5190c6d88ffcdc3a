import numpy as np

from .Module import Module


class Threshold(Module):
    """Elementwise ``y = x if x > threshold else value``; any shape.  A NaN
    input stays NaN (and passes its gradient), as in PyTorch.

    Gradient: ``dL/dx = dL/dy where x > threshold, else 0``.

    With ``inplace=True`` the forward pass overwrites its input (``output`` is
    the input array itself) and the backward pass overwrites ``gradOutput``
    (``gradInput`` is that array); this needs ``value <= threshold``.
    Torch7's defaults: ``Threshold(1e-6, 0)``.
    """

    _kernel = "Threshold"

    def __init__(self, threshold=1e-6, value=0, inplace=False):
        super().__init__()
        self.threshold = float(threshold)
        self.val = float(value)
        self.inplace = bool(inplace)
        if self.inplace and not self.val <= self.threshold:
            raise ValueError(f"{type(self).__name__}: in-place mode needs value <= threshold, "
                             f"got value={self.val}, threshold={self.threshold}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.threshold, self.val, self.inplace)
        return self.output

    def _fusable(self):
        """Whether the module before this one in a Sequential may do this
        step in its own pass (see Module._fuse_next): an in-place Threshold
        whose forward step is this class's."""
        return self.inplace and type(self).updateOutput is Threshold.updateOutput

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.threshold, self.val, self.inplace)
        return self.gradInput

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.threshold:g}, {self.val:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Relu for Threshold(0, 0), else Where(x <= threshold, value, x)"""
        if self.threshold == 0 and self.val == 0:
            return g.op("Relu", [x])
        low = g.op("LessOrEqual", [x, np.array(self.threshold, dtype=x.dtype)])
        return g.op("Where", [low, np.array(self.val, dtype=x.dtype), x])
