from .Module import Module


class LogSigmoid(Module):
    """Elementwise ``y = log(1 / (1 + exp(-x)))``; any shape.

    Computed as ``min(x, 0) - log(1 + exp(-|x|))``, so it neither overflows
    nor loses precision for large ``|x|``.  The forward pass keeps
    ``exp(-|x|)`` in ``self.buffer`` for the backward pass.

    Gradient: ``dL/dx = dL/dy * (1 - sigmoid(x))``.
    """

    _kernel = "LogSigmoid"

    _buffer_names = ("buffer",)

    def __init__(self):
        super().__init__()
        self.buffer = None

    def updateOutput(self, input):
        self.output, self.buffer = self._kernel_of(input, "updateOutput")(input, self.output, self.buffer)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.buffer)
        return self.gradInput

    def _onnx(self, g, x, y):
        """-Softplus(-x)"""
        return g.op("Neg", [g.op("Softplus", [g.op("Neg", [x])])])
