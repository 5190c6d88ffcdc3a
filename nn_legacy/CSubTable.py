import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.tables import ElementwiseTable


class CSubTable(ElementwiseTable):
    """``output = input[0] - input[1]`` for a table of two float arrays of
    one shape; gradInput is ``[gradOutput, -gradOutput]``."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors
    _ufunc = np.subtract   # (what _forward does, for two numpy arrays)

    _arity = 2

    def _forward(self, xs, out):
        xp = array_namespace(xs)
        xp.subtract(xs[0], xs[1], out=out)

    def _backward(self, xs, g, outs):
        xp = array_namespace(xs)
        outs[0][...] = g
        xp.negative(g, out=outs[1])

    def _onnx(self, g, x, y):
        """Sub"""
        return g.op("Sub", x)
