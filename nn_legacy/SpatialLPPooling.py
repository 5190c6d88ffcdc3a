import numbers

from ._helpers.arrays import describe, name_of
from ._bases.dims import check_int, lua_int
from ._helpers.planes import check_planes
from .MulConstant import MulConstant
from .Power import Power
from .Sequential import Sequential
from .SpatialAveragePooling import SpatialAveragePooling
from .Sqrt import Sqrt
from .Square import Square


class SpatialLPPooling(Sequential):
    """The p-norm of each ``kW x kH`` window, moved by ``dW, dH`` over each
    plane::

        output[c, y, x] = (sum over the window's i, j of input[c, y*dH + i, x*dW + j]^p)^(1/p)

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``; output size
    ``floor((H - kH) / dH) + 1`` by ``floor((W - kW) / dW) + 1``.  As in
    Torch7 it is a Sequential: Power(p) (Square for p = 2), then
    SpatialAveragePooling(kW, kH, dW, dH), MulConstant(kW * kH) and
    Power(1/p) (Sqrt for p = 2); the gradient is theirs, chained.  The
    input is not made positive first, as in Torch7: an odd p with negative
    window sums gives NaN.  ``dW, dH`` default to ``kW, kH`` (windows side
    by side); ``nInputPlane`` is checked against the input when set (it is
    None for modules loaded from Torch7 files, which did not keep it).
    The module has no parameters.
    """

    def __init__(self, nInputPlane, pnorm, kW, kH, dW=None, dH=None):
        super().__init__()
        self.nInputPlane = check_int(self, nInputPlane, "nInputPlane", 1)
        if not isinstance(pnorm, numbers.Real) or isinstance(pnorm, bool) or not pnorm > 0:
            raise ValueError(f"{name_of(self)}: pnorm must be a positive number, got {pnorm!r}")
        self.pnorm = float(pnorm)
        self.kW, self.kH = check_int(self, kW, "kW", 1), check_int(self, kH, "kH", 1)
        self.dW = self.kW if dW is None else check_int(self, dW, "dW", 1)
        self.dH = self.kH if dH is None else check_int(self, dH, "dH", 1)
        self.add(Square() if self.pnorm == 2 else Power(self.pnorm))
        self.add(SpatialAveragePooling(self.kW, self.kH, self.dW, self.dH))
        self.add(MulConstant(self.kW * self.kH))
        self.add(Sqrt() if self.pnorm == 2 else Power(1 / self.pnorm))

    def _t7_fixup(self, version):
        for name in ("kW", "kH", "dW", "dH"):
            setattr(self, name, lua_int(getattr(self, name)))
        n = getattr(self, "nInputPlane", None)   # kept by the 2012-2015 layout only
        self.nInputPlane = None if n is None else int(n)
        first = self.modules[0]
        self.pnorm = 2.0 if isinstance(first, Square) else first.pow

    def updateOutput(self, input):
        self._check(input)
        return super().updateOutput(input)

    def updateGradInput(self, input, gradOutput):
        self._check(input)
        return super().updateGradInput(input, gradOutput)

    def backward(self, input, gradOutput, scale=1):
        self._check(input)
        return super().backward(input, gradOutput, scale)

    def _check(self, input):
        self._kernels(input)
        check_planes(self, input)
        if self.nInputPlane is not None and input.shape[-3] != self.nInputPlane:
            raise ValueError(f"{name_of(self)}: input must have nInputPlane = {self.nInputPlane} planes "
                             f"(dim {input.ndim - 3}), got {describe(input)}")

    def __repr__(self):
        planes = "" if self.nInputPlane is None else f"{self.nInputPlane}, "
        return f"nn.SpatialLPPooling({planes}p={self.pnorm:g}, {self.kW}x{self.kH}, {self.dW},{self.dH})"

    def _onnx(self, g, x, y):
        """its children: Pow (Mul for p = 2), AveragePool, Mul, Pow (Sqrt)"""
        return super()._onnx(g, x, y)
