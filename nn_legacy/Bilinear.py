import math

import numpy as np

from ._helpers.arrays import check_features, check_shape, describe, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class Bilinear(Module):
    """Bilinear map of a pair of inputs: ``y_k = x1^T W_k x2 + b_k``.

    input: a list ``[x1, x2]`` with x1 ``[batch, inputSize1]`` and x2
    ``[batch, inputSize2]`` (or one sample each, ``[inputSize1]`` and
    ``[inputSize2]``); output ``[batch, outputSize]`` (or
    ``[outputSize]``); ``weight`` ``[outputSize, inputSize1, inputSize2]``,
    ``bias`` ``[outputSize]`` (absent with ``bias=False``).

    Gradients: gradInput is a list ``[dL/dx1, dL/dx2]`` with
    ``dL/dx1 = sum_k dL/dy_k W_k x2`` and ``dL/dx2 = sum_k dL/dy_k W_k^T x1``;
    ``dL/dW_k += scale * dL/dy_k x1 x2^T`` and ``dL/db += scale * dL/dy``,
    summed over the batch.  reset() draws W and b from
    U(-1/sqrt(inputSize1), 1/sqrt(inputSize1)) as Torch7 did.
    """

    _t7_pairs = ('gradInput',)   # save_lua: Torch7's constructor made {torch.Tensor(), torch.Tensor()}

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputSize1, inputSize2, outputSize, bias=True):
        super().__init__()
        sizes = (inputSize1, inputSize2, outputSize)
        if not all(isinstance(n, (int, np.integer)) and n > 0 for n in sizes):
            raise ValueError(f"Bilinear: sizes must be positive integers, got {sizes}")
        self.weight = np.zeros((outputSize, inputSize1, inputSize2))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(outputSize) if bias else None
        self.gradBias = np.zeros(outputSize) if bias else None
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.weight.shape[1]) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def _pair(self, input):
        """The two inputs, checked, as 2D batches (x1, x2)."""
        xp = array_namespace(input)
        if not isinstance(input, (list, tuple)) or len(input) != 2:
            got = f"a {type(input).__name__} of {len(input)}" if isinstance(input, (list, tuple)) \
                else type(input).__name__
            raise TypeError(f"Bilinear: input must be a list of two arrays [x1, x2], got {got}")
        _, n1, n2 = self.weight.shape
        for i, (x, n) in enumerate(zip(input, (n1, n2))):
            self._kernels(x, f"input[{i}]")
            check_features(self, x, n, f"input[{i}]")
        x1, x2 = input
        if x1.shape[:-1] != x2.shape[:-1]:
            raise ValueError(f"Bilinear: input[1] must hold as many samples as input[0] ({describe(x1)}), "
                             f"got {describe(x2)}")
        return xp.ascontiguousarray(x1).reshape(-1, n1), xp.ascontiguousarray(x2).reshape(-1, n2)

    def _gradient(self, input, gradOutput):
        xp = array_namespace(input)
        x1, x2 = self._pair(input)
        shape = input[0].shape[:-1] + (self.weight.shape[0],)
        check_shape(self, gradOutput, "gradOutput", shape, x1.dtype, "the output")
        return x1, x2, xp.ascontiguousarray(gradOutput).reshape(-1, shape[-1])

    def updateOutput(self, input):
        xp = array_namespace(input)
        x1, x2 = self._pair(input)
        y = xp.einsum("bi,kij,bj->bk", x1, self.weight, x2, optimize=True)
        if self.bias is not None:
            y += self.bias
        shape = input[0].shape[:-1] + (self.weight.shape[0],)
        self.output = reuse(self.output, shape, x1.dtype, *input)
        self.output[...] = y.reshape(shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        x1, x2, g = self._gradient(input, gradOutput)
        old = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 2 else [None, None]
        grads = [xp.einsum("bk,kij,bj->bi", g, self.weight, x2, optimize=True),
                 xp.einsum("bk,kij,bi->bj", g, self.weight, x1, optimize=True)]
        self.gradInput = []
        for buffer, x, grad in zip(old, input, grads):
            buffer = reuse(buffer, x.shape, x.dtype, *input, gradOutput)
            buffer[...] = grad.reshape(x.shape)
            self.gradInput.append(buffer)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        x1, x2, g = self._gradient(input, gradOutput)
        self.gradWeight += scale * xp.einsum("bk,bi,bj->kij", g, x1, x2, optimize=True)
        if self.bias is not None:
            self.gradBias += scale * g.sum(axis=0)

    def __repr__(self):
        k, n1, n2 = self.weight.shape
        return f"nn.Bilinear({n1}, {n2} -> {k}{'' if self.bias is not None else ', without bias'})"

    def _onnx(self, g, x, y):
        """Einsum (and Add of the bias)"""
        weight = g.param(self.weight, "weight")

        def build(x1):
            x2 = x[1].name if x[1].ndim == 2 else g.op("Unsqueeze", [x[1], g.ints([0])])
            out = g.op("Einsum", [x1, weight, x2], equation="bi,kij,bj->bk")
            return out if self.bias is None else g.op("Add", [out, g.param(self.bias, "bias")])
        return g.with_batch(x[0], 2, build)
