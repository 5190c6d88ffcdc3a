"""Table-input modules (GRUCellFused, LSTMCellFused) seen through one slot.

The checks of layer_checks.py and nn_legacy.jacobian drive a module whose
input and output are single arrays.  ``Slot(module, table, index)`` is such
a module: its input is entry ``index`` of the input list (the other entries
stay fixed at ``table``), its output is the module's output, or, for a
module whose output is a list, the entries raveled and concatenated (and
gradOutput is split back the same way).  Parameters, their gradients and
every verb are the wrapped module's, so parameter Jacobians and
accUpdateGradParameters go through the real code.
"""
import numpy as np

from nn_legacy import Module


class Slot(Module):
    def __init__(self, module, table, index):
        super().__init__()
        self.module, self.table, self.index = module, list(table), index

    def _input(self, x):
        table = list(self.table)
        table[self.index] = x
        return table

    def _all_parameters(self):
        return self.module._all_parameters()

    def _dtype(self):
        return self.module._dtype()

    def updateOutput(self, x):
        out = self.module.updateOutput(self._input(x))
        if isinstance(out, list):
            self.shapes = [o.shape for o in out]
            out = np.concatenate([o.ravel() for o in out])
        self.output = out
        return out

    def _gradOutput(self, g):
        if not isinstance(self.module.output, list):
            return g
        parts, start = [], 0
        for shape in self.shapes:
            n = int(np.prod(shape))
            parts.append(g[start:start + n].reshape(shape))
            start += n
        return parts

    def updateGradInput(self, x, g):
        self.gradInput = self.module.updateGradInput(self._input(x), self._gradOutput(g))[self.index]
        return self.gradInput

    def accGradParameters(self, x, g, scale=1):
        self.module.accGradParameters(self._input(x), self._gradOutput(g), scale)

    def accUpdateGradParameters(self, x, g, lr):
        self.module.accUpdateGradParameters(self._input(x), self._gradOutput(g), lr)

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return self.module.type()
        self.module.type(dtype, _memo)
        self.table = [t.astype(dtype) for t in self.table]
        return self
