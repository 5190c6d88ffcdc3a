import numpy as np

from ._helpers.pooling import integer, t7_fields
from .Module import Module


class FeatureLPPooling(Module):
    """LP pooling across features: windows of ``width`` consecutive features,
    ``stride`` apart, each replaced by its p-norm::

        y[o] = (sum_{i < width} x[o stride + i] ^ power) ^ (1 / power)

    at every position.  Without ``batch_mode`` the input is ``[features]``,
    ``[features, a]`` or ``[features, a, b]``; with it
    ``[batch, features]``, ``[batch, features, a]`` or
    ``[batch, features, a, b]``.  The output has
    ``(features - width) / stride + 1`` features (integer division), the
    other dims unchanged.  As in Torch7 the inputs are not made absolute:
    negative inputs with an odd or fractional power give NaN.

    Gradient: ``dL/dx[o stride + i] += dL/dy[o] (x[o stride + i] / y[o]) ^ (power - 1)``,
    nothing from an output of 0.  Torch7's limits: ``2 <= width <= 16``,
    ``1 <= stride <= 4``; ``power`` must be > 0.
    """

    _kernel = "FeatureLPPooling"

    def __init__(self, width, stride, power, batch_mode=False):
        super().__init__()
        self.width = integer("FeatureLPPooling", "width", width)
        self.stride = integer("FeatureLPPooling", "stride", stride)
        self.power = float(power)
        self.batch_mode = bool(batch_mode)
        if not 2 <= self.width <= 16:
            raise ValueError(f"FeatureLPPooling: width must be between 2 and 16, got {self.width}")
        if not 1 <= self.stride <= 4:
            raise ValueError(f"FeatureLPPooling: stride must be between 1 and 4, got {self.stride}")
        if not self.power > 0:
            raise ValueError(f"FeatureLPPooling: power must be > 0, got {self.power}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.power, self.width, self.stride, self.batch_mode)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            gradOutput, input, self.output, self.gradInput, self.power, self.width, self.stride, self.batch_mode)
        return self.gradInput

    def _t7_fixup(self, version):
        t7_fields(self, ("width", "stride"), {"batch_mode": False})
        self.power = float(self.power)

    def __repr__(self):
        mode = ", batch mode" if self.batch_mode else ""
        return f"nn.FeatureLPPooling(width {self.width}, stride {self.stride}, power {self.power:g}{mode})"

    def _onnx(self, g, x, y):
        """Pow, Sum of a strided Slice per window offset, Pow(1 / power)"""
        axis = 1 if self.batch_mode else 0
        n = y.shape[axis]
        powered = g.op("Pow", [x, np.array(self.power, dtype=x.dtype)])
        parts = [g.slice(powered, axis, i, i + self.stride * (n - 1) + 1, self.stride) for i in range(self.width)]
        return g.op("Pow", [g.op("Sum", parts), np.array(1 / self.power, dtype=x.dtype)])
