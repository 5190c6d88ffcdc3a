import numpy as np

from .Module import Module


class LeakyReLU(Module):
    """Leaky rectifier, elementwise: ``y = x if x > 0 else negval * x``; any shape.

    Gradient: ``dL/dx = dL/dy where x > 0, else negval * dL/dy``.

    With ``inplace=True`` the forward pass overwrites its input (``output`` is
    the input array itself) and the backward pass overwrites ``gradOutput``
    (``gradInput`` is that array); this needs ``negval >= 0``.
    Torch7's defaults: ``LeakyReLU(1/100, False)``.
    """

    _kernel = "LeakyReLU"

    inplace = False  # for Torch7 files older than the in-place option

    def __init__(self, negval=1 / 100, inplace=False):
        super().__init__()
        self.negval = float(negval)
        self.inplace = bool(inplace)
        if self.inplace and not self.negval >= 0:
            raise ValueError(f"LeakyReLU: in-place mode needs negval >= 0, got negval={self.negval}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.negval, self.inplace)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.negval, self.inplace)
        return self.gradInput

    def __repr__(self):
        return f"nn.LeakyReLU({self.negval:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """LeakyRelu (PRelu in float64 with a slope float32 does not hold)"""
        return _leaky(g, x, self.negval)


def _leaky(g, x, slope):
    """LeakyRelu, or PRelu with the slope as a tensor where ONNX's float32 attribute would round it."""
    if g.exact(slope):
        return g.op("LeakyRelu", [x], alpha=slope)
    return g.op("PRelu", [x, np.array([slope])])
