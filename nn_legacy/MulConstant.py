import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class MulConstant(Pointwise):
    """Elementwise ``y = c * x`` for a scalar ``c``; any shape.

    Gradient: ``dL/dx = c * dL/dy``.  With ``inplace=True`` forward
    multiplies the input array itself by c and returns it; backward
    multiplies gradOutput in place and returns it, and divides the input by
    c again, restoring it (up to rounding), as in Torch7.  In-place mode
    therefore needs ``c != 0`` (Torch7 divided by zero).
    """

    def __init__(self, constant_scalar, inplace=False):
        super().__init__()
        self.constant_scalar = float(constant_scalar)
        self.inplace = bool(inplace)
        if self.inplace and self.constant_scalar == 0:
            raise ValueError("MulConstant: in-place mode divides the input by constant_scalar to restore it, "
                             "so constant_scalar must not be 0")

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.multiply(input, self.constant_scalar, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        xp.multiply(gradOutput, self.constant_scalar, out=out)

    def updateGradInput(self, input, gradOutput):
        super().updateGradInput(input, gradOutput)
        if self.inplace:
            input /= self.constant_scalar
        return self.gradInput

    def __repr__(self):
        return f"nn.MulConstant({self.constant_scalar:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Mul"""
        return g.op("Mul", [x, np.array(self.constant_scalar, dtype=x.dtype)])
