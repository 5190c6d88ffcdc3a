import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class Power(Pointwise):
    """Elementwise ``y = x^p``; any shape.  A non-integer ``p`` gives nan
    for negative x, as in Torch7.

    Gradient: ``dL/dx = dL/dy * p * x^(p-1)`` (0 for ``p = 0``, also at
    ``x = 0`` where ``x^(p-1)`` would be infinite).
    """

    def __init__(self, p):
        super().__init__()
        self.pow = float(p)

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.power(input, self.pow, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        if self.pow == 0:
            out.fill(0)
            return
        xp.power(input, self.pow - 1, out=out)
        out *= self.pow
        out *= gradOutput

    def __repr__(self):
        return f"nn.Power({self.pow:g})"

    def _onnx(self, g, x, y):
        """Pow"""
        return g.op("Pow", [x, np.array(self.pow, dtype=x.dtype)])
