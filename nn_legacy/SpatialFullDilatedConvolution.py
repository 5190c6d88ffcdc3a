from ._helpers import spatial as _spatial
from .SpatialFullConvolution import SpatialFullConvolution


class SpatialFullDilatedConvolution(SpatialFullConvolution):
    """SpatialFullConvolution with the kernel's taps ``dilationW`` columns and
    ``dilationH`` rows apart (Torch7's ``nn.SpatialFullDilatedConvolution``,
    the transpose of SpatialDilatedConvolution)::

        output[o, y*dH - padH + i*dilationH, x*dW - padW + j*dilationW] += weight[c, o, i, j] * input[c, y, x]

    so ``oW = (iW - 1) * dW - 2*padW + (kW - 1)*dilationW + 1 + adjW``
    (likewise oH), with ``adjW`` at least 0 and smaller than dW or than
    dilationW (likewise adjH).  Arguments:
    ``SpatialFullDilatedConvolution(nInputPlane, nOutputPlane, kW, kH, dW=1,
    dH=1, padW=0, padH=0, dilationW=1, dilationH=1, adjW=0, adjH=0)``; pads
    lie in ``[0, covered width or height)``.  Shapes, gradients, buffers and
    reset() as in SpatialFullConvolution.
    """

    _kernel = "SpatialFullDilatedConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0,
                 dilationW=1, dilationH=1, adjW=0, adjH=0):
        self.dilationW, self.dilationH = _spatial.at_least(type(self).__name__, 1, dilationW=dilationW,
                                                           dilationH=dilationH)
        super().__init__(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH, adjW, adjH)

    def _spans(self):
        return _spatial.span(self.kW, self.dilationW), _spatial.span(self.kH, self.dilationH)

    def _check_adj(self):
        if not ((self.adjW < self.dW or self.adjW < self.dilationW)
                and (self.adjH < self.dH or self.adjH < self.dilationH)):
            raise ValueError(f"{type(self).__name__}: adjW and adjH must be smaller than the stride or the "
                             f"dilation, got adjW={self.adjW}, adjH={self.adjH} with dW={self.dW}, dH={self.dH}, "
                             f"dilationW={self.dilationW}, dilationH={self.dilationH}")

    def _settings(self):
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH, self.dilationW, self.dilationH,
                self.adjW, self.adjH)

    def _t7_fixup(self, version):
        self.dilationW = int(getattr(self, "dilationW", 1))
        self.dilationH = int(getattr(self, "dilationH", 1))
        super()._t7_fixup(version)

    def _repr_settings(self):
        return f"{super()._repr_settings()}, dilation {self.dilationW},{self.dilationH}"
