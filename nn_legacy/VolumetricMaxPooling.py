from ._helpers.pooling import integer, t7_fields, volume_indices_from_t7, volume_indices_to_t7
from ._bases.max_pooling import MaxPooling


class VolumetricMaxPooling(MaxPooling):
    """Max over ``kT x kW x kH`` windows moved by ``dT, dW, dH`` over each
    block of a sequence of planes.

    input ``[planes, T, H, W]`` or ``[batch, planes, T, H, W]``; output
    ``[(batch,) planes, outT, outH, outW]`` with::

        outT = floor((T + 2 padT - kT) / dT) + 1      (ceil after ceil())

    and likewise outH, outW, where the padding adds implicit borders that
    never win, ``0 <= pad <= k / 2``; in ceil mode a last window that would
    start in the far padding is dropped (PyTorch's rule).  ``indices``
    (int64, shaped as output) holds the offset ``(t * H + h) * W + w`` of
    each maximum within its block, counted from 0 (PyTorch's
    ``return_indices``); VolumetricMaxUnpooling reads them.  Of equal values
    the first wins; a NaN in a window makes its output NaN.

    Gradient: ``dL/dx[plane][indices[o]] += dL/dy[o]``.  Torch7's defaults:
    strides equal to the kernel, no padding, floor mode.  Each forward
    records the input's ``itime, iheight, iwidth``.

    In evaluation mode (``evaluate()``) the forward pass computes the values
    alone, bit for bit the same, and leaves ``indices`` None; a backward
    pass after it finds them again from its ``input`` argument.  A pooling
    that a VolumetricMaxUnpooling reads keeps computing its indices.
    """

    _kernel = "VolumetricMaxPooling"
    _size_names = ("itime", "iheight", "iwidth")

    def __init__(self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0):
        super().__init__()
        name = type(self).__name__
        self.kT, self.kW, self.kH = integer(name, "kT", kT), integer(name, "kW", kW), integer(name, "kH", kH)
        self.dT = self.kT if dT is None else integer(name, "dT", dT)
        self.dW = self.kW if dW is None else integer(name, "dW", dW)
        self.dH = self.kH if dH is None else integer(name, "dH", dH)
        self.padT, self.padW, self.padH = (integer(name, "padT", padT), integer(name, "padW", padW),
                                           integer(name, "padH", padH))
        self.ceil_mode = False
        self.indices = None

    def _window(self):
        return (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH)

    _t7_version = 2   # Torch7's class version (save_lua writes it)

    def _t7_unfixup(self, fields):
        """save_lua: the indices as Torch7 kept them (window offsets packed
        in bytes, see volume_indices_to_t7)."""
        volume_indices_to_t7(self, fields)

    def _t7_fixup(self, version):
        raw = vars(self).get("indices")
        t7_fields(self, ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH"),
                  {"padT": 0, "padW": 0, "padH": 0, "ceil_mode": False, "indices": None})
        self._t7_keep_indices(raw)

    def _t7_keep_indices(self, raw):
        """The indices of the last forward, when the file holds them as
        Torch7's THNN did (see volume_indices_from_t7), with the input size a
        VolumetricMaxUnpooling made the pooling record; else None (made by
        the next forward)."""
        self.indices = volume_indices_from_t7(self, raw)
        if self.indices is not None:
            self.itime, self.iheight, self.iwidth = int(self.itime), int(self.iheight), int(self.iwidth)

    def _pads(self):
        return f", {self.padT},{self.padW},{self.padH}" if self.padT or self.padW or self.padH else ""

    def __repr__(self):
        return (f"nn.{type(self).__name__}({self.kT}x{self.kW}x{self.kH}, {self.dT},{self.dW},{self.dH}"
                f"{self._pads()})")

    def _onnx(self, g, x, y):
        """MaxPool (3D)"""
        dilations = tuple(getattr(self, f"dilation{a}", 1) for a in "THW")
        paired = id(self) in g.wanted_indices
        out = g.pool("MaxPool", x, y, (self.kT, self.kH, self.kW), (self.dT, self.dH, self.dW),
                     (self.padT, self.padH, self.padW), self.ceil_mode, dilations, outputs=2 if paired else 1)
        if not paired:
            return out
        g.memo[id(self)] = (out[1], x)   # for the VolumetricMaxUnpooling of this module
        return out[0]
