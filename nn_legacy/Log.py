from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class Log(Pointwise):
    """Elementwise natural logarithm ``y = log(x)``; any shape.  ``x = 0``
    gives -inf and ``x < 0`` nan, silently, as in Torch7.

    Gradient: ``dL/dx = dL/dy / x``.
    """

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.log(input, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        xp.divide(gradOutput, input, out=out)

    def _onnx(self, g, x, y):
        """Log"""
        return g.op("Log", [x])
