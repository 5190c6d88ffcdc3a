import numpy as np

from ._helpers.pooling import integer, t7_fields
from ._bases.pooling_modes import AveragingModes
from .Module import Module


class SpatialAveragePooling(AveragingModes, Module):
    """Mean over ``kW x kH`` windows moved by ``dW, dH`` over each plane.

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``; output
    ``[planes, outH, outW]`` or ``[batch, planes, outH, outW]`` with::

        outH = floor((H + 2 padH - kH) / dH) + 1      (ceil after ceil())
        outW = floor((W + 2 padW - kW) / dW) + 1

    where ``padW, padH`` add implicit zero borders, ``0 <= pad <= k / 2``.
    In ceil mode a last window that would start in the bottom or right
    padding is dropped, and a window running past the padded border is cut
    there.  Each window's sum is divided by the number of its taps inside
    input and padding (``count_include_pad``, the default) or inside the
    input only (after ``setCountExcludePad()``), as PyTorch's avg_pool2d.

    Gradient: each output's ``dL/dy`` divided the same way is added to every
    input element of its window.  Torch7's defaults: ``dW = dH = 1``, no
    padding, floor mode, padding counted.  A module loaded from an old Torch7
    file with ``divide = false`` returns window sums (Torch7's behaviour).
    """

    _kernel = "SpatialAveragePooling"

    def __init__(self, kW, kH, dW=1, dH=1, padW=0, padH=0):
        super().__init__()
        name = type(self).__name__
        self.kW, self.kH = integer(name, "kW", kW), integer(name, "kH", kH)
        self.dW, self.dH = integer(name, "dW", dW), integer(name, "dH", dH)
        self.padW, self.padH = integer(name, "padW", padW), integer(name, "padH", padH)
        self.ceil_mode = False
        self.count_include_pad = True
        self.divide = True

    def _args(self):
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH, self.ceil_mode, self.count_include_pad)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, *self._args())
        if not self.divide:
            self.output *= self.kW * self.kH
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._args())
        if not self.divide:
            self.gradInput *= self.kW * self.kH
        return self.gradInput

    # files from before March 2015 have no divide field: Torch7 then
    # returned window sums ("if not self.divide"), as those versions did
    _t7_absent = {"divide": False}

    def _t7_fixup(self, version):
        # Torch7 files from before padding existed have no ceil_mode; it then reset the padding too
        old = getattr(self, "ceil_mode", None) is None
        t7_fields(self, ("kW", "kH", "dW", "dH", "padW", "padH"),
                  {"ceil_mode": False, "count_include_pad": True, "padW": 0, "padH": 0})
        self.divide = bool(self.divide)
        if old:
            self.padW = self.padH = 0
            self.count_include_pad = True

    def __repr__(self):
        pads = f", {self.padW},{self.padH}" if self.padW or self.padH else ""
        return f"nn.SpatialAveragePooling({self.kW}x{self.kH}, {self.dW},{self.dH}{pads})"

    def _onnx(self, g, x, y):
        """AveragePool (count_include_pad as set; window sums via Mul when divide is off)"""
        out = g.pool("AveragePool", x, y, (self.kH, self.kW), (self.dH, self.dW), (self.padH, self.padW),
                     self.ceil_mode, count_include_pad=1 if self.count_include_pad else 0)
        return out if self.divide else g.op("Mul", [out, np.array(self.kW * self.kH, dtype=x.dtype)])
