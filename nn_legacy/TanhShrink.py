import numpy as np

from ._pointwise import Pointwise


class TanhShrink(Pointwise):
    """Elementwise ``y = x - tanh(x)``; any shape.

    Gradient: ``dL/dx = dL/dy * tanh(x)^2`` (as ``1 - (1 - tanh^2)``).
    """

    def _forward(self, input, out):
        np.tanh(input, out=out)
        np.subtract(input, out, out=out)

    def _backward(self, input, gradOutput, out):
        np.tanh(input, out=out)
        np.square(out, out=out)
        np.multiply(gradOutput, out, out=out)

    def _onnx(self, g, x, y):
        """x - Tanh(x)"""
        return g.op("Sub", [x, g.op("Tanh", [x])])
