from ._bases.tables import check_nested, check_nested_like, nested_copy
from .Module import Module


class CopyGrad(Module):
    """The rnn package's CopyGrad: ``output = input`` (the object itself,
    as Identity) and gradInput a copy of gradOutput (a buffer of its own,
    not gradOutput itself, which a later module may overwrite).  Arrays
    or tables of them."""

    def updateOutput(self, input):
        check_nested(self, input)
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_nested(self, input)
        check_nested_like(self, gradOutput, input, what="the output")
        self.gradInput = nested_copy(self.gradInput, gradOutput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the input passes through)"""
        return x
