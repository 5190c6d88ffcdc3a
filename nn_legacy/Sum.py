import numpy as np

from ._helpers.checks import torch7_order_error
from ._bases.dims import Reduction


class Sum(Reduction):
    """``output = sum of the input along dimension`` (divided by the size of
    that dim with ``sizeAverage``); the dim is removed (kept with size 1
    when ``squeeze=False``), but a 1D input gives an output of size [1].
    ``dimension`` is 0-based, negative from the end; with ``nInputDims``
    and an input of ``nInputDims + 1`` dims it counts after the batch dim.
    gradInput: gradOutput repeated along the dim (and divided by its size
    with sizeAverage).

    The arguments are Torch7's, in its order:
    ``Sum(dimension, nInputDims, sizeAverage, squeeze)``; torch.legacy.nn
    had ``Sum(dimension, sizeAverage)``.  A boolean second argument
    (``Sum(0, True)``, torch.legacy.nn's sizeAverage) is refused with a
    TypeError naming both orders; write ``Sum(0, sizeAverage=True)``.
    """

    squeeze = True   # Torch7 files written before squeeze existed

    def __init__(self, dimension=0, nInputDims=None, sizeAverage=False, squeeze=True):
        if isinstance(nInputDims, (bool, np.bool_)):
            raise torch7_order_error(type(self).__name__, f"{type(self).__name__}({dimension!r}, {nInputDims!r})",
                                     "Sum(dimension, nInputDims, sizeAverage, squeeze)", "Sum(dimension, sizeAverage)",
                                     f"{type(self).__name__}({dimension!r}, sizeAverage={nInputDims!r})")
        super().__init__(dimension, nInputDims)
        self.sizeAverage = bool(sizeAverage)
        self.squeeze = bool(squeeze)

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        self.sizeAverage = bool(getattr(self, "sizeAverage", False))
        self.squeeze = bool(getattr(self, "squeeze", True))
        self.__dict__.pop("_gradOutput", None)   # Torch7's work tensor

    def _out_shape(self, input, d):
        if self.squeeze or input.ndim == 1:
            return super()._out_shape(input, d)
        return input.shape[:d] + (1,) + input.shape[d + 1:]

    def _reduce(self, x, d, out):
        if type(x) is np.ndarray:
            np.add.reduce(x, axis=d, keepdims=True, out=out)
            if self.sizeAverage:
                np.divide(out, x.shape[d], out=out)
        else:
            total = x.sum(axis=d, keepdims=True)
            out[...] = total / x.shape[d] if self.sizeAverage else total

    def _spread(self, x, g, d, out):
        out[...] = g / x.shape[d] if self.sizeAverage else g

    def _onnx(self, g, x, y):
        """ReduceSum (ReduceMean with sizeAverage)"""
        return self._onnx_reduce(g, x, "ReduceMean" if self.sizeAverage else "ReduceSum")
