from ._helpers.pooling import integer, t7_fields
from .Module import Module


class SpatialAdaptiveMaxPooling(Module):
    """Max over the windows of a ``W x H`` grid laid over each plane, so the
    output has that size whatever the input's.

    input ``[planes, iH, iW]`` or ``[batch, planes, iH, iW]``; output
    ``[planes, H, W]`` or ``[batch, planes, H, W]``.  Output ``(i, j)``
    covers rows ``floor(i iH / H)`` to ``ceil((i + 1) iH / H)`` (exclusive)
    and columns likewise (windows may overlap, or repeat when ``H > iH``).
    ``indices`` (int64, shaped as output) holds the offset ``h * iW + w`` of
    each maximum within its plane, counted from 0 (PyTorch's
    ``return_indices``).  Of equal values the first wins; a NaN in a window
    makes its output NaN.

    Gradient: ``dL/dx[plane][indices[o]] += dL/dy[o]``.
    """

    _kernel = "SpatialAdaptiveMaxPooling"

    _buffer_names = ("indices",)

    def __init__(self, W, H):
        super().__init__()
        self.W, self.H = integer("SpatialAdaptiveMaxPooling", "W", W), integer("SpatialAdaptiveMaxPooling", "H", H)
        self.indices = None

    def updateOutput(self, input):
        self.output, self.indices = self._kernel_of(input, "updateOutput")(
            input, self.output, self.indices, self.W, self.H)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.indices, self.W, self.H)
        return self.gradInput

    def _t7_unfixup(self, fields):
        """save_lua: no indices (Torch7's THNN kept two planes of offsets in
        each window, counted from 1, [2, ..., H, W], which need the input
        size this module does not record; the next forward makes them)."""
        fields.pop("indices", None)

    def _t7_fixup(self, version):
        t7_fields(self, ("W", "H"), {"indices": None})

    def __repr__(self):
        return f"nn.SpatialAdaptiveMaxPooling({self.W}x{self.H})"

    def _onnx(self, g, x, y):
        """ReduceMax over the Slice of each window, along the rows, then the columns"""
        from .SpatialAdaptiveAveragePooling import adaptive_windows
        out = x
        for axis, n in ((x.ndim - 2, self.H), (x.ndim - 1, self.W)):
            parts = [g.op("ReduceMax", [g.slice(out, axis, start, stop), g.ints([axis])], keepdims=1)
                     for start, stop in adaptive_windows(n, x.shape[axis])]
            out = g.op("Concat", parts, axis=axis) if len(parts) > 1 else parts[0]
        return out
