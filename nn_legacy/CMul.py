import math

import numpy as np

from ._helpers.arrays import broadcast_parameter, check_like, host_plan, parameter_shape, reduce_to, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class CMul(Module):
    """Multiplies by a learned weight of any shape, element by element:
    ``y = x * w``, ``weight`` of shape ``size`` (``CMul(3, 4)`` or
    ``CMul((3, 4))``).

    w meets the input by the same rules as CAdd's bias (element by element,
    expanded along size-1 dims, or once per sample of a batch).  Gradients:
    ``dL/dx = dL/dy * w``; ``dL/dw += scale * dL/dy * x`` summed over the
    dims w was expanded along.  reset() draws w from U(-1/sqrt(n),
    1/sqrt(n)), n = w's element count.
    """

    _parameter_names = (("weight", "gradWeight"),)
    _cache_names = ("_plan",)   # the weight view's shape per input shape (see host_plan)

    def __init__(self, *size):
        super().__init__()
        shape = parameter_shape(self, size)
        self.weight = np.zeros(shape)
        self.gradWeight = np.zeros(shape)
        self._plan = None
        self.reset()

    #: fields save_lua writes as torch.LongStorages, as Torch7's constructor made them
    _t7_storages = ("size",)

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's size, the weight's sizes its constructor kept."""
        fields["size"] = self.weight.shape

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.weight.size) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        return self

    def _weight_view(self, input, gradOutput=None):
        self._kernels(input)
        if gradOutput is not None:
            check_like(self, gradOutput, "gradOutput", input, "the input")
        return broadcast_parameter(self, self.weight, "weight", input)

    def updateOutput(self, input):
        w = self.weight
        view = host_plan(self, input, (type(w), w.shape, w.dtype), lambda a: self._weight_view(a).shape)
        if view is None:   # a device or strided input: the checks each call
            xp, weight = array_namespace(input), self._weight_view(input)
        else:   # (a C-contiguous host array of a shape seen before, with this weight: checked then)
            xp, weight = np, w.reshape(view)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.multiply(input, weight, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        weight = self._weight_view(input, gradOutput)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.multiply(gradOutput, weight, out=self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        weight = self._weight_view(input, gradOutput)
        product = xp.ascontiguousarray(gradOutput) * xp.ascontiguousarray(input)
        self.gradWeight += scale * reduce_to(product, weight, self.weight.shape)

    def __repr__(self):
        return f"nn.CMul({', '.join(map(str, self.weight.shape))})"

    def _onnx(self, g, x, y):
        """Mul (the weight shaped as forward broadcasts it)"""
        from .CAdd import _broadcast_view
        return g.op("Mul", [x, g.param(_broadcast_view(self, g, x, self._weight_view), "weight")])
