from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class TanhShrink(Pointwise):
    """Elementwise ``y = x - tanh(x)``; any shape.

    Gradient: ``dL/dx = dL/dy * tanh(x)^2`` (as ``1 - (1 - tanh^2)``).
    """

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.tanh(input, out=out)
        xp.subtract(input, out, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        xp.tanh(input, out=out)
        xp.square(out, out=out)
        xp.multiply(gradOutput, out, out=out)

    def _onnx(self, g, x, y):
        """x - Tanh(x)"""
        return g.op("Sub", [x, g.op("Tanh", [x])])
