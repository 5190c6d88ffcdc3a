from ._helpers.resampling import integer
from .Module import Module


class VolumetricReplicationPadding(Module):
    """Pads the last three dims of ``[nPlane, t, h, w]`` or ``[batch, nPlane,
    t, h, w]`` input by repeating its edge frames, rows and columns::

        y[.., a, i, j] = x[.., c(a - pfront, t), c(i - ptop, h), c(j - pleft, w)]
        c(u, n) = min(max(u, 0), n - 1)

    for ``0 <= a < t + pfront + pback``, ``0 <= i < h + ptop + pbottom``,
    ``0 <= j < w + pleft + pright``.  ``VolumetricReplicationPadding(pleft,
    pright=pleft, ptop=pleft, pbottom=pleft, pfront=pleft, pback=pleft)``
    (Torch7's order); a negative pad crops that side.  The gradient of an
    input element is the sum of the gradOutput elements that copied it.
    """

    _kernel = "VolumetricReplicationPadding"

    def __init__(self, pleft, pright=None, ptop=None, pbottom=None, pfront=None, pback=None):
        super().__init__()
        self.pleft = integer(self, "pleft", pleft)
        self.pright = integer(self, "pright", pleft if pright is None else pright)
        self.ptop = integer(self, "ptop", pleft if ptop is None else ptop)
        self.pbottom = integer(self, "pbottom", pleft if pbottom is None else pbottom)
        self.pfront = integer(self, "pfront", pleft if pfront is None else pfront)
        self.pback = integer(self, "pback", pleft if pback is None else pback)

    def _pads(self):
        return (self.pleft, self.pright, self.ptop, self.pbottom, self.pfront, self.pback)

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
        self.pleft = integer(self, "pleft", self.pleft)
        self.pright = integer(self, "pright", self.pright)
        self.ptop = integer(self, "ptop", self.ptop)
        self.pbottom = integer(self, "pbottom", self.pbottom)
        self.pfront = integer(self, "pfront", self.pfront)
        self.pback = integer(self, "pback", self.pback)

    def __repr__(self):
        return (f"nn.VolumetricReplicationPadding(l={self.pleft}, r={self.pright}, t={self.ptop}, "
                f"b={self.pbottom}, f={self.pfront}, k={self.pback})")

    def _onnx(self, g, x, y):
        """Pad (edge; a negative pad as Slice)"""
        lead = [0] * (x.ndim - 3)
        return g.pad(x, lead + [self.pfront, self.ptop, self.pleft], lead + [self.pback, self.pbottom, self.pright],
                     mode="edge")
