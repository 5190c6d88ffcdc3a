import numpy as np

from .Module import Module


class SoftPlus(Module):
    """Elementwise smooth ReLU; any shape::

        y = log(1 + exp(beta * x)) / beta     (y = x where beta * x > threshold)

    Gradient: ``dL/dx = dL/dy * sigmoid(beta * x)`` (``dL/dy`` above the
    threshold, where the two branches agree to within exp(-threshold)).
    ``beta`` must be > 0.  Torch7's defaults: ``SoftPlus(1)`` with
    threshold 20, which Torch7 fixed and this constructor also takes.
    """

    _kernel = "SoftPlus"

    threshold = 20.0  # for Torch7 files that did not store it

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = float(beta)
        self.threshold = float(threshold)
        if not self.beta > 0:
            raise ValueError(f"SoftPlus: beta must be > 0, got {self.beta}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.beta, self.threshold)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.output, self.beta, self.threshold)
        return self.gradInput

    def __repr__(self):
        return f"nn.SoftPlus(beta={self.beta:g}, threshold={self.threshold:g})"

    def _onnx(self, g, x, y):
        """Softplus(beta x) / beta, x above the threshold (Where)"""
        bx = x if self.beta == 1 else g.op("Mul", [x, np.array(self.beta, dtype=x.dtype)])
        soft = g.op("Softplus", [bx])
        if self.beta != 1:
            soft = g.op("Div", [soft, np.array(self.beta, dtype=x.dtype)])
        above = g.op("Greater", [bx, np.array(self.threshold, dtype=x.dtype)])
        return g.op("Where", [above, x, soft])
