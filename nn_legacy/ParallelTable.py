from ._bases.tables import check_length
from .Container import Container, same_list, tree_repr
from ._helpers.onnx_types import NotExportable


class ParallelTable(Container):
    """Child i on entry i of the input table: ``output = [m_0(x[0]), m_1(x[1]),
    ...]``, and ``gradInput[i]`` is child i's gradInput for ``gradOutput[i]``.

    The input (and gradOutput) must be a table (list) with exactly one entry
    per child.  Torch7 ignored entries beyond the number of children; here
    they are refused, so that gradInput is always laid out as the input.
    The arrays of the returned tables are the children's own.
    """

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def _check(self, input, gradOutput=None):
        check_length(self, input, len(self.modules), "input", "its modules")
        if gradOutput is not None:
            self._need_output()
            check_length(self, gradOutput, len(self.modules), "gradOutput", "its modules")

    def updateOutput(self, input):
        self._check(input)
        self.output = same_list(self.output, self._forward_each(input, per_child=True))
        return self.output

    def _backward(self, method, input, gradOutput, *extra):
        self._check(input, gradOutput)
        grads = [self._child(i, method, x, g, *extra) for i, (x, g) in enumerate(zip(input, gradOutput))]
        self.gradInput = same_list(self.gradInput, grads)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._backward("updateGradInput", input, gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._backward("backward", input, gradOutput, scale)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check(input, gradOutput)
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self._child(i, "accGradParameters", x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._check(input, gradOutput)
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self._child(i, "accUpdateGradParameters", x, g, lr)

    def __repr__(self):
        return tree_repr(self, f"nn.{type(self).__name__}")

    def _onnx(self, g, x, y):
        """child i's nodes on entry i"""
        if not isinstance(x, list) or len(x) != len(self.modules):
            raise NotExportable(f"the input must be a table of {len(self.modules)} entries")
        return [g.child(self, i, entry) for i, entry in enumerate(x)]
