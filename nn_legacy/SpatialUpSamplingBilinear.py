from ._helpers.resampling import integer
from .Module import Module


class SpatialUpSamplingBilinear(Module):
    """Bilinear up-sampling of the last two dims of ``[nPlane, h, w]`` or
    ``[batch, nPlane, h, w]`` input to ``[.., oheight, owidth]``, with the
    corner pixels of input and output aligned (Torch7's rule, PyTorch's
    ``align_corners=True``)::

        y[.., i, j] = sum of x[.., r, c] * (1 - |py - r|) * (1 - |px - c|)
                      over the (up to 4) pixels with |py - r| < 1, |px - c| < 1
        py = i * (h - 1) / (oheight - 1),  px = j * (w - 1) / (owidth - 1)

    (0 when the output has one row or column).  ``SpatialUpSamplingBilinear(s)``
    with an integer ``s >= 1`` gives ``oheight = h s``, ``owidth = w s``;
    ``SpatialUpSamplingBilinear({'oheight': H, 'owidth': W})`` (Torch7's
    table) or ``SpatialUpSamplingBilinear(oheight=H, owidth=W)`` a fixed size.
    The gradient of an input pixel is the sum of gradOutput weighted as above.
    """

    _kernel = "SpatialUpSamplingBilinear"

    def __init__(self, scale_factor=None, oheight=None, owidth=None):
        super().__init__()
        if isinstance(scale_factor, dict):
            scale_factor, oheight, owidth = None, scale_factor.get("oheight"), scale_factor.get("owidth")
        if (scale_factor is None) == (oheight is None or owidth is None) or (oheight is None) != (owidth is None):
            raise ValueError("SpatialUpSamplingBilinear: give scale_factor, or oheight and owidth, "
                             f"got scale_factor={scale_factor!r}, oheight={oheight!r}, owidth={owidth!r}")
        self.scale_factor = None if scale_factor is None else integer(self, "scale_factor", scale_factor, low=1)
        self.oheight = None if oheight is None else integer(self, "oheight", oheight, low=1)
        self.owidth = None if owidth is None else integer(self, "owidth", owidth, low=1)

    def _output_size(self, input):
        if self.scale_factor is None:
            return self.oheight, self.owidth
        h, w = (input.shape[-2:] if input.ndim >= 2 else (0, 0))
        return (integer(self, "the output height", h * self.scale_factor, low=0),
                integer(self, "the output width", w * self.scale_factor, low=0))

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, *self._output_size(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._output_size(input))
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 stored the numbers as doubles (and nil as absent)."""
        for name in ("scale_factor", "oheight", "owidth"):
            value = getattr(self, name, None)
            setattr(self, name, None if value is None else integer(self, name, value, low=1))
        for name in ("inputSize", "outputSize", "_input", "_gradOutput"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        if self.scale_factor is not None:
            return f"nn.SpatialUpSamplingBilinear({self.scale_factor})"
        return f"nn.SpatialUpSamplingBilinear(oheight={self.oheight}, owidth={self.owidth})"

    def _onnx(self, g, x, y):
        """Resize (linear, align_corners) to the output size"""
        return g.op("Resize", [x, None, None, g.sizes(x, x.ndim, y.shape[-2:])], mode="linear",
                    coordinate_transformation_mode="align_corners")
