import numpy as np

from .Module import Module


class Sqrt(Module):
    """Elementwise square root: ``y = sqrt(x + eps)``; any shape.

    Gradient: ``dL/dx = dL/dy / (2 y)``, and 0 where ``y = 0`` (where the
    true derivative is infinite).  ``x + eps < 0`` gives NaN.  Torch7's
    ``Sqrt(b)`` stored ``eps = b`` but its kernel never added it; here it is
    added (the default ``eps=0`` gives Torch7's results).
    """

    _kernel = "Sqrt"

    def __init__(self, eps=0):
        super().__init__()
        self.eps = float(eps)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.eps)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.output)
        return self.gradInput

    def __repr__(self):
        return f"nn.Sqrt(eps={self.eps:g})" if self.eps else "nn.Sqrt"

    def _onnx(self, g, x, y):
        """Sqrt (of x + eps)"""
        return g.op("Sqrt", [x if not self.eps else g.op("Add", [x, np.array(self.eps, dtype=x.dtype)])])
