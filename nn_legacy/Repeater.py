from ._helpers.checks import check_positive
from ._bases.recurrent import acc_update_by_swap, add_into, onnx_forget
from ._bases.tables import check_length, nested_copy
from .AbstractRecurrent import AbstractRecurrent
from .AbstractSequencer import AbstractSequencer
from .Module import Module


class Repeater(AbstractSequencer):
    """Feeds the same input to a recurrent module for rho steps: the output
    is the table of its rho outputs (copies, in arrays of its own).

    ``Repeater(module, rho)``; a module that is not recurrent is wrapped in
    a Recursor.  Every forward starts a new sequence (the module forgets).
    gradOutput is a table of rho gradients; backward runs the steps in
    reverse, and gradInput is the sum of the step gradients w.r.t. the input
    (it is the same input at every step).
    """

    def __init__(self, module, rho):
        if not isinstance(module, Module):
            raise TypeError(f"Repeater: expected a Module, got {type(module).__name__}")
        check_positive("Repeater", rho=rho)
        from .Recursor import Recursor
        super().__init__(module if isinstance(module, AbstractRecurrent) else Recursor(module))
        self.module = self.modules[0]
        self.rho = int(rho)
        self.module.maxBPTTstep(self.rho)

    def maxBPTTstep(self, rho):
        check_positive("Repeater", rho=rho)
        self.rho = int(rho)
        self.module.maxBPTTstep(self.rho)

    def _t7_fixup(self, version):
        from ._bases.rnn_t7 import size_field
        self.rho = size_field(self, "rho", "seqlen")
        vars(self).pop("seqlen", None)
        self.module = self.modules[0]
        self.output = self.gradInput = None

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the count of steps is rho in the Element-Research
        package, seqlen in torch/rnn; the output a table."""
        fields.pop("rho", None)
        fields["rho" if package == "Element-Research/rnn" else "seqlen"] = self.rho
        if not isinstance(fields.get("output"), list):
            fields["output"] = {}

    def updateOutput(self, input):
        self.module.maxBPTTstep(self.rho)
        self.module.forget()
        old = self.output if isinstance(self.output, list) and len(self.output) == self.rho else [None] * self.rho
        self.output = [nested_copy(buffer, self._child(0, "updateOutput", input)) for buffer in old]
        return self.output

    def _check(self, gradOutput):
        if self.module.step - 1 != self.rho:
            raise RuntimeError(f"Repeater: backward needs a forward of rho={self.rho} steps first")
        return check_length(self, gradOutput, self.rho, "gradOutput", "rho")

    def updateGradInput(self, input, gradOutput):
        grads = self._check(gradOutput)
        total = None
        for t in reversed(range(self.rho)):
            g = self._child(0, "updateGradInput", input, grads[t])
            if total is None:
                total = nested_copy(self.gradInput, g)
            else:
                add_into(total, g)
        self.gradInput = total
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        grads = self._check(gradOutput)
        for t in reversed(range(self.rho)):
            self._child(0, "accGradParameters", input, grads[t], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def __repr__(self):
        return f"nn.Repeater({self.rho}) @ " + repr(self.module)

    def _onnx(self, g, x, y):
        """its module's nodes rho times on the same input, unrolled"""
        onnx_forget(g, self, 0)
        return [g.child(self, 0, x) for _ in range(self.rho)]
