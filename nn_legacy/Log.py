import numpy as np

from ._pointwise import Pointwise


class Log(Pointwise):
    """Elementwise natural logarithm ``y = log(x)``; any shape.  ``x = 0``
    gives -inf and ``x < 0`` nan, silently, as in Torch7.

    Gradient: ``dL/dx = dL/dy / x``.
    """

    def _forward(self, input, out):
        np.log(input, out=out)

    def _backward(self, input, gradOutput, out):
        np.divide(gradOutput, input, out=out)

    def _onnx(self, g, x, y):
        """Log"""
        return g.op("Log", [x])
