from ._helpers.planes import check_planes
from .LogSoftMax import LogSoftMax


class SpatialLogSoftMax(LogSoftMax):
    """LogSoftMax (see there for the math) over the planes at every pixel:
    input ``[planes, H, W]`` or ``[batch, planes, H, W]``, and at each
    ``(y, x)`` the log-probabilities of the planes.  Other shapes are
    refused (LogSoftMax itself takes 1D and 2D input as feature vectors)."""

    def __init__(self):
        super().__init__()   # always over the planes: no dim, unlike LogSoftMax

    def updateOutput(self, input):
        self._kernels(input)
        check_planes(self, input)
        return super().updateOutput(input)

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_planes(self, input)
        return super().updateGradInput(input, gradOutput)
