import math

import numpy as np

from ._helpers.arrays import reuse
from ._helpers.namespace import array_namespace
from .Linear import Linear
from .Module import Module, uniform


class LinearWeightNorm(Linear):
    """A Linear layer with weight normalization (Salimans & Kingma 2016):
    ``y = W x + b`` with each row of W written as a direction and a length,
    ``W[i] = g[i] * v[i] / ||v[i]||``.

    The parameters are ``v`` ``[outputSize, inputSize]``, ``g``
    ``[outputSize, 1]`` and ``bias`` ``[outputSize]`` (None with
    ``bias=False``), with gradients ``gradV``, ``gradG``, ``gradBias``
    (Torch7's names and shapes).  ``weight`` is W, recomputed from v and g
    at every forward pass (a work array, not a parameter).  ``||v[i]||`` is
    taken as at least ``eps``.  reset() draws W as Linear does and sets
    ``g = ||W[i]||``, ``v = W``; ``initFromWeight(W)`` does the same from a
    given W, ``LinearWeightNorm.fromLinear(linear)`` builds one from a
    Linear layer and ``toLinear()`` gives the Linear layer of the current W.

    Gradients, from ``dW = scale * dL/dy x^T`` (as Linear's): with
    ``n = ||v[i]||``, ``dL/dg[i] += sum_j dW[i, j] v[i, j] / n`` and
    ``dL/dv[i] += (g[i] / n) (dW[i] - (dL/dg[i] / n) v[i])``;
    ``dL/db`` as Linear's.  (Torch7 turned the whole of gradV into the
    gradient of v on every call, which is right only when it starts at
    zero; here each call adds its own share.)
    """

    _parameter_names = (("v", "gradV"), ("g", "gradG"), ("bias", "gradBias"))
    _buffer_names = ("weight", "_dW")
    _dW = None

    def __init__(self, inputSize, outputSize, bias=True, eps=1e-16):
        Module.__init__(self)
        if inputSize < 1 or outputSize < 1:
            raise ValueError(f"LinearWeightNorm: sizes must be positive, got {inputSize} -> {outputSize}")
        self.eps = float(eps)
        self.v = np.zeros((outputSize, inputSize))
        self.gradV = np.zeros((outputSize, inputSize))
        self.g = np.zeros((outputSize, 1))
        self.gradG = np.zeros((outputSize, 1))
        self.weight = np.zeros((outputSize, inputSize))
        self.bias = np.zeros(outputSize) if bias else None
        self.gradBias = np.zeros(outputSize) if bias else None
        self.reset()

    def _t7_fixup(self, version):
        for name in ("norm", "scale", "addBuffer", "outputSize", "inputSize", "gradWeight"):
            self.__dict__.pop(name, None)   # Torch7's work arrays and sizes (read from v here)
        self.weight = None

    def reset(self, stdv=None):
        stdv = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(self.v.shape[1])
        self.initFromWeight(uniform(self.v.shape, stdv, self.v.dtype))
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def initFromWeight(self, weight=None):
        """g = the norms of weight's rows (at least eps), v = weight; weight
        defaults to the current W."""
        xp = array_namespace(self.v)
        weight = self.updateWeightMatrix() if weight is None else xp.asarray(weight)
        self.g[...] = xp.maximum(xp.sqrt((weight * weight).sum(axis=1, keepdims=True)), self.eps)
        self.v[...] = weight
        return self

    @classmethod
    def fromLinear(cls, linear):
        module = cls(linear.weight.shape[1], linear.weight.shape[0], linear.bias is not None).type(linear.weight.dtype)
        module.initFromWeight(linear.weight)
        if linear.bias is not None:
            module.bias[...] = linear.bias
        return module

    def toLinear(self):
        linear = Linear(self.v.shape[1], self.v.shape[0], self.bias is not None).type(self.v.dtype)
        linear.weight[...] = self.updateWeightMatrix()
        if self.bias is not None:
            linear.bias[...] = self.bias
        return linear

    def _norm(self):
        xp = array_namespace(self.v)
        return xp.maximum(xp.sqrt((self.v * self.v).sum(axis=1, keepdims=True)), self.eps)

    def updateWeightMatrix(self):
        """W = g v / ||v||, into ``weight``; returns it."""
        self.weight = reuse(self.weight, self.v.shape, self.v.dtype, self.v)
        array_namespace(self.v).multiply(self.v, self.g / self._norm(), out=self.weight)
        return self.weight

    def updateOutput(self, input):
        self.updateWeightMatrix()
        return super().updateOutput(input)

    def updateGradInput(self, input, gradOutput):
        self.updateWeightMatrix()
        return super().updateGradInput(input, gradOutput)

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = self._kernels(input)
        self.updateWeightMatrix()
        self._dW = reuse(self._dW, self.v.shape, self.v.dtype, self.v)
        self._dW.fill(0)
        kernels.Linear_accGradParameters(input, gradOutput, self.weight, self.bias, self._dW, self.gradBias, scale)
        norm = self._norm()
        dg = (self._dW * self.v).sum(axis=1, keepdims=True) / norm
        dv = (self.g / norm) * (self._dW - (dg / norm) * self.v)
        self.gradG += dg   # both found first: accUpdateGradParameters makes gradG g and gradV v
        self.gradV += dv

    def __repr__(self):
        n_out, n_in = self.v.shape
        return f"nn.LinearWeightNorm({n_in} -> {n_out}{'' if self.bias is not None else ' without bias'})"
