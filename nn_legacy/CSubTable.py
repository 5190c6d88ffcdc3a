import numpy as np

from ._tables import ElementwiseTable


class CSubTable(ElementwiseTable):
    """``output = input[0] - input[1]`` for a table of two float arrays of
    one shape; gradInput is ``[gradOutput, -gradOutput]``."""

    _arity = 2

    def _forward(self, xs, out):
        np.subtract(xs[0], xs[1], out=out)

    def _backward(self, xs, g, outs):
        outs[0][...] = g
        np.negative(g, out=outs[1])

    def _onnx(self, g, x, y):
        """Sub"""
        return g.op("Sub", x)
