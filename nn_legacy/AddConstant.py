import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class AddConstant(Pointwise):
    """Elementwise ``y = x + c`` for a scalar ``c``; any shape.

    Gradient: ``dL/dx = dL/dy``.  With ``inplace=True`` forward adds c to
    the input array itself and returns it; backward returns gradOutput
    itself as gradInput and subtracts c from the input again, restoring it
    (so after backward ``output``, that same array, holds x again), as in
    Torch7.
    """

    def __init__(self, constant_scalar, inplace=False):
        super().__init__()
        self.constant_scalar = float(constant_scalar)
        self.inplace = bool(inplace)

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.add(input, self.constant_scalar, out=out)

    def _backward(self, input, gradOutput, out):
        if out is not gradOutput:
            out[...] = gradOutput

    def updateGradInput(self, input, gradOutput):
        super().updateGradInput(input, gradOutput)
        if self.inplace:
            input -= self.constant_scalar
        return self.gradInput

    def __repr__(self):
        return f"nn.AddConstant({self.constant_scalar:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Add"""
        return g.op("Add", [x, np.array(self.constant_scalar, dtype=x.dtype)])
