from ._helpers.arrays import reuse
from ._bases.dims import check_array, check_grad
from .Module import Module


class Contiguous(Module):
    """``output`` = the input itself when it is C-contiguous, else a
    C-contiguous copy of it; ``gradInput`` the same of gradOutput.  The
    copies live in buffers of the module's own (``contiguousOutput``,
    ``contiguousGradInput``), reused while the shape stays the same."""

    _buffer_names = ("contiguousOutput", "contiguousGradInput")

    def __init__(self):
        super().__init__()
        self.contiguousOutput = None
        self.contiguousGradInput = None

    def updateOutput(self, input):
        check_array(self, input)
        if input.flags.c_contiguous:
            self.output = input
        else:
            self.contiguousOutput = reuse(self.contiguousOutput, input.shape, input.dtype, input)
            self.contiguousOutput[...] = input
            self.output = self.contiguousOutput
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        check_grad(self, gradOutput, input.shape)
        if gradOutput.flags.c_contiguous:
            self.gradInput = gradOutput
        else:
            self.contiguousGradInput = reuse(self.contiguousGradInput, gradOutput.shape, gradOutput.dtype,
                                             gradOutput)
            self.contiguousGradInput[...] = gradOutput
            self.gradInput = self.contiguousGradInput
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the input passes through)"""
        return x
