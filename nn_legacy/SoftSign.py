import numpy as np

from ._pointwise import Pointwise


class SoftSign(Pointwise):
    """Elementwise ``y = x / (1 + |x|)``; any shape.

    Gradient: ``dL/dx = dL/dy / (1 + |x|)^2``.
    """

    def _forward(self, input, out):
        np.abs(input, out=out)
        out += 1
        np.divide(input, out, out=out)

    def _backward(self, input, gradOutput, out):
        np.abs(input, out=out)
        out += 1
        np.square(out, out=out)
        np.divide(gradOutput, out, out=out)

    def _onnx(self, g, x, y):
        """Softsign"""
        return g.op("Softsign", [x])
