from .Module import Module


class Identity(Module):
    """``output = input`` and ``gradInput = gradOutput``: the very objects
    passed in (arrays or tables of any kind), not copies, as in Torch7."""

    def updateOutput(self, input):
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the input passes through)"""
        return x
