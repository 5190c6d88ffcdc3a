from ._bases.tables import check_nested, check_nested_like, nested_zeros
from .Module import Module


class ZeroGrad(Module):
    """``output = input`` (the object itself, an array or a table of them)
    and a gradInput of zeros laid out as the input: the gradient stops
    here."""

    def updateOutput(self, input):
        check_nested(self, input)
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_nested(self, input)
        check_nested_like(self, gradOutput, input, what="the output")
        self.gradInput = nested_zeros(self.gradInput, input)
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the input passes through)"""
        return x
