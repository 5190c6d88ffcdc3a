from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class Exp(Pointwise):
    """Elementwise ``y = exp(x)``; any shape (overflow gives inf).

    Gradient: ``dL/dx = dL/dy * y``, computed from the output of the last
    forward pass, as in Torch7.
    """

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.exp(input, out=out)

    def _backward(self, input, gradOutput, out):
        if self.output is None or self.output.shape != input.shape:
            raise RuntimeError("Exp: backward needs the output of forward for this input: call forward first")
        array_namespace(input).multiply(gradOutput, self.output, out=out)

    def _onnx(self, g, x, y):
        """Exp"""
        return g.op("Exp", [x])
