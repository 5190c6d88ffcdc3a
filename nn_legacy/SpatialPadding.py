import numbers

from ._helpers.arrays import describe, name_of
from ._bases.dims import check_array, check_int, from_lua, lua_int
from .Module import Module
from .SpatialZeroPadding import _kept, padded_grad_input, padded_output


class SpatialPadding(Module):
    """nnx's padder: ``pad_l`` columns on the left, ``pad_r`` on the right,
    ``pad_t`` rows on top and ``pad_b`` at the bottom, filled with ``val``;
    a negative pad crops that many instead.  Rows are dim ``y_dim`` and
    columns dim ``x_dim`` of the input (0-based; by default the last two
    dims, so ``[planes, H, W]`` and ``[batch, planes, H, W]`` both pad H
    and W)::

        output[.., y, .., x] = input[.., y - pad_t, .., x - pad_l]   where that element exists,
                               val                                 elsewhere

    The output has ``H + pad_t + pad_b`` rows and ``W + pad_l + pad_r``
    columns (at least 1 each).  Gradient: ``gradInput[.., i, .., j] =
    gradOutput[.., i + pad_t, .., j + pad_l]`` for the elements that reach
    the output, 0 for the cropped ones.  ``pad_r``, ``pad_t``, ``pad_b``
    default to ``pad_l``.  A module loaded from a Torch7 file keeps the
    file's dims (nnx's defaults were dims 2 and 3, counted from 1: planes'
    rows and columns of a ``[planes, H, W]`` input).  The input may hold any
    numbers (the module only moves them).
    """

    def __init__(self, pad_l, pad_r=None, pad_t=None, pad_b=None, y_dim=None, x_dim=None, val=0):
        super().__init__()
        self.pad_l = check_int(self, pad_l, "pad_l")
        self.pad_r = self.pad_l if pad_r is None else check_int(self, pad_r, "pad_r")
        self.pad_t = self.pad_l if pad_t is None else check_int(self, pad_t, "pad_t")
        self.pad_b = self.pad_l if pad_b is None else check_int(self, pad_b, "pad_b")
        self.y_dim = -2 if y_dim is None else check_int(self, y_dim, "y_dim")
        self.x_dim = -1 if x_dim is None else check_int(self, x_dim, "x_dim")
        if not isinstance(val, numbers.Real) or isinstance(val, bool):
            raise TypeError(f"SpatialPadding: val must be a number, got {val!r}")
        self.val = val

    _t7_one_based = ('y_dim', 'x_dim')   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        for name in ("pad_l", "pad_r", "pad_t", "pad_b"):
            setattr(self, name, lua_int(getattr(self, name)))
        self.y_dim = from_lua(getattr(self, "y_dim", None) or 2)   # absent from nnx's first versions
        self.x_dim = from_lua(getattr(self, "x_dim", None) or 3)
        self.val = float(getattr(self, "val", None) or 0)

    def _layout(self, input):
        """(output shape, the kept part's place in the output, the kept part of the input)."""
        check_array(self, input)
        dims = []
        for name, d in (("y_dim", self.y_dim), ("x_dim", self.x_dim)):
            if not -input.ndim <= d < input.ndim:
                raise ValueError(f"{name_of(self)}: {name} {d} is out of range for input {describe(input)}")
            dims.append(d % input.ndim)
        y, x = dims
        if y == x:
            raise ValueError(f"{name_of(self)}: y_dim and x_dim are both dim {y} of input {describe(input)}")
        h, w = input.shape[y], input.shape[x]
        out_h, out_w = h + self.pad_t + self.pad_b, w + self.pad_l + self.pad_r
        if out_h < 1 or out_w < 1:
            raise ValueError(f"{name_of(self)}: the output would be {out_h}x{out_w} (rows x columns) for an "
                             f"input of {h}x{w} with pad_l={self.pad_l}, pad_r={self.pad_r}, pad_t={self.pad_t}, "
                             f"pad_b={self.pad_b}; it must be at least 1x1")
        rows, cols = _kept(h, out_h, self.pad_t), _kept(w, out_w, self.pad_l)
        shape, kept_out, kept_in = list(input.shape), [slice(None)] * input.ndim, [slice(None)] * input.ndim
        shape[y], shape[x] = out_h, out_w
        kept_in[y], kept_in[x] = rows, cols
        kept_out[y] = slice(rows.start + self.pad_t, rows.stop + self.pad_t)
        kept_out[x] = slice(cols.start + self.pad_l, cols.stop + self.pad_l)
        return tuple(shape), tuple(kept_out), tuple(kept_in)

    def updateOutput(self, input):
        return padded_output(self, input, self.val)

    def updateGradInput(self, input, gradOutput):
        return padded_grad_input(self, input, gradOutput)

    def __repr__(self):
        dims = "" if (self.y_dim, self.x_dim) == (-2, -1) else f", dims {self.y_dim},{self.x_dim}"
        val = f", val={self.val:g}" if self.val else ""
        return f"nn.SpatialPadding(l={self.pad_l}, r={self.pad_r}, t={self.pad_t}, b={self.pad_b}{dims}{val})"

    def _onnx(self, g, x, y):
        """Pad (constant val; a negative pad as Slice)"""
        before, after = [0] * x.ndim, [0] * x.ndim
        rows, columns = self.y_dim % x.ndim, self.x_dim % x.ndim
        before[rows], after[rows], before[columns], after[columns] = self.pad_t, self.pad_b, self.pad_l, self.pad_r
        if x.batched and 0 in (rows, columns):
            g.fix_batch("it pads the batch dimension")
        return g.pad(x, before, after, value=self.val)
