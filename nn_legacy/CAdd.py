import math

import numpy as np

from ._helpers.arrays import broadcast_parameter, check_like, parameter_shape, reduce_to, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class CAdd(Module):
    """Adds a learned bias of any shape: ``y = x + b``, ``bias`` of shape
    ``size`` (``CAdd(3, 4)`` or ``CAdd((3, 4))``).

    b meets the input by Torch7's rules: element by element when both have
    as many elements; expanded along b's size-1 dims when they have as many
    dims; else once per sample of a batch ``[batch, ...]`` with as many
    elements per sample as b.  Gradients: ``dL/dx = dL/dy``;
    ``dL/db += scale * dL/dy`` summed over the dims b was expanded along.
    reset() draws b from U(-1/sqrt(n), 1/sqrt(n)), n = b's element count.
    """

    _parameter_names = (("bias", "gradBias"),)

    def __init__(self, *size):
        super().__init__()
        shape = parameter_shape(self, size)
        self.bias = np.zeros(shape)
        self.gradBias = np.zeros(shape)
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.bias.size) if stdv is None else stdv
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def _bias_view(self, input):
        self._kernels(input)
        return broadcast_parameter(self, self.bias, "bias", input)

    def updateOutput(self, input):
        xp = array_namespace(input)
        bias = self._bias_view(input)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.add(input, bias, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = gradOutput
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        bias = self._bias_view(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradBias += scale * reduce_to(xp.ascontiguousarray(gradOutput), bias, self.bias.shape)

    def __repr__(self):
        return f"nn.CAdd({', '.join(map(str, self.bias.shape))})"

    def _onnx(self, g, x, y):
        """Add (the bias shaped as forward broadcasts it)"""
        return g.op("Add", [x, g.param(_broadcast_view(self, g, x, self._bias_view), "bias")])


def _broadcast_view(module, g, x, view_of):
    """The parameter view ``view_of(input)`` gives (Torch7's rules, see
    CAdd) for x; the batch is fixed where the view depends on it."""
    view = view_of(x.value)
    if x.batched and (view.ndim == x.ndim and view.shape[0] != 1 or view_of(x.probe).shape != view.shape):
        g.fix_batch("its parameter meets the input differently for another batch size")
    return view
