from .Module import Module


class SoftMax(Module):
    """``y_i = exp(x_i) / sum_j exp(x_j)`` over the feature dimension.

    The feature dimension is dim 0 of a 1D ``[n]`` or 3D ``[n, h, w]`` input
    and dim 1 of a 2D ``[batch, n]`` or 4D ``[batch, n, h, w]`` input (the 3D
    and 4D forms take a softmax at every pixel, as Torch7 did).  Computed
    with the maximum subtracted first, so large inputs do not overflow.

    Gradient: ``dL/dx_i = y_i (dL/dy_i - sum_j y_j dL/dy_j)``.
    """

    def updateOutput(self, input):
        self.output = self._kernels(input).SoftMax_updateOutput(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernels(input).SoftMax_updateGradInput(
            input, gradOutput, self.gradInput, self.output)
        return self.gradInput
