from ._helpers.arrays import name_of
from ._bases.tables import check_length, check_list, entries
from .Module import Module


class ZipTable(Module):
    """A table of tables zipped: ``[[a1, a2], [b1, b2]]`` gives
    ``[[a1, b1], [a2, b2]]`` (the entries themselves, not copies).  The
    inner tables must have one length.  gradInput unzips gradOutput the
    same way."""

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def _zip(self, table, name):
        outer = check_list(self, table, name)
        inner = [check_list(self, t, f"{name}[{i}]") for i, t in enumerate(outer)]
        for i, t in enumerate(inner[1:], 1):
            if len(t) != len(inner[0]):
                raise ValueError(f"{name_of(self)}: {name}[{i}] has {entries(len(t))} but {name}[0] has "
                                 f"{len(inner[0])}: tables of one length are zipped")
        return [list(group) for group in zip(*inner)]

    def updateOutput(self, input):
        self.output = self._zip(input, "input")
        return self.output

    def updateGradInput(self, input, gradOutput):
        zipped = self._zip(input, "input")
        check_length(self, gradOutput, len(zipped))
        for i, g in enumerate(gradOutput):
            check_length(self, g, len(zipped[i]), f"gradOutput[{i}]", f"output[{i}]")
        self.gradInput = self._zip(gradOutput, "gradOutput")
        return self.gradInput

    def _onnx(self, g, x, y):
        """none (the entries themselves)"""
        return self._zip(x, "input")
