import numpy as np

from ._helpers.resampling import integer
from .Module import Module


class SpatialUpSamplingNearest(Module):
    """Nearest-neighbour up-sampling of the last two dims of ``[nPlane, h, w]``
    or ``[batch, nPlane, h, w]`` input by an integer factor ``s``: each pixel
    becomes an ``s x s`` block::

        y[.., i, j] = x[.., i // s, j // s]      (output [.., h s, w s])

    The gradient of an input pixel is the sum of gradOutput over its block.
    ``SpatialUpSamplingNearest(scale_factor)``, ``scale_factor >= 1``.
    """

    _kernel = "SpatialUpSamplingNearest"

    def __init__(self, scale_factor):
        super().__init__()
        self.scale_factor = integer(self, "scale_factor", scale_factor, low=1)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.scale_factor)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.scale_factor)
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 stored scale_factor as a double; drop its size buffers."""
        self.scale_factor = integer(self, "scale_factor", self.scale_factor, low=1)
        for name in ("inputSize", "outputSize"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        return f"nn.SpatialUpSamplingNearest({self.scale_factor})"

    def _onnx(self, g, x, y):
        """Resize (nearest, integer scale)"""
        scales = np.array([1.0] * (x.ndim - 2) + [self.scale_factor] * 2, dtype=np.float32)
        return g.op("Resize", [x, None, g.const(scales, "scales", exact_type=True)], mode="nearest",
                    coordinate_transformation_mode="asymmetric", nearest_mode="floor")
