from .Module import Module


class LogSoftMax(Module):
    """``y_i = x_i - log sum_j exp(x_j)`` over the feature dimension (the
    same dimensions as SoftMax: dim 0 of 1D and 3D input, dim 1 of 2D and 4D).
    Computed as ``x_i - m - log sum_j exp(x_j - m)`` with m the maximum.

    Gradient: ``dL/dx_i = dL/dy_i - exp(y_i) sum_j dL/dy_j``.
    """

    def updateOutput(self, input):
        self.output = self._kernels(input).LogSoftMax_updateOutput(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernels(input).LogSoftMax_updateGradInput(
            input, gradOutput, self.gradInput, self.output)
        return self.gradInput
