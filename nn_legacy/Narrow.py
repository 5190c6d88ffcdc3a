import numpy as np

from ._helpers.arrays import describe, name_of
from ._bases.dims import SliceOf, batch_dim, check_int, from_lua, lua_int


class Narrow(SliceOf):
    """``length`` consecutive entries along ``dimension``, from ``offset``
    on: ``output = input[..., offset:offset + length, ...]`` (a copy), all
    0-based.  A negative dimension or offset counts from the end (-1 is the
    last).  A negative length counts from the end as in Torch7: -1 reaches
    the last entry, -2 stops one before it; the length taken is then
    ``size - offset + length + 1``.  gradInput is zero outside the narrowed
    part and gradOutput inside it."""

    def __init__(self, dimension, offset, length=1):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")
        self.index = check_int(self, offset, "offset")   # Torch7's name for it
        self.length = check_int(self, length, "length")
        if self.length == 0:
            raise ValueError(f"{name_of(self)}: length must not be 0 (a negative one counts from the end)")

    _t7_one_based = ('dimension', 'index')   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's Narrow (torch/nn 8726825) read a negative offset otherwise (offset 1, length
        size - length), so one that counts from the end here has no Torch7 counterpart."""
        if self.index < 0:
            raise TypeError(f"save_lua: nn.Narrow(offset={self.index}) has no Torch7 counterpart (Torch7's Narrow "
                            f"reads a negative offset as offset 1 with length size - length); write the offset "
                            f"from the start")

    def _t7_fixup(self, version):
        """Torch7's Narrow (torch/nn since ee700e2, 2016) read a negative
        offset as offset 1 with length ``size - length``, the length first
        counted from the end when negative: the first entries of the
        dimension, not a count from its end.  Loaded so, as offset 0 with a
        negative length (``size - length`` for a positive one; ``offset -
        length - 2``, a constant, for a negative one)."""
        from ._helpers.lua import T7Error
        self.dimension = from_lua(self.dimension)
        index, length = lua_int(self.index), lua_int(self.length)
        if index is not None and length is not None and index < 0:
            self.index = 0
            self.length = index - length - 2 if length < 0 else -length - 1
            if length < 0 and self.length < 1 or self.length == 0:
                raise T7Error(f"nn.Narrow: offset {index} and length {length} narrow to nothing in Torch7")
        else:
            self.index, self.length = from_lua(index), length

    def _index(self, input):
        d = batch_dim(self, self.dimension, input)
        size = input.shape[d]
        start = self.index + size if self.index < 0 else self.index
        length = size - start + self.length + 1 if self.length < 0 else self.length
        if not (0 <= start < size and 1 <= length <= size - start):
            raise ValueError(f"{name_of(self)}: offset {self.index} and length {self.length} do not fit in size "
                             f"{size} of dimension {d} of input {describe(input)}")
        index = [slice(None)] * input.ndim
        index[d] = slice(start, start + length)
        return tuple(index)

    def __repr__(self):
        return f"nn.Narrow({self.dimension}, {self.index}, {self.length})"

    def _onnx(self, g, x, y):
        """Slice"""
        d = batch_dim(self, self.dimension, x.value)
        part = self._index(x.value)[d]
        start, stop = part.start, part.stop
        if d == 0 and x.batched:   # the same entries of any batch: counted from the end where Torch7 counts so
            end = np.iinfo(np.int64).max
            start = self.index
            if self.length < 0:
                stop = self.length + 1 if self.length < -1 else end
            else:
                stop = self.index + self.length if self.index < 0 else start + self.length
                stop = end if stop == 0 and self.index < 0 else stop
        return g.slice(x, d, start, stop)
