from ._helpers.arrays import name_of
from ._bases.dims import check_int, from_lua, lua_int
from ._bases.tables import check_list, check_nested, check_nested_like, entries, fill_nested, nested_zeros
from .Module import Module


class NarrowTable(Module):
    """``length`` consecutive entries of a table from ``offset`` on:
    ``output = input[offset:offset + length]``, a list of the entries
    themselves.  offset is 0-based, negative from the end; a negative
    length counts from the end as in Torch7 (-1 reaches the last entry), so
    the length taken is ``len(input) - offset + length + 1``.  gradInput is
    laid out as the input: zeros, but for copies of gradOutput's entries in
    the narrowed part."""

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, offset, length=1):
        super().__init__()
        self.offset = check_int(self, offset, "offset")
        self.length = check_int(self, length, "length")
        if self.length == 0:
            raise ValueError(f"{name_of(self)}: length must not be 0 (a negative one counts from the end)")

    _t7_one_based = ('offset',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.offset = from_lua(self.offset)
        self.length = lua_int(self.length)

    def _range(self, input):
        input = check_list(self, input)
        n = len(input)
        start = self.offset + n if self.offset < 0 else self.offset
        length = n - start + self.length + 1 if self.length < 0 else self.length
        if not (0 <= start < n and 1 <= length <= n - start):
            raise ValueError(f"{name_of(self)}: offset {self.offset} and length {self.length} do not fit in a "
                             f"table of {entries(n)}")
        return start, start + length

    def updateOutput(self, input):
        start, stop = self._range(input)
        self.output = list(input[start:stop])
        return self.output

    def updateGradInput(self, input, gradOutput):
        start, stop = self._range(input)
        check_nested(self, input)
        check_nested_like(self, gradOutput, list(input[start:stop]))
        like = list(input)
        like[start:stop] = gradOutput
        self.gradInput = nested_zeros(self.gradInput, like)
        fill_nested(self.gradInput[start:stop], list(gradOutput))
        return self.gradInput

    def __repr__(self):
        return f"nn.NarrowTable({self.offset}, {self.length})"

    def _onnx(self, g, x, y):
        """none (the entries themselves)"""
        start, stop = self._range(x)
        return list(x[start:stop])
