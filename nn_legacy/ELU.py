import numpy as np

from .Module import Module


class ELU(Module):
    """Exponential linear unit, elementwise; any shape::

        y = x                      if x > 0
            alpha * (exp(x) - 1)   otherwise

    Gradient: ``dL/dx = dL/dy where x > 0, else dL/dy * alpha * exp(x)``
    (which is ``dL/dy * (y + alpha)``, the form used in place).

    With ``inplace=True`` the forward pass overwrites its input (``output`` is
    the input array itself) and the backward pass overwrites ``gradOutput``
    (``gradInput`` is that array); this needs ``alpha >= 0``.
    Torch7's defaults: ``ELU(1, False)``.
    """

    _kernel = "ELU"

    inplace = False  # for Torch7 files older than the in-place option

    def __init__(self, alpha=1, inplace=False):
        super().__init__()
        self.alpha = float(alpha)
        self.inplace = bool(inplace)
        if self.inplace and not self.alpha >= 0:
            raise ValueError(f"ELU: in-place mode needs alpha >= 0, got alpha={self.alpha}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.alpha, self.inplace)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.output, self.alpha, self.inplace)
        return self.gradInput

    def __repr__(self):
        return f"nn.ELU(alpha={self.alpha:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Elu (in float64 with an alpha float32 does not hold: Where(x > 0, x, alpha (Exp(x) - 1)))"""
        if g.exact(self.alpha):
            return g.op("Elu", [x], alpha=self.alpha)
        negative = g.op("Mul", [g.op("Sub", [g.op("Exp", [x]), np.array(1.0)]), np.array(self.alpha)])
        return g.op("Where", [g.op("Greater", [x, np.array(0.0)]), x, negative])
