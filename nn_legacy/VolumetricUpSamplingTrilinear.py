from ._helpers.resampling import integer
from .Module import Module


class VolumetricUpSamplingTrilinear(Module):
    """Trilinear up-sampling of the last three dims of ``[nPlane, t, h, w]``
    or ``[batch, nPlane, t, h, w]`` input to ``[.., odepth, oheight,
    owidth]``, corners aligned as in SpatialUpSamplingBilinear along each of
    the three dims::

        y[.., a, i, j] = sum of x[.., f, r, c] (1 - |pt - f|) (1 - |py - r|) (1 - |px - c|)
                         over the (up to 8) voxels within 1 of (pt, py, px)
        pt = a (t - 1) / (odepth - 1),  py = i (h - 1) / (oheight - 1),
        px = j (w - 1) / (owidth - 1)      (0 for an output of size 1)

    ``VolumetricUpSamplingTrilinear(s)`` with an integer ``s >= 1`` multiplies
    each size by ``s``; ``VolumetricUpSamplingTrilinear({'odepth': T,
    'oheight': H, 'owidth': W})`` or ``(odepth=T, oheight=H, owidth=W)`` fixes
    the output size.  The gradient of an input voxel is the sum of gradOutput
    weighted as above.
    """

    _kernel = "VolumetricUpSamplingTrilinear"

    def __init__(self, scale_factor=None, odepth=None, oheight=None, owidth=None):
        super().__init__()
        if isinstance(scale_factor, dict):
            table = scale_factor
            scale_factor, odepth, oheight, owidth = None, table.get("odepth"), table.get("oheight"), table.get("owidth")
        sizes = (odepth, oheight, owidth)
        if (scale_factor is None) == any(s is None for s in sizes) or len({s is None for s in sizes}) > 1:
            raise ValueError("VolumetricUpSamplingTrilinear: give scale_factor, or odepth, oheight and owidth, "
                             f"got scale_factor={scale_factor!r}, odepth={odepth!r}, oheight={oheight!r}, "
                             f"owidth={owidth!r}")
        self.scale_factor = None if scale_factor is None else integer(self, "scale_factor", scale_factor, low=1)
        self.odepth = None if odepth is None else integer(self, "odepth", odepth, low=1)
        self.oheight = None if oheight is None else integer(self, "oheight", oheight, low=1)
        self.owidth = None if owidth is None else integer(self, "owidth", owidth, low=1)

    def _output_size(self, input):
        if self.scale_factor is None:
            return self.odepth, self.oheight, self.owidth
        t, h, w = (input.shape[-3:] if input.ndim >= 3 else (0, 0, 0))
        return tuple(integer(self, f"the output {name}", n * self.scale_factor, low=0)
                     for name, n in (("depth", t), ("height", h), ("width", w)))

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output,
                                                                         *self._output_size(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._output_size(input))
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 stored the numbers as doubles (and nil as absent)."""
        for name in ("scale_factor", "odepth", "oheight", "owidth"):
            value = getattr(self, name, None)
            setattr(self, name, None if value is None else integer(self, name, value, low=1))
        for name in ("inputSize", "outputSize", "_input", "_gradOutput"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        if self.scale_factor is not None:
            return f"nn.VolumetricUpSamplingTrilinear({self.scale_factor})"
        return (f"nn.VolumetricUpSamplingTrilinear(odepth={self.odepth}, oheight={self.oheight}, "
                f"owidth={self.owidth})")

    def _onnx(self, g, x, y):
        """Resize (linear, align_corners) to the output size"""
        return g.with_batch(x, 5, lambda v: g.op("Resize", [v, None, None, g.sizes(v, 5, y.shape[-3:])],
                                                 mode="linear", coordinate_transformation_mode="align_corners"))
