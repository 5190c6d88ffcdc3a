from .SpatialConvolution import SpatialConvolution


class SpatialConvolutionMM(SpatialConvolution):
    """SpatialConvolution (same arguments, math and kernels) with Torch7's
    ``nn.SpatialConvolutionMM`` weight layout: ``weight`` is the matrix
    ``[nOutputPlane, nInputPlane*kH*kW]``, the same memory as
    SpatialConvolution's ``[nOutputPlane, nInputPlane, kH, kW]``
    (``weight.reshape(nOutputPlane, nInputPlane, kH, kW)`` converts).
    """

    def _weight_shape(self):
        return (self.nOutputPlane, self.nInputPlane * self.kH * self.kW)
