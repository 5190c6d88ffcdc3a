from ._helpers import spatial as _spatial
from .SpatialConvolution import SpatialConvolution


class SpatialDilatedConvolution(SpatialConvolution):
    """SpatialConvolution with the kernel's taps spread ``dilationW`` columns
    and ``dilationH`` rows apart (Torch7's ``nn.SpatialDilatedConvolution``)::

        output[o, y, x] = bias[o] + sum over c, i, j of weight[o, c, i, j] *
                          input[c, y*dH - padH + i*dilationH, x*dW - padW + j*dilationW]

    so the kernel covers ``(k - 1) * dilation + 1`` pixels along each axis and
    ``oW = (iW + 2*padW - (kW - 1)*dilationW - 1) // dW + 1`` (likewise oH).
    ``SpatialDilatedConvolution(nInputPlane, nOutputPlane, kW, kH, dW=1,
    dH=1, padW=0, padH=padW, dilationW=1, dilationH=1)``; pads lie in
    ``[0, covered width or height)``.  Shapes, gradients, buffers and reset()
    as in SpatialConvolution.
    """

    _kernel = "SpatialDilatedConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=None,
                 dilationW=1, dilationH=1):
        self.dilationW, self.dilationH = _spatial.at_least(type(self).__name__, 1, dilationW=dilationW,
                                                           dilationH=dilationH)
        super().__init__(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)

    def _spans(self):
        return _spatial.span(self.kW, self.dilationW), _spatial.span(self.kH, self.dilationH)

    def _settings(self):
        return super()._settings() + (self.dilationW, self.dilationH)

    def _dilated_settings(self):
        return self._settings()

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        self.dilationW = int(getattr(self, "dilationW", 1))
        self.dilationH = int(getattr(self, "dilationH", 1))

    def _repr_settings(self):
        return f"{super()._repr_settings()}, {self.dilationW},{self.dilationH}"
