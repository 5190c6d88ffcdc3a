import numpy as np

from ._helpers.arrays import check_like, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class Mul(Module):
    """Multiplies the input by one learned scalar: ``y = w x``; any shape.
    ``weight`` is an array of one element.

    Gradients: ``dL/dx = w dL/dy``; ``dL/dw += scale * sum(dL/dy * x)`` over
    every element.  reset() draws w from U(-1, 1) (Torch7's
    ``1/sqrt(#w)`` bound).
    """

    _parameter_names = (("weight", "gradWeight"),)

    def __init__(self):
        super().__init__()
        self.weight = np.zeros(1)
        self.gradWeight = np.zeros(1)
        self.reset()

    def reset(self, stdv=None):
        self.weight[...] = uniform(self.weight.shape, 1.0 if stdv is None else stdv, self.weight.dtype)
        return self

    def updateOutput(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.multiply(input, self.weight[0], out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.multiply(gradOutput, self.weight[0], out=self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradWeight[0] += scale * xp.vdot(xp.ascontiguousarray(gradOutput), xp.ascontiguousarray(input))

    def _onnx(self, g, x, y):
        """Mul by the learned scalar"""
        return g.op("Mul", [x, g.param(self.weight, "weight")])
