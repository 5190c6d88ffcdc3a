from ._helpers.pooling import integer, t7_fields
from ._bases.pooling_modes import AveragingModes
from .Module import Module


class VolumetricAveragePooling(AveragingModes, Module):
    """Mean over ``kT x kW x kH`` windows moved by ``dT, dW, dH`` over each
    block of a sequence of planes.

    input ``[planes, T, H, W]`` or ``[batch, planes, T, H, W]``; output
    ``[(batch,) planes, outT, outH, outW]`` with::

        outT = floor((T + 2 padT - kT) / dT) + 1      (ceil after ceil())

    and likewise outH, outW, where the padding adds implicit zero borders,
    ``0 <= pad <= k / 2``.  In ceil mode a last window that would start in
    the far padding is dropped, and a window running past the padded border
    is cut there.  Each window's sum is divided by the number of its taps
    inside input and padding (``count_include_pad``, the default) or inside
    the input only (after ``setCountExcludePad()``), as PyTorch's
    avg_pool3d.

    Gradient: each output's ``dL/dy`` divided the same way is added to every
    input element of its window.  Torch7's defaults: strides equal to the
    kernel, no padding, floor mode, padding counted.
    """

    _kernel = "VolumetricAveragePooling"

    def __init__(self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0):
        super().__init__()
        name = type(self).__name__
        self.kT, self.kW, self.kH = integer(name, "kT", kT), integer(name, "kW", kW), integer(name, "kH", kH)
        self.dT = self.kT if dT is None else integer(name, "dT", dT)
        self.dW = self.kW if dW is None else integer(name, "dW", dW)
        self.dH = self.kH if dH is None else integer(name, "dH", dH)
        self.padT, self.padW, self.padH = (integer(name, "padT", padT), integer(name, "padW", padW),
                                           integer(name, "padH", padH))
        self.ceil_mode = False
        self.count_include_pad = True

    def _t7_unfixup(self, fields):
        """save_lua: torch/nn's VolumetricAveragePooling (to 8726825, its last) passes no padding, floor
        mode and padding counted to THNN whatever its fields say: other settings have no Torch7 counterpart."""
        if (self.padT, self.padW, self.padH) != (0, 0, 0) or self.ceil_mode or not self.count_include_pad:
            raise TypeError(f"save_lua: nn.VolumetricAveragePooling with padding ({self.padT}, {self.padW}, "
                            f"{self.padH}), ceil_mode={self.ceil_mode}, count_include_pad={self.count_include_pad} "
                            f"has no Torch7 counterpart (torch/nn's runs unpadded, floor mode)")

    def _args(self):
        return (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                self.ceil_mode, self.count_include_pad)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, *self._args())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._args())
        return self.gradInput

    def _t7_fixup(self, version):
        t7_fields(self, ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH"),
                  {"padT": 0, "padW": 0, "padH": 0, "ceil_mode": False, "count_include_pad": True})

    def __repr__(self):
        pads = f", {self.padT},{self.padW},{self.padH}" if self.padT or self.padW or self.padH else ""
        return f"nn.VolumetricAveragePooling({self.kT}x{self.kW}x{self.kH}, {self.dT},{self.dW},{self.dH}{pads})"

    def _onnx(self, g, x, y):
        """AveragePool (3D; count_include_pad as set)"""
        return g.pool("AveragePool", x, y, (self.kT, self.kH, self.kW), (self.dT, self.dH, self.dW),
                      (self.padT, self.padH, self.padW), self.ceil_mode,
                      count_include_pad=1 if self.count_include_pad else 0)
