"""Modules whose input or output is a table (a list of arrays, possibly
nested) seen as modules over one flat vector, so that the checks of
layer_checks (Jacobians, float32, pickling, accUpdateGradParameters) apply
to them unchanged.

    flat = FlatTable(module, table_input)
    assert_input_jacobian(flat, flat.flatten(table_input))

The flat input is every array of the input table, raveled and joined in
order; the flat output and gradients likewise for the module's output
table.  The wrapper holds the module (its parameters are the module's), so
``FlatTable(...).float()`` converts the module and ``clone`` copies it.
"""
import numpy as np

import nn_legacy as nn


def layout(value):
    """Shapes of an array or (nested) table."""
    if isinstance(value, (list, tuple)):
        return [layout(v) for v in value]
    return tuple(np.shape(value))


def leaves(value):
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in leaves(v)]
    return [value]


def flatten(value, dtype=np.float64):
    arrays = [np.ravel(a) for a in leaves(value)]
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype)


def unflatten(flat, shapes):
    """flat cut into arrays (views) laid out as ``shapes``."""
    offset = [0]

    def build(s):
        if isinstance(s, list):
            return [build(v) for v in s]
        n = int(np.prod(s, dtype=np.int64))
        part = flat[offset[0]:offset[0] + n].reshape(s)
        offset[0] += n
        return part

    table = build(shapes)
    assert offset[0] == flat.size, f"{flat.size} numbers for a table of {offset[0]}"
    return table


class FlatTable(nn.Module):
    """module over tables, seen as a module over flat vectors."""

    def __init__(self, module, like_input):
        super().__init__()
        self.module = module
        self.in_layout = layout(like_input)
        self.out_layout = None

    @staticmethod
    def flatten(value):
        return flatten(value)

    def _all_parameters(self):
        return self.module._all_parameters()

    def zeroGradParameters(self):
        self.module.zeroGradParameters()

    def updateParameters(self, learningRate):
        self.module.updateParameters(learningRate)

    def _dtype(self):
        return self.module._dtype()

    def _table(self, flat):
        return unflatten(flat, self.in_layout)

    def _grad(self, gradOutput):
        assert self.out_layout is not None, "forward first"
        return unflatten(gradOutput, self.out_layout)

    def updateOutput(self, input):
        out = self.module.updateOutput(self._table(input))
        self.out_layout = layout(out)
        self.output = flatten(out, input.dtype)
        return self.output

    def updateGradInput(self, input, gradOutput):
        grad = self.module.updateGradInput(self._table(input), self._grad(gradOutput))
        assert layout(grad) == self.in_layout, f"gradInput laid out as {layout(grad)}, input {self.in_layout}"
        self.gradInput = flatten(grad, input.dtype)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.module.accGradParameters(self._table(input), self._grad(gradOutput), scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self.module.accUpdateGradParameters(self._table(input), self._grad(gradOutput), lr)
