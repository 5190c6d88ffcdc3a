from .Module import Module


class Abs(Module):
    """Elementwise absolute value: ``y = |x|``; any shape.

    Gradient: ``dL/dx = dL/dy * sign(x)``, taking ``sign(0) = +1`` as Torch7
    did (PyTorch uses 0 there).
    """

    def updateOutput(self, input):
        self.output = self._kernels(input).Abs_updateOutput(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernels(input).Abs_updateGradInput(input, gradOutput, self.gradInput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Abs"""
        return g.op("Abs", [x])
