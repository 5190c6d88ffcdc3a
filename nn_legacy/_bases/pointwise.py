from .._helpers.arrays import check_like, check_writeable, quietly, reuse
from ..Module import Module


class Pointwise(Module):
    """The plumbing shared by elementwise layers written in numpy (not a
    layer itself): argument checks, output/gradInput buffers and the
    in-place mode.  A subclass supplies ``_forward(input, out)``, writing
    f(input) into out, and ``_backward(input, gradOutput, out)``, writing
    dL/dx into out (out may be gradOutput itself); both compute with the
    arrays' namespace (``array_namespace(input)``), so they serve numpy
    arrays and CudaTensors alike.

    Input of any shape; gradOutput must have the input's shape and dtype.
    Strided arrays are read through contiguous copies, so they give the
    same bits as contiguous ones.
    With ``self.inplace`` set, forward writes into the input array (and
    returns it) and backward into gradOutput; ``_backward`` then receives the
    overwritten input.  Floating-point results such as inf and nan (log of
    0, overflow of exp) are returned without warnings, as Torch7 did.
    """

    inplace = False

    def updateOutput(self, input):
        self._kernels(input)
        x = self._xp(input).ascontiguousarray(input)  # numpy's fast paths round differently on strided memory
        if self.inplace:
            check_writeable(self, input, "input")
            self.output = input
            out = x  # input itself, or a private contiguous copy
        else:
            self.output = out = reuse(self.output, input.shape, input.dtype, input)
        quietly(self._forward, x, out)
        if out is not self.output:
            self.output[...] = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        xp = self._xp(input, gradOutput)
        x, g = xp.ascontiguousarray(input), xp.ascontiguousarray(gradOutput)
        if self.inplace:
            check_writeable(self, gradOutput, "gradOutput")
            self.gradInput = gradOutput
            out = g
        else:
            self.gradInput = out = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        quietly(self._backward, x, g, out)
        if out is not self.gradInput:
            self.gradInput[...] = out
        return self.gradInput

    def _forward(self, input, out):
        raise NotImplementedError

    def _backward(self, input, gradOutput, out):
        raise NotImplementedError
