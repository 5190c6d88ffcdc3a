from .Module import Module


class Abs(Module):
    """Elementwise absolute value: ``y = |x|``; any shape.

    Gradient: ``dL/dx = dL/dy * sign(x)``, taking ``sign(0) = +1`` as Torch7
    did (PyTorch uses 0 there).
    """

    _kernel = "Abs"

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Abs"""
        return g.op("Abs", [x])
