from .VolumetricConvolution import VolumetricConvolution


class VolumetricConvolutionMM(VolumetricConvolution):
    """VolumetricConvolution (same arguments, math, weight layout and reset)
    computed by the VolumetricConvolutionMM kernels: each sample's volume is
    unfolded into a matrix of columns ``[nInputPlane*kT*kH*kW, oT*oH*oW]``
    (vol2col) and multiplied by the weight viewed as ``[nOutputPlane,
    nInputPlane*kT*kH*kW]``, one matrix product per sample, as Torch7's CPU
    VolumetricConvolution did.  The buffers ``finput`` and ``fgradInput``
    hold one sample's columns; clearState() frees them.
    """

    _buffer_names = ("finput", "fgradInput")
    _kernel = "VolumetricConvolutionMM"

    def __init__(self, *args, **kwargs):
        self.finput = self.fgradInput = None
        super().__init__(*args, **kwargs)

    def updateOutput(self, input):
        self.output, self.finput = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, self.finput, *self._settings())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput, self.fgradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.fgradInput, *self._settings())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.finput = self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.finput, *self._settings(), scale)
