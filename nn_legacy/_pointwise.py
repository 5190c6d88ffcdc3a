import numpy as np

from ._arrays import check_like, check_writeable, reuse
from .Module import Module


class Pointwise(Module):
    """The plumbing shared by elementwise layers written in numpy (not a
    layer itself): argument checks, output/gradInput buffers and the
    in-place mode.  A subclass supplies ``_forward(input, out)``, writing
    f(input) into out, and ``_backward(input, gradOutput, out)``, writing
    dL/dx into out (out may be gradOutput itself).

    Input of any shape; gradOutput must have the input's shape and dtype.
    With ``self.inplace`` set, forward writes into the input array (and
    returns it) and backward into gradOutput; ``_backward`` then receives the
    overwritten input.  Floating-point results such as inf and nan (log of
    0, overflow of exp) are returned without warnings, as Torch7 did.
    """

    inplace = False

    def updateOutput(self, input):
        self._kernels(input)
        if self.inplace:
            check_writeable(self, input, "input")
            self.output = input
        else:
            self.output = reuse(self.output, input.shape, input.dtype, input)
        with np.errstate(all="ignore"):
            self._forward(input, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        if self.inplace:
            check_writeable(self, gradOutput, "gradOutput")
            self.gradInput = gradOutput
        else:
            self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        with np.errstate(all="ignore"):
            self._backward(input, gradOutput, self.gradInput)
        return self.gradInput

    def _forward(self, input, out):
        raise NotImplementedError

    def _backward(self, input, gradOutput, out):
        raise NotImplementedError
