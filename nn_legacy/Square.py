from .Module import Module


class Square(Module):
    """Elementwise square: ``y = x^2``; any shape.

    Gradient: ``dL/dx = 2 x dL/dy``.
    """

    _kernel = "Square"

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Mul(x, x)"""
        return g.op("Mul", [x, x])
