"""Modules whose output is their input itself (an array or a table of them)
and whose gradient is something else: ZeroGrad (zeros), CopyGrad (a copy)."""
from ..Module import Module
from .tables import check_nested, check_nested_like


class PassThrough(Module):
    """``output = input``, checked as a nested table of arrays; a subclass's
    ``_gradient(input, gradOutput)`` gives gradInput (gradOutput already
    checked to be laid out as the input)."""

    def updateOutput(self, input):
        check_nested(self, input)
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_nested(self, input)
        check_nested_like(self, gradOutput, input, what="the output")
        self.gradInput = self._gradient(input, gradOutput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the input passes through)"""
        return x
