import numpy as np

from ._helpers.resampling import integer
from .Module import Module


class VolumetricUpSamplingNearest(Module):
    """Nearest-neighbour up-sampling of the last three dims of ``[nPlane, t, h,
    w]`` or ``[batch, nPlane, t, h, w]`` input by an integer factor ``s``: each
    voxel becomes an ``s x s x s`` block::

        y[.., a, i, j] = x[.., a // s, i // s, j // s]      (output [.., t s, h s, w s])

    The gradient of an input voxel is the sum of gradOutput over its block.
    ``VolumetricUpSamplingNearest(scale_factor)``, ``scale_factor >= 1``.
    """

    _kernel = "VolumetricUpSamplingNearest"

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
        return f"nn.VolumetricUpSamplingNearest({self.scale_factor})"

    def _onnx(self, g, x, y):
        """Resize (nearest, integer scale)"""
        scales = np.array([1.0] * (x.ndim - 3) + [self.scale_factor] * 3, dtype=np.float32)
        return g.op("Resize", [x, None, g.const(scales, "scales", exact_type=True)], mode="nearest",
                    coordinate_transformation_mode="asymmetric", nearest_mode="floor")
