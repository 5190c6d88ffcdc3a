from .Module import Module


class Sigmoid(Module):
    """Elementwise logistic function: ``y = 1 / (1 + exp(-x))``; any shape.

    Gradient: ``dL/dx = dL/dy * y * (1 - y)`` (computed from the output).
    """

    _kernel = "Sigmoid"

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(gradOutput, self.gradInput, self.output)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Sigmoid"""
        return g.op("Sigmoid", [x])
