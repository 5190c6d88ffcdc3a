from ._helpers.arrays import name_of
from ._bases.dims import check_int, from_lua
from ._bases.tables import check_list, check_nested, check_nested_like, entries, fill_nested, nested_zeros
from .Module import Module


class SelectTable(Module):
    """Entry ``index`` of a table (0-based; negative counts from the end):
    ``output = input[index]``, the entry itself (an array or a table).
    gradInput is laid out as the input: zeros, but for a copy of gradOutput
    at index."""

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, index):
        super().__init__()
        self.index = check_int(self, index, "index")

    _t7_one_based = ('index',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.index = from_lua(self.index)

    def _position(self, input):
        input = check_list(self, input)
        if not -len(input) <= self.index < len(input):
            raise ValueError(f"{name_of(self)}: index {self.index} is out of range for a table of "
                             f"{entries(len(input))}")
        return self.index % len(input)

    def updateOutput(self, input):
        self.output = input[self._position(input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        k = self._position(input)
        check_nested(self, input)
        check_nested_like(self, gradOutput, input[k])
        like = list(input)
        like[k] = gradOutput
        self.gradInput = nested_zeros(self.gradInput, like)
        fill_nested(self.gradInput[k], gradOutput)
        return self.gradInput

    def __repr__(self):
        return f"nn.SelectTable({self.index})"

    def _onnx(self, g, x, y):
        """none (the entry itself)"""
        return x[self._position(x)]
