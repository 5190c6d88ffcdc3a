from ._bases.tables import check_length, nested_copy
from .Container import Container, add_table, same_list, tree_repr


class ConcatTable(Container):
    """Every child gets the same input; the output is the table (list) of
    their outputs: ``[m_0(x), m_1(x), ...]``.

    The input is an array or a table (list, possibly nested).  Going back,
    gradOutput is a table with one entry per child, and gradInput is the sum
    of the children's gradInputs: an array for an array input, a table laid
    out as the input for a table input (Torch7 summed them entry by entry
    the same way).  The arrays of the returned tables belong to the
    container (output entries are the children's own output arrays).
    """

    _t7_tables = ('output',)   # save_lua: Torch7's constructor made these tables, not tensors

    def updateOutput(self, input):
        outputs = self._forward_each(input)
        self.output = same_list(self.output, outputs)
        return self.output

    def _check_grad(self, gradOutput):
        self._need_output()
        return check_length(self, gradOutput, len(self.modules), "gradOutput", "the output")

    def _sum_grad_inputs(self, input, method, gradOutput, *extra):
        gradOutput = self._check_grad(gradOutput)
        if not self.modules:
            raise ValueError(f"{type(self).__name__}: the container is empty")
        total = None
        for i, g in enumerate(gradOutput):
            grad = self._child(i, method, input, g, *extra)
            if total is None:
                total = nested_copy(self.gradInput, grad)
            else:
                add_table(self, total, grad, i)
        self.gradInput = total
        return total

    def updateGradInput(self, input, gradOutput):
        return self._sum_grad_inputs(input, "updateGradInput", gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._sum_grad_inputs(input, "backward", gradOutput, scale)

    def accGradParameters(self, input, gradOutput, scale=1):
        for i, g in enumerate(self._check_grad(gradOutput)):
            self._child(i, "accGradParameters", input, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        for i, g in enumerate(self._check_grad(gradOutput)):
            self._child(i, "accUpdateGradParameters", input, g, lr)

    def __repr__(self):
        return tree_repr(self, f"nn.{type(self).__name__}")

    def _onnx(self, g, x, y):
        """the table of the children's outputs"""
        return [g.child(self, i, x) for i in range(len(self.modules))]
