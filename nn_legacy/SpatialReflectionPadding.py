from ._helpers.resampling import integer
from .Module import Module


class SpatialReflectionPadding(Module):
    """Pads the last two dims of ``[nPlane, h, w]`` or ``[batch, nPlane, h, w]``
    input by mirroring it about its first and last rows and columns, without
    repeating them (a row ``a b c d`` padded by 3 and 2 reads ``d c b | a b c d
    | c b``)::

        y[.., i, j] = x[.., r(i - pad_t, h), r(j - pad_l, w)]
        r(u, n) = -u if u < 0;  2 (n - 1) - u if u >= n;  u otherwise

    for ``0 <= i < h + pad_t + pad_b``, ``0 <= j < w + pad_l + pad_r``.
    ``SpatialReflectionPadding(pad_l, pad_r=pad_l, pad_t=pad_l,
    pad_b=pad_l)`` (Torch7's order: width first).  As in Torch7 every pad
    must be smaller than the input along its dim; a negative pad crops that
    side.  The gradient of an input element is the sum of the gradOutput
    elements that copied it.
    """

    _kernel = "SpatialReflectionPadding"

    def __init__(self, pad_l, pad_r=None, pad_t=None, pad_b=None):
        super().__init__()
        self.pad_l = integer(self, "pad_l", pad_l)
        self.pad_r = integer(self, "pad_r", pad_l if pad_r is None else pad_r)
        self.pad_t = integer(self, "pad_t", pad_l if pad_t is None else pad_t)
        self.pad_b = integer(self, "pad_b", pad_l if pad_b is None else pad_b)

    def _pads(self):
        return (self.pad_l, self.pad_r, self.pad_t, self.pad_b)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, *self._pads())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._pads())
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 stored the pads as doubles."""
        self.pad_l = integer(self, "pad_l", self.pad_l)
        self.pad_r = integer(self, "pad_r", self.pad_r)
        self.pad_t = integer(self, "pad_t", self.pad_t)
        self.pad_b = integer(self, "pad_b", self.pad_b)

    def __repr__(self):
        return f"nn.SpatialReflectionPadding(l={self.pad_l}, r={self.pad_r}, t={self.pad_t}, b={self.pad_b})"

    def _onnx(self, g, x, y):
        """Pad (reflect; a negative pad as Slice)"""
        lead = [0] * (x.ndim - 2)
        return g.pad(x, lead + [self.pad_t, self.pad_l], lead + [self.pad_b, self.pad_r], mode="reflect")
