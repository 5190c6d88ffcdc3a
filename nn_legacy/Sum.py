from ._dims import Reduction


class Sum(Reduction):
    """``output = sum of the input along dimension`` (divided by the size of
    that dim with ``sizeAverage``); the dim is removed, but a 1D input
    gives an output of size [1].  ``dimension`` is 0-based, negative from
    the end; with ``nInputDims`` and an input of ``nInputDims + 1`` dims it
    counts after the batch dim.  gradInput: gradOutput repeated along the
    dim (and divided by its size with sizeAverage)."""

    def __init__(self, dimension=0, nInputDims=None, sizeAverage=False):
        super().__init__(dimension, nInputDims)
        self.sizeAverage = bool(sizeAverage)

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        self.sizeAverage = bool(getattr(self, "sizeAverage", False))
        squeeze = vars(self).pop("squeeze", None)   # Torch7's Sum from 2017 could keep the summed dim
        if squeeze is not None and not squeeze:
            self.keepdim = True
        vars(self).pop("_gradOutput", None)

    def _out_shape(self, input, d):
        if getattr(self, "keepdim", False):   # a Torch7 file's Sum with squeeze = false
            return input.shape[:d] + (1,) + input.shape[d + 1:]
        return super()._out_shape(input, d)

    def _reduce(self, x, d):
        total = x.sum(axis=d, keepdims=True)
        return total / x.shape[d] if self.sizeAverage else total

    def _spread(self, x, g, d, out):
        out[...] = g / x.shape[d] if self.sizeAverage else g
