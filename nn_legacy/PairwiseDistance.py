import numpy as np
import math
import numbers

from ._helpers.arrays import name_of
from ._helpers.namespace import array_namespace
from ._bases.tables import RowPair


class PairwiseDistance(RowPair):
    """The p-norm distance of each pair of rows of a table ``[a, b]``:
    ``y = ||a - b||_p = (sum_k |a_k - b_k|^p)^(1/p)`` (see RowPair for the
    shapes).  Gradients: ``dy/da_k = -dy/db_k = sign(d_k) |d_k|^(p-1) /
    y^(p-1)`` for ``d = a - b`` (``sign(d_k)`` for p = 1); a pair at
    distance 0, where the norm has no derivative, gets 0 (Torch7 added 1e-6
    to y instead)."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, p):
        super().__init__()
        if not isinstance(p, numbers.Real) or isinstance(p, bool) or not (0 < p < math.inf):
            raise ValueError(f"{name_of(self)}: p must be a positive finite number, got {p!r}")
        self.norm = float(p)   # Torch7's name

    def _t7_fixup(self, version):
        self.norm = float(self.norm)
        for key in ("diff", "outExpand", "grad", "ones"):   # Torch7's buffers
            self.__dict__.pop(key, None)

    def _values(self, a, b):
        xp = array_namespace(a)
        d = xp.abs(a - b)
        if self.norm == 1:
            return d.sum(axis=1)
        if self.norm == 2:
            return xp.sqrt((d * d).sum(axis=1))
        return (d ** self.norm).sum(axis=1) ** (1 / self.norm)

    def _grads(self, a, b, g):
        xp = array_namespace(a)
        d = a - b
        if self.norm == 1:
            unit = xp.sign(d)
        else:
            y = self._values(a, b)[:, None] ** (self.norm - 1)
            unit = xp.divide(xp.sign(d) * xp.abs(d) ** (self.norm - 1), y, out=xp.zeros_like(d), where=y != 0)
        grad = g * unit
        return grad, -grad

    def __repr__(self):
        return f"nn.PairwiseDistance({self.norm:g})"

    def _onnx(self, g, x, y):
        """ReduceL1 / ReduceL2 of the difference (ReduceSum of |d|^p, then ^(1/p))"""
        diff, keep = g.op("Sub", x), 1 if x[0].ndim == 1 else 0
        if self.norm in (1, 2):
            return g.op(f"ReduceL{int(self.norm)}", [diff, g.ints([-1])], keepdims=keep)
        powered = g.op("Pow", [g.op("Abs", [diff]), np.array(self.norm, dtype=x[0].dtype)])
        total = g.op("ReduceSum", [powered, g.ints([-1])], keepdims=keep)
        return g.op("Pow", [total, np.array(1 / self.norm, dtype=x[0].dtype)])
