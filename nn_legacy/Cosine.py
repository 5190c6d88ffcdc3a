import math

import numpy as np

from ._helpers.arrays import check_features, check_shape, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class Cosine(Module):
    """Cosine similarity with learned vectors: ``y_k = (w_k . x) / (|w_k| |x|)``,
    where ``w_k`` is row k of ``weight`` ``[outputSize, inputSize]`` and the
    norms are Euclidean, each plus eps = 1e-12 (as Torch7) so a zero vector
    gives 0 rather than nan.

    Input ``[inputSize]`` or ``[batch, inputSize]``; output ``[outputSize]``
    or ``[batch, outputSize]``.  Gradients (exact for the eps'd norms, with
    ``x / |x|`` taken as 0 at x = 0):
    ``dL/dx = sum_k dL/dy_k (w_k / (|w_k| |x|) - y_k x / (|x| |x|_0))`` and
    ``dL/dw_k += scale * sum_batch dL/dy_k (x / (|w_k| |x|) - y_k w_k / (|w_k| |w_k|_0))``,
    where ``|v|`` is the eps'd norm and ``|v|_0`` the plain one.
    reset() draws W from U(-1/sqrt(outputSize), 1/sqrt(outputSize)), as
    Torch7 did (its bound used the number of rows).
    """

    _parameter_names = (("weight", "gradWeight"),)
    eps = 1e-12

    def __init__(self, inputSize, outputSize):
        super().__init__()
        if not all(isinstance(n, (int, np.integer)) and n > 0 for n in (inputSize, outputSize)):
            raise ValueError(f"Cosine: sizes must be positive integers, got {inputSize} -> {outputSize}")
        self.weight = np.zeros((outputSize, inputSize))
        self.gradWeight = np.zeros_like(self.weight)
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.weight.shape[0]) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        return self

    def _terms(self, input):
        """input as [batch, inputSize] and, as columns/rows for broadcasting,
        plain norms of x [batch, 1] and of w [1, outputSize] and the output y."""
        xp = array_namespace(input)
        self._kernels(input)
        check_features(self, input, self.weight.shape[1])
        x = xp.ascontiguousarray(input).reshape(-1, self.weight.shape[1])
        x_norm = xp.sqrt(xp.einsum("bi,bi->b", x, x))[:, None]
        w_norm = xp.sqrt(xp.einsum("ki,ki->k", self.weight, self.weight))[None, :]
        y = (x @ self.weight.T) / (x_norm + self.eps) / (w_norm + self.eps)
        return x, x_norm, w_norm, y

    def _backward_terms(self, input, gradOutput):
        xp = array_namespace(input)
        x, x_norm, w_norm, y = self._terms(input)
        shape = input.shape[:-1] + (self.weight.shape[0],)
        check_shape(self, gradOutput, "gradOutput", shape, input.dtype, "the output")
        return x, x_norm, w_norm, y, xp.ascontiguousarray(gradOutput).reshape(y.shape)

    def updateOutput(self, input):
        y = self._terms(input)[3]
        self.output = reuse(self.output, input.shape[:-1] + (self.weight.shape[0],), input.dtype, input)
        self.output[...] = y.reshape(self.output.shape)
        return self.output

    @staticmethod
    def _unit(v, norm):
        """v / |v|_0 row by row, 0 for a zero row."""
        xp = array_namespace(v)
        return xp.divide(v, norm, out=xp.zeros_like(v), where=norm != 0)

    def updateGradInput(self, input, gradOutput):
        x, x_norm, w_norm, y, g = self._backward_terms(input, gradOutput)
        grad = ((g / (w_norm + self.eps)) @ self.weight
                - (g * y).sum(axis=1, keepdims=True) * self._unit(x, x_norm)) / (x_norm + self.eps)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = grad.reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, x_norm, w_norm, y, g = self._backward_terms(input, gradOutput)
        w_norm = w_norm.T   # a column: one row per w_k
        grad = ((g / (x_norm + self.eps)).T @ x
                - (g * y).sum(axis=0)[:, None] * self._unit(self.weight, w_norm)) / (w_norm + self.eps)
        self.gradWeight += scale * grad

    def __repr__(self):
        n_out, n_in = self.weight.shape
        return f"nn.Cosine({n_in} -> {n_out})"

    def _onnx(self, g, x, y):
        """MatMul by the unit rows of the weight, Div by the input's norm (ReduceL2)"""
        rows = self.weight / (np.sqrt((self.weight.astype(np.float64) ** 2).sum(axis=1)) + self.eps)[:, None]
        norm = g.op("Add", [g.op("ReduceL2", [x, g.ints([-1])], keepdims=1), np.array(self.eps, dtype=x.dtype)])
        return g.op("Div", [g.op("MatMul", [x, g.param(rows.T.astype(self.weight.dtype), "weight")]), norm])
