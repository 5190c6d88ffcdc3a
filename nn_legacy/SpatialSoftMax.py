from ._helpers.planes import check_planes
from .SoftMax import SoftMax


class SpatialSoftMax(SoftMax):
    """SoftMax (see there for the math) over the planes at every pixel:
    input ``[planes, H, W]`` or ``[batch, planes, H, W]``, and at each
    ``(y, x)`` the values of the planes are turned into probabilities.
    Other shapes are refused (SoftMax itself takes 1D and 2D input as
    feature vectors)."""

    def __init__(self):
        super().__init__()   # always over the planes: no dim, unlike SoftMax

    def updateOutput(self, input):
        self._kernels(input)
        check_planes(self, input)
        return super().updateOutput(input)

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_planes(self, input)
        return super().updateGradInput(input, gradOutput)
