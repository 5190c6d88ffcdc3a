from ._helpers.arrays import name_of, reuse
from ._bases.dims import check_array, check_grad, check_int, lua_int
from ._helpers.planes import check_planes
from .Module import Module


class SpatialZeroPadding(Module):
    """Zeros around each plane: ``pad_l`` columns on the left, ``pad_r`` on
    the right, ``pad_t`` rows on top and ``pad_b`` at the bottom.  A
    negative pad crops instead: it removes that many columns (rows) from
    that side.

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``; output of height
    ``H + pad_t + pad_b`` and width ``W + pad_l + pad_r`` (at least 1 each)::

        output[..., y, x] = input[..., y - pad_t, x - pad_l]   where that pixel exists,
                            0                                  elsewhere

    Gradient: ``gradInput[..., i, j] = gradOutput[..., i + pad_t, j + pad_l]``
    for the input pixels that reach the output, 0 for the cropped ones.
    ``pad_r``, ``pad_t`` and ``pad_b`` default to ``pad_l``.  The input may
    hold any numbers (the module only moves them).
    """

    def __init__(self, pad_l, pad_r=None, pad_t=None, pad_b=None):
        super().__init__()
        self.pad_l = check_int(self, pad_l, "pad_l")
        self.pad_r = self.pad_l if pad_r is None else check_int(self, pad_r, "pad_r")
        self.pad_t = self.pad_l if pad_t is None else check_int(self, pad_t, "pad_t")
        self.pad_b = self.pad_l if pad_b is None else check_int(self, pad_b, "pad_b")

    def _t7_fixup(self, version):
        for name in ("pad_l", "pad_r", "pad_t", "pad_b"):
            setattr(self, name, lua_int(getattr(self, name)))

    def _layout(self, input):
        """(output shape, where the kept input lies in the output, the kept part of the input)."""
        check_array(self, input)
        check_planes(self, input)
        h, w = input.shape[-2:]
        out_h, out_w = h + self.pad_t + self.pad_b, w + self.pad_l + self.pad_r
        if out_h < 1 or out_w < 1:
            raise ValueError(f"{name_of(self)}: the output would be {out_h}x{out_w} (height x width) for an "
                             f"input of {h}x{w} with pad_l={self.pad_l}, pad_r={self.pad_r}, pad_t={self.pad_t}, "
                             f"pad_b={self.pad_b}; it must be at least 1x1")
        rows = _kept(h, out_h, self.pad_t)
        cols = _kept(w, out_w, self.pad_l)
        kept_out = (Ellipsis, slice(rows.start + self.pad_t, rows.stop + self.pad_t),
                    slice(cols.start + self.pad_l, cols.stop + self.pad_l))
        return input.shape[:-2] + (out_h, out_w), kept_out, (Ellipsis, rows, cols)

    def updateOutput(self, input):
        return padded_output(self, input, 0)

    def updateGradInput(self, input, gradOutput):
        return padded_grad_input(self, input, gradOutput)

    def __repr__(self):
        return f"nn.SpatialZeroPadding(l={self.pad_l}, r={self.pad_r}, t={self.pad_t}, b={self.pad_b})"

    def _onnx(self, g, x, y):
        """Pad (constant 0; a negative pad as Slice)"""
        lead = [0] * (x.ndim - 2)
        return g.pad(x, lead + [self.pad_t, self.pad_l], lead + [self.pad_b, self.pad_r], value=0)


def padded_output(module, input, fill):
    """The verbs of the padding modules (SpatialZeroPadding, SpatialPadding),
    given their ``_layout(input)``: (output shape, where the kept part lies
    in the output, the kept part of the input)."""
    shape, kept_out, kept_in = module._layout(input)
    module.output = reuse(module.output, shape, input.dtype, input)
    module.output.fill(fill)
    module.output[kept_out] = input[kept_in]
    return module.output


def padded_grad_input(module, input, gradOutput):
    shape, kept_out, kept_in = module._layout(input)
    check_grad(module, gradOutput, shape)
    module.gradInput = reuse(module.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
    module.gradInput.fill(0)
    module.gradInput[kept_in] = gradOutput[kept_out]
    return module.gradInput


def _kept(n, out_n, before):
    """The input indices along one dim that land in the output (``before``
    is the pad in front), as a slice, empty when none does."""
    start = max(0, -before)
    stop = max(start, min(n, out_n - before))
    return slice(start, stop)
