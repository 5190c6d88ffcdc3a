from ._helpers.resampling import table_of_two
from .Module import Module

_MODES = {"zeros": 0, "border": 1}


class SpatialGridSamplerBilinear(Module):
    """Samples ``input`` ``[batch, nPlane, h, w]`` at the points of ``grid``
    ``[batch, oh, ow, 2]``; the input is the table ``[input, grid]`` and the
    output is ``[batch, nPlane, oh, ow]``.  ``grid[n, i, j] = (x, y)``, with
    -1 and 1 the centres of the first and last column (x) or row (y)
    (PyTorch's ``grid_sample(..., align_corners=True)``)::

        px = (x + 1) / 2 * (w - 1),  py = (y + 1) / 2 * (h - 1)
        y[n, c, i, j] = sum of input[n, c, r, k] * (1 - |py - r|) * (1 - |px - k|)
                        over the (up to 4) pixels with |py - r| < 1, |px - k| < 1

    ``padding_mode='zeros'`` (Torch7's only mode) reads pixels outside the
    input as 0; ``'border'`` first clamps px into [0, w - 1] and py into
    [0, h - 1] (a clamped coordinate has no gradient).  A NaN in the grid
    gives NaN in that output pixel.  backward returns the table
    ``[gradInput, gradGrid]``: gradInput sums gradOutput into the pixels each
    sample blended, with the same weights; gradGrid is d output / d (x, y)
    summed over the planes.
    """

    _kernel = "SpatialGridSamplerBilinear"

    def __init__(self, padding_mode="zeros"):
        super().__init__()
        if padding_mode not in _MODES:
            raise ValueError(f"SpatialGridSamplerBilinear: padding_mode must be 'zeros' or 'border', "
                             f"got {padding_mode!r}")
        self.padding_mode = padding_mode

    def updateOutput(self, input):
        x, grid = table_of_two(self, input, "[input, grid]", "input")
        self.output = self._kernel_of(x, "updateOutput", "input[0]")(
            x, grid, self.output, _MODES[self.padding_mode])
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, grid = table_of_two(self, input, "[input, grid]", "input")
        previous = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 2 else [None, None]
        gin, ggrid = self._kernel_of(x, "updateGradInput", "input[0]")(
            x, previous[0], grid, previous[1], gradOutput, _MODES[self.padding_mode])
        if previous is self.gradInput and previous[0] is gin and previous[1] is ggrid:
            return self.gradInput
        self.gradInput = [gin, ggrid]
        return self.gradInput

    def _t7_fixup(self, version):
        mode = getattr(self, "padding_mode", "zeros")
        self.padding_mode = {0: "zeros", 1: "border"}.get(mode, mode) if not isinstance(mode, str) else mode
        if not isinstance(self.gradInput, list):
            self.gradInput = None

    def __repr__(self):
        return f"nn.SpatialGridSamplerBilinear({self.padding_mode!r})"

    def _onnx(self, g, x, y):
        """GridSample (bilinear, align_corners)"""
        return g.op("GridSample", x, mode="bilinear" if g.opset < 20 else "linear", padding_mode=self.padding_mode,
                    align_corners=1)
