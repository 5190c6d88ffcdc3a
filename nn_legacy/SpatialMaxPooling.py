from ._helpers.pooling import integer, plane_indices_from_t7, plane_indices_to_t7, t7_fields
from ._bases.max_pooling import MaxPooling


class SpatialMaxPooling(MaxPooling):
    """Max over ``kW x kH`` windows moved by ``dW, dH`` over each plane.

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``; output
    ``[planes, outH, outW]`` or ``[batch, planes, outH, outW]`` with::

        outH = floor((H + 2 padH - kH) / dH) + 1      (ceil after ceil())
        outW = floor((W + 2 padW - kW) / dW) + 1

    where ``padW, padH`` add implicit borders that never win (as -inf),
    ``0 <= pad <= k / 2``.  In ceil mode a last window that would start in
    the bottom or right padding is dropped (PyTorch's rule).  ``indices``
    (int64, shaped as output) holds the offset ``h * W + w`` of each maximum
    within its plane, counted from 0 (PyTorch's ``return_indices``);
    SpatialMaxUnpooling reads them.  Of equal values the first (row-major)
    wins; a NaN in a window makes its output NaN.

    Gradient: ``dL/dx[plane][indices[o]] += dL/dy[o]`` (windows that overlap
    add up).  Torch7's defaults: ``dW = kW``, ``dH = kH``, no padding, floor
    mode.  Each forward records the input's ``iheight, iwidth``.

    In evaluation mode (``evaluate()``) the forward pass computes the values
    alone, bit for bit the same, and leaves ``indices`` None (a third of the
    time of ResNet's 3x3/2 pooling went into them); a backward pass after
    such a forward finds the indices again from its ``input`` argument (the
    forward's input, as every backward pass takes).  A pooling that a
    SpatialMaxUnpooling reads keeps computing its indices in evaluation mode.
    """

    _kernel = "SpatialMaxPooling"
    _size_names = ("iheight", "iwidth")

    def __init__(self, kW, kH, dW=None, dH=None, padW=0, padH=0):
        super().__init__()
        name = type(self).__name__
        self.kW, self.kH = integer(name, "kW", kW), integer(name, "kH", kH)
        self.dW = self.kW if dW is None else integer(name, "dW", dW)
        self.dH = self.kH if dH is None else integer(name, "dH", dH)
        self.padW, self.padH = integer(name, "padW", padW), integer(name, "padH", padH)
        self.ceil_mode = False
        self.indices = None

    def _window(self):
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH)

    def _t7_fixup(self, version):
        raw = vars(self).get("indices")
        t7_fields(self, ("kW", "kH", "dW", "dH", "padW", "padH"),
                  {"padW": 0, "padH": 0, "ceil_mode": False, "indices": None})
        self._t7_keep_indices(raw)

    def _t7_keep_indices(self, raw):
        """The indices of the last forward, when the file holds them as
        Torch7's THNN did (see plane_indices_from_t7), with the input size a
        SpatialMaxUnpooling made the pooling record; else None (made by the
        next forward)."""
        self.indices = plane_indices_from_t7(self, raw)
        if self.indices is not None:
            self.iheight, self.iwidth = int(self.iheight), int(self.iwidth)

    def _t7_unfixup(self, fields):
        """save_lua: the indices counted from 1, as Torch7 kept them."""
        plane_indices_to_t7(fields)

    def _pads(self):
        return f", {self.padW},{self.padH}" if self.padW or self.padH else ""

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.kW}x{self.kH}, {self.dW},{self.dH}{self._pads()})"

    def _onnx(self, g, x, y):
        """MaxPool"""
        dilations = (getattr(self, "dilationH", 1), getattr(self, "dilationW", 1))
        paired = id(self) in g.wanted_indices
        out = g.pool("MaxPool", x, y, (self.kH, self.kW), (self.dH, self.dW), (self.padH, self.padW), self.ceil_mode,
                     dilations, outputs=2 if paired else 1)
        if not paired:
            return out
        g.memo[id(self)] = (out[1], x)   # for the SpatialMaxUnpooling of this module
        return out[0]
