import numpy as np

from ._helpers.arrays import describe, name_of
from ._bases.dims import SliceOf, batch_dim, check_int, from_lua


class Select(SliceOf):
    """Entry ``index`` along ``dimension``, which is removed:
    ``output = input[..., index, ...]`` (a copy).  Both 0-based; negative
    ones count from the end (-1 is the last).  gradInput is zero but for
    gradOutput at that entry."""

    def __init__(self, dimension, index):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")
        self.index = check_int(self, index, "index")

    _t7_one_based = ('dimension', 'index')   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dimension = from_lua(self.dimension)
        self.index = from_lua(self.index)

    def _index(self, input):
        d = batch_dim(self, self.dimension, input)
        size = input.shape[d]
        if not -size <= self.index < size:
            raise ValueError(f"{name_of(self)}: index {self.index} is out of range for size {size} of "
                             f"dimension {d} of input {describe(input)}")
        index = [slice(None)] * input.ndim
        index[d] = self.index % size
        return tuple(index)

    def __repr__(self):
        return f"nn.Select({self.dimension}, {self.index})"

    def _onnx(self, g, x, y):
        """Gather of one index"""
        d = batch_dim(self, self.dimension, x.value)
        index = self.index if d == 0 and x.batched else self._index(x.value)[d]
        return g.op("Gather", [x, np.array(index, dtype=np.int64)], axis=d)
