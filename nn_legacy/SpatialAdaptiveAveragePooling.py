import numpy as np

from ._helpers.pooling import integer, t7_fields
from .Module import Module


class SpatialAdaptiveAveragePooling(Module):
    """Mean over the windows of a ``W x H`` grid laid over each plane (the
    windows of SpatialAdaptiveMaxPooling), so the output has that size
    whatever the input's.

    input ``[planes, iH, iW]`` or ``[batch, planes, iH, iW]``; output
    ``[planes, H, W]`` or ``[batch, planes, H, W]``.  Output ``(i, j)``
    averages rows ``floor(i iH / H)`` to ``ceil((i + 1) iH / H)``
    (exclusive) and columns likewise; the window sum is divided by its
    height and then by its width, as PyTorch's adaptive_avg_pool2d.

    Gradient: each output's ``dL/dy``, divided the same way, is added to
    every input element of its window.
    """

    _kernel = "SpatialAdaptiveAveragePooling"

    def __init__(self, W, H):
        super().__init__()
        name = "SpatialAdaptiveAveragePooling"
        self.W, self.H = integer(name, "W", W), integer(name, "H", H)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.W, self.H)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.W, self.H)
        return self.gradInput

    def _t7_fixup(self, version):
        t7_fields(self, ("W", "H"))

    def __repr__(self):
        return f"nn.SpatialAdaptiveAveragePooling({self.W}x{self.H})"

    def _onnx(self, g, x, y):
        """MatMul by averaging matrices along the rows and the columns"""
        (ih, iw), dtype = x.shape[-2:], x.dtype
        rows = g.const(_averaging(self.H, ih).astype(dtype), "rows")            # [H, iH]
        columns = g.const(_averaging(self.W, iw).T.astype(dtype), "columns")    # [iW, W]
        return g.op("MatMul", [g.op("MatMul", [rows, x]), columns])


def adaptive_windows(n, size):
    """The windows [start, stop) of an adaptive pooling to n outputs along a dim of size entries."""
    return [(i * size // n, -(-(i + 1) * size // n)) for i in range(n)]


def _averaging(n, size):
    """[n, size]: row i averages window i (for MatMul)."""
    matrix = np.zeros((n, size))
    for i, (start, stop) in enumerate(adaptive_windows(n, size)):
        matrix[i, start:stop] = 1 / (stop - start)
    return matrix
