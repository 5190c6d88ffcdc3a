from ._helpers.pooling import integer, t7_fields
from .SpatialMaxPooling import SpatialMaxPooling


class SpatialDilatedMaxPooling(SpatialMaxPooling):
    """SpatialMaxPooling whose window taps lie ``dilationW, dilationH`` apart:
    a ``kW x kH`` window spans ``dilationW (kW - 1) + 1`` columns and
    ``dilationH (kH - 1) + 1`` rows, so::

        outH = floor((H + 2 padH - dilationH (kH - 1) - 1) / dH) + 1   (ceil after ceil())

    and likewise outW.  Everything else (indices, ties, NaN, the gradient,
    ceil mode) as SpatialMaxPooling.  Torch7's defaults: ``dW = kW``,
    ``dH = kH``, no padding, dilation 1.
    """

    _kernel = "SpatialDilatedMaxPooling"

    def __init__(self, kW, kH, dW=None, dH=None, padW=0, padH=0, dilationW=1, dilationH=1):
        super().__init__(kW, kH, dW, dH, padW, padH)
        self.dilationW = integer(type(self).__name__, "dilationW", dilationW)
        self.dilationH = integer(type(self).__name__, "dilationH", dilationH)

    def _dilation(self):
        return (self.dilationW, self.dilationH)

    def _t7_fixup(self, version):
        raw = vars(self).get("indices")
        t7_fields(self, ("kW", "kH", "dW", "dH", "padW", "padH", "dilationW", "dilationH"),
                  {"padW": 0, "padH": 0, "dilationW": 1, "dilationH": 1, "ceil_mode": False,
                   "indices": None})
        self._t7_keep_indices(raw)

    def __repr__(self):
        return (f"nn.SpatialDilatedMaxPooling({self.kW}x{self.kH}, {self.dW},{self.dH}{self._pads()}, "
                f"{self.dilationW},{self.dilationH})")
