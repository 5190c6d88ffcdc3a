from ._helpers.arrays import check_like, name_of
from ._bases.dims import check_int, lua_int
from ._bases.local_mean import check_input, checked_kernel, checked_number
from .Module import Module
from .Sequential import Sequential
from .SpatialDivisiveNormalization import SpatialDivisiveNormalization
from .SpatialSubtractiveNormalization import SpatialSubtractiveNormalization


class SpatialContrastiveNormalization(Module):
    """SpatialSubtractiveNormalization followed by
    SpatialDivisiveNormalization with the same kernel (see those for the
    math): each pixel minus its local mean, then divided by the local
    standard deviation of the result.  ``normalizer`` is that Sequential.
    Each sample of a batch is normalised on its own.  Defaults (Torch7's):
    ``nInputPlane = 1``, a 9x9 kernel of ones, ``threshold = 1e-4``,
    ``thresval = threshold``.
    """

    def __init__(self, nInputPlane=1, kernel=None, threshold=1e-4, thresval=None):
        super().__init__()
        layer = name_of(self)
        self.nInputPlane = check_int(self, nInputPlane, "nInputPlane", 1)
        kernel = checked_kernel(layer, kernel)
        self.kernel = kernel / (kernel.sum() * self.nInputPlane)
        self.threshold = checked_number(layer, "threshold", threshold)
        self.thresval = self.threshold if thresval is None else checked_number(layer, "thresval", thresval)
        self.normalizer = Sequential(
            SpatialSubtractiveNormalization(self.nInputPlane, self.kernel),
            SpatialDivisiveNormalization(self.nInputPlane, self.kernel, self.threshold, self.thresval))

    def _t7_fixup(self, version):
        self.nInputPlane = lua_int(self.nInputPlane)
        self.threshold = float(self.threshold)
        self.thresval = float(self.thresval)

    def updateOutput(self, input):
        check_input(self, input, self.nInputPlane)
        self.output = self.normalizer.updateOutput(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_input(self, input, self.nInputPlane)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = self.normalizer.updateGradInput(input, gradOutput)
        return self.gradInput

    def clearState(self):
        super().clearState()
        self.normalizer.clearState()
        return self

    def __repr__(self):
        return (f"nn.{name_of(self)}({self.nInputPlane}, kernel {'x'.join(map(str, self.kernel.shape))}, "
                f"threshold={self.threshold:g}, thresval={self.thresval:g})")

    def _onnx(self, g, x, y):
        """its SpatialSubtractiveNormalization and SpatialDivisiveNormalization, chained"""
        return g.inner(self, "normalizer", x)
