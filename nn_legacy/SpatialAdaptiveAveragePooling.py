from ._pooling import integer, t7_fields
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

    def __init__(self, W, H):
        super().__init__()
        name = "SpatialAdaptiveAveragePooling"
        self.W, self.H = integer(name, "W", W), integer(name, "H", H)

    def updateOutput(self, input):
        self.output = self._kernels(input).SpatialAdaptiveAveragePooling_updateOutput(
            input, self.output, self.W, self.H)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernels(input).SpatialAdaptiveAveragePooling_updateGradInput(
            input, gradOutput, self.gradInput, self.W, self.H)
        return self.gradInput

    def _t7_fixup(self, version):
        t7_fields(self, ("W", "H"))

    def __repr__(self):
        return f"nn.SpatialAdaptiveAveragePooling({self.W}x{self.H})"
