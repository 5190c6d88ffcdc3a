import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.tables import ElementwiseTable


class CMulTable(ElementwiseTable):
    """``output = input[0] * input[1] * ...`` (elementwise) over a table of
    float arrays of one shape; ``gradInput[i] = gradOutput * prod_{j != i}
    input[j]``, the product of the others taken as such (not output /
    input[i], which fails at zeros)."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors
    _ufunc = np.multiply   # (what _forward does, for two numpy arrays)

    def _forward(self, xs, out):
        out[...] = xs[0]
        for x in xs[1:]:
            out *= x

    def _backward(self, xs, g, outs):
        xp = array_namespace(xs)
        # outs[i] = g * (x_0 ... x_{i-1}) * (x_{i+1} ... x_{n-1}): prefix products, then suffix ones
        before = g.copy()
        for x, out in zip(xs, outs):
            out[...] = before
            before *= x
        after = xp.ones_like(g)
        for x, out in zip(reversed(xs), reversed(outs)):
            out *= after
            after *= x

    def _onnx(self, g, x, y):
        """Mul (chained, first to last)"""
        out = x[0]
        for entry in x[1:]:
            out = g.op("Mul", [out, entry])
        return out if len(x) > 1 else g.op("Identity", [out])
