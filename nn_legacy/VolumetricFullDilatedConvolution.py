from ._helpers import volumetric as _volumetric
from .VolumetricFullConvolution import VolumetricFullConvolution


class VolumetricFullDilatedConvolution(VolumetricFullConvolution):
    """VolumetricFullConvolution with the kernel's taps ``dilationT``
    frames, ``dilationW`` columns and ``dilationH`` rows apart (Torch7's
    ``nn.VolumetricFullDilatedConvolution``, the transpose of
    VolumetricDilatedConvolution)::

        output[o, t*dT - padT + a*dilationT, y*dH - padH + b*dilationH, x*dW - padW + e*dilationW]
            += weight[c, o, a, b, e] * input[c, t, y, x]

    so ``oT = (T - 1) * dT - 2*padT + (kT - 1)*dilationT + 1 + adjT``
    (likewise oH, oW), with each adj at least 0 and smaller than its stride
    or its dilation.  Arguments: ``VolumetricFullDilatedConvolution(
    nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0,
    padH=0, dilationT=1, dilationW=1, dilationH=1, adjT=0, adjW=0, adjH=0)``.
    Shapes, gradients, buffers and reset() as in VolumetricFullConvolution.
    """

    _kernel = "VolumetricFullDilatedConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0, padH=0,
                 dilationT=1, dilationW=1, dilationH=1, adjT=0, adjW=0, adjH=0):
        self.dilationT, self.dilationW, self.dilationH = _volumetric.positive(
            type(self).__name__, dilationT=dilationT, dilationW=dilationW, dilationH=dilationH)
        super().__init__(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH, adjT, adjW, adjH)

    def _check_adj(self):
        _volumetric.check_adj(type(self).__name__, dict(adjT=self.adjT, adjW=self.adjW, adjH=self.adjH),
                              dict(dT=self.dT, dW=self.dW, dH=self.dH),
                              dict(dilationT=self.dilationT, dilationW=self.dilationW, dilationH=self.dilationH))

    def _settings(self):
        return (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                self.dilationT, self.dilationW, self.dilationH, self.adjT, self.adjW, self.adjH)

    def _t7_fixup(self, version):
        _volumetric.t7_defaults(self, dilationT=1, dilationW=1, dilationH=1)
        _volumetric.t7_ints(self, "dilationT", "dilationW", "dilationH")
        super()._t7_fixup(version)

    def _repr_settings(self):
        return f"{super()._repr_settings()}, dilation {self.dilationW},{self.dilationH},{self.dilationT}"
