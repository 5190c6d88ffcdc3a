import numbers

import numpy as np

from ._helpers.arrays import ARRAYS, name_of
from ._helpers.checks import check_table
from ._bases.tables import nested_copy, nested_zeros, table_leaves
from .Criterion import Criterion
from .Module import Module


class CriterionTable(Module):
    """A criterion as a module: the input is a table ``[input, target]`` and
    ``output = criterion.forward(input, target)``, a float.  gradInput is
    ``[gradOutput * dloss/dinput, zeros like the target]`` (0 for a target
    given as a number).  gradOutput is the gradient of the loss w.r.t. this
    output, a number (or an array of one element); Torch7 ignored it, which
    is the same as passing 1."""

    def __init__(self, criterion):
        super().__init__()
        if not isinstance(criterion, Criterion):
            raise TypeError(f"{name_of(self)}: criterion must be a Criterion, got {type(criterion).__name__}")
        self.criterion = criterion

    def _t7_fixup(self, version):
        self.gradInput = None   # Torch7's was {criterion.gradInput}: the criterion's own array

    def _split(self, input):
        return check_table(name_of(self), "input", input, ["input", "target"])

    def updateOutput(self, input):
        x, target = self._split(input)
        self.output = self.criterion.updateOutput(x, target)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, target = self._split(input)
        scale = _number(self, gradOutput)
        grad = nested_copy(self.gradInput[0] if isinstance(self.gradInput, list) else None,
                           self.criterion.updateGradInput(x, target))
        for leaf in table_leaves(grad):
            leaf *= scale
        if isinstance(target, (*ARRAYS, list, tuple)):
            old = self.gradInput[1] if isinstance(self.gradInput, list) else None
            zeros = nested_zeros(old, _as_lists(target))
        else:
            zeros = 0.0
        self.gradInput = [grad, zeros]
        return self.gradInput

    def clearState(self):
        self.criterion.clearState()
        return super().clearState()

    def __repr__(self):
        return f"nn.CriterionTable({self.criterion!r})"

    _onnx_unsupported = "its output is a criterion's loss, a number"


def _number(module, value):
    if isinstance(value, ARRAYS) and value.size == 1 and value.dtype.kind in "biuf":
        return value.item()
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return value
    raise TypeError(f"{name_of(module)}: gradOutput must be a number (the gradient w.r.t. the loss), "
                    f"got {type(value).__name__}" + (f" of size {list(value.shape)}" if isinstance(value, ARRAYS)
                                                     else ""))


def _as_lists(value):
    if isinstance(value, (list, tuple)):
        return [_as_lists(v) for v in value]
    return value if isinstance(value, ARRAYS) else np.asarray(value)
