from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class SoftSign(Pointwise):
    """Elementwise ``y = x / (1 + |x|)``; any shape.

    Gradient: ``dL/dx = dL/dy / (1 + |x|)^2``.
    """

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.abs(input, out=out)
        out += 1
        xp.divide(input, out, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        xp.abs(input, out=out)
        out += 1
        xp.square(out, out=out)
        xp.divide(gradOutput, out, out=out)

    def _onnx(self, g, x, y):
        """Softsign"""
        return g.op("Softsign", [x])
