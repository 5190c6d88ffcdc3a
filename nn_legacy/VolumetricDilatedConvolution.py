from ._helpers import volumetric as _volumetric
from .VolumetricConvolutionMM import VolumetricConvolutionMM


class VolumetricDilatedConvolution(VolumetricConvolutionMM):
    """VolumetricConvolution with the kernel's taps spread ``dilationT``
    frames, ``dilationW`` columns and ``dilationH`` rows apart (Torch7's
    ``nn.VolumetricDilatedConvolution``)::

        output[o, t, y, x] = bias[o] + sum over c, a, b, e of weight[o, c, a, b, e] *
            input[c, t*dT - padT + a*dilationT, y*dH - padH + b*dilationH, x*dW - padW + e*dilationW]

    so the kernel covers ``(k - 1) * dilation + 1`` voxels along each axis
    and ``oT = (T + 2*padT - (kT - 1)*dilationT - 1) // dT + 1`` (likewise
    oH, oW).  ``VolumetricDilatedConvolution(nInputPlane, nOutputPlane, kT,
    kW, kH, dT=1, dW=1, dH=1, padT=0, padW=padT, padH=padW, dilationT=1,
    dilationW=1, dilationH=1)``.  Shapes, gradients, buffers and reset() as
    in VolumetricConvolutionMM.
    """

    _kernel = "VolumetricDilatedConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=None, padH=None,
                 dilationT=1, dilationW=1, dilationH=1):
        self.dilationT, self.dilationW, self.dilationH = _volumetric.positive(
            type(self).__name__, dilationT=dilationT, dilationW=dilationW, dilationH=dilationH)
        super().__init__(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH)

    def _settings(self):
        return super()._settings() + (self.dilationT, self.dilationW, self.dilationH)

    def _t7_fixup(self, version):
        _volumetric.t7_defaults(self, dilationT=1, dilationW=1, dilationH=1)
        _volumetric.t7_ints(self, "dilationT", "dilationW", "dilationH")
        super()._t7_fixup(version)

    def _repr_settings(self):
        return f"{super()._repr_settings()}, {self.dilationT},{self.dilationW},{self.dilationH}"
