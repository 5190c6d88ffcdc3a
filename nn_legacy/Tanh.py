from .Module import Module


class Tanh(Module):
    """Elementwise hyperbolic tangent: ``y = tanh(x)``; any shape.

    Gradient: ``dL/dx = dL/dy * (1 - y^2)`` (computed from the output).
    """

    _kernel = "Tanh"

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(gradOutput, self.gradInput, self.output)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Tanh"""
        return g.op("Tanh", [x])
