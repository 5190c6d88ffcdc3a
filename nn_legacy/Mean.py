from .Sum import Sum


class Mean(Sum):
    """``output = mean of the input along dimension``: Sum with
    sizeAverage (see Sum for the dims and the gradient)."""

    def __init__(self, dimension=0, nInputDims=None):
        super().__init__(dimension, nInputDims, sizeAverage=True)

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        self.sizeAverage = True   # Torch7's Mean before it was a Sum kept no such field
