from ._helpers.arrays import name_of, reuse
from ._helpers.checks import check_table
from ._bases.dims import check_array
from ._bases.tables import check_length, check_list, check_nested_like
from .Module import Module


class ZipTableOneToMany(Module):
    """One array paired with each entry of a table: ``[v, [a1, a2, ...]]``
    gives ``[[v, a1], [v, a2], ...]`` (the objects themselves).  gradInput is
    ``[sum_i gradOutput[i][0], [gradOutput[0][1], gradOutput[1][1], ...]]``:
    v collects the gradients of all its pairs (in a buffer of the
    module's); the others are gradOutput's own arrays."""

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def _split(self, input):
        one, many = check_table(name_of(self), "input", input, ["array", "table"])
        check_array(self, one, "input[0]")
        return one, check_list(self, many, "input[1]")

    def updateOutput(self, input):
        one, many = self._split(input)
        self.output = [[one, entry] for entry in many]
        return self.output

    def updateGradInput(self, input, gradOutput):
        one, many = self._split(input)
        pairs = check_length(self, gradOutput, len(many))
        for i, (pair, entry) in enumerate(zip(pairs, many)):
            check_nested_like(self, pair, [one, entry], f"gradOutput[{i}]", f"output[{i}]")
        total = reuse(self.gradInput[0] if isinstance(self.gradInput, list) else None, one.shape,
                      pairs[0][0].dtype if pairs else one.dtype, one, *(p[0] for p in pairs))
        total.fill(0)
        for pair in pairs:
            total += pair[0]
        self.gradInput = [total, [pair[1] for pair in pairs]]
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the entries themselves)"""
        one, many = x
        return [[one, entry] for entry in many]
