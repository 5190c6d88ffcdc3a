import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.tables import ElementwiseTable


class CDivTable(ElementwiseTable):
    """``output = input[0] / input[1]`` for a table of two float arrays of
    one shape; gradInput is ``[g / input[1], -g * input[0] / input[1]^2]``
    for g = gradOutput (inf and nan where input[1] is 0, as in Torch7)."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors
    _ufunc = np.divide   # (what _forward does, for two numpy arrays)

    _arity = 2

    def _forward(self, xs, out):
        xp = array_namespace(xs)
        xp.divide(xs[0], xs[1], out=out)

    def _backward(self, xs, g, outs):
        xp = array_namespace(xs)
        xp.divide(g, xs[1], out=outs[0])
        xp.multiply(outs[0], xs[0], out=outs[1])
        outs[1] /= xs[1]
        xp.negative(outs[1], out=outs[1])

    def _onnx(self, g, x, y):
        """Div"""
        return g.op("Div", x)
