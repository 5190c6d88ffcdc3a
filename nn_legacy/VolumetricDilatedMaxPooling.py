from ._helpers.pooling import integer, t7_fields
from .VolumetricMaxPooling import VolumetricMaxPooling


class VolumetricDilatedMaxPooling(VolumetricMaxPooling):
    """VolumetricMaxPooling whose window taps lie ``dilationT, dilationW,
    dilationH`` apart: along time a window spans ``dilationT (kT - 1) + 1``
    steps, so::

        outT = floor((T + 2 padT - dilationT (kT - 1) - 1) / dT) + 1   (ceil after ceil())

    and likewise outH, outW.  Everything else (indices, ties, NaN, the
    gradient) as VolumetricMaxPooling.  Torch7's defaults: strides equal to
    the kernel, no padding, dilation 1.
    """

    _kernel = "VolumetricDilatedMaxPooling"

    def __init__(self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0,
                 dilationT=1, dilationW=1, dilationH=1):
        super().__init__(kT, kW, kH, dT, dW, dH, padT, padW, padH)
        name = type(self).__name__
        self.dilationT = integer(name, "dilationT", dilationT)
        self.dilationW = integer(name, "dilationW", dilationW)
        self.dilationH = integer(name, "dilationH", dilationH)

    def _dilation(self):
        return (self.dilationT, self.dilationW, self.dilationH)

    def _t7_fixup(self, version):
        raw = vars(self).get("indices")
        t7_fields(self, ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH",
                         "dilationT", "dilationW", "dilationH"),
                  {"padT": 0, "padW": 0, "padH": 0, "dilationT": 1, "dilationW": 1, "dilationH": 1,
                   "ceil_mode": False, "indices": None})
        self._t7_keep_indices(raw)

    def __repr__(self):
        return (f"nn.VolumetricDilatedMaxPooling({self.kT}x{self.kW}x{self.kH}, {self.dT},{self.dW},{self.dH}"
                f"{self._pads()}, {self.dilationT},{self.dilationW},{self.dilationH})")
