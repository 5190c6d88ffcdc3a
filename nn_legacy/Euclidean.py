import math

import numpy as np

from ._helpers.arrays import check_features, check_shape, host_plan, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class Euclidean(Module):
    """Distances to learned centres: ``y_j = || x - w_j ||_2``, where the
    centre ``w_j`` is column j of ``weight`` ``[inputSize, outputSize]``.

    Input ``[inputSize]`` or ``[batch, inputSize]``; output ``[outputSize]``
    or ``[batch, outputSize]``.  Gradients: ``dL/dx = sum_j dL/dy_j
    (x - w_j) / y_j`` and ``dL/dw_j += -scale * dL/dy_j (x - w_j) / y_j``
    (summed over the batch; a term with ``y_j = 0``, where the distance has
    no derivative, counts as 0; Torch7 added 1e-7 to every y_j instead).
    reset() draws the centres from U(-1/sqrt(inputSize), 1/sqrt(inputSize)).
    """

    _parameter_names = (("weight", "gradWeight"),)
    _cache_names = ("_plan",)   # the rows' shape per input shape (see host_plan)

    def __init__(self, inputSize, outputSize):
        super().__init__()
        if not all(isinstance(n, (int, np.integer)) and n > 0 for n in (inputSize, outputSize)):
            raise ValueError(f"{type(self).__name__}: sizes must be positive integers, "
                             f"got {inputSize} -> {outputSize}")
        self.weight = np.zeros((inputSize, outputSize))
        self.gradWeight = np.zeros_like(self.weight)
        self._plan = None
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.weight.shape[0]) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        return self

    def _scale(self):
        """Per-centre weights of the coordinates (WeightedEuclidean's diagCov); None: all 1."""
        return None

    def _rows(self, input):
        """input checked, as C-contiguous rows [batch, inputSize]."""
        self._kernels(input)
        check_features(self, input, self.weight.shape[0])
        return array_namespace(input).ascontiguousarray(input).reshape(-1, self.weight.shape[0])

    def _differences(self, input):
        """input checked, and x - w_j for every sample and centre: [batch, inputSize, outputSize]."""
        return self._rows(input)[:, :, None] - self.weight

    def _distances(self, diff, xp=None, out=None):
        """y for the differences [batch, inputSize, outputSize] (into out, [batch, outputSize], when given)."""
        xp = array_namespace(diff) if xp is None else xp
        cov = self._scale()
        scaled = diff if cov is None else diff * cov
        total = xp.einsum("bij,bij->bj", scaled, scaled)
        return xp.sqrt(total) if out is None else xp.sqrt(total, out=out)

    def _backward_terms(self, input, gradOutput):
        """(x - w_j, dL/dy_j / y_j) with the checks; the ratio is 0 where y_j = 0."""
        xp = array_namespace(input)
        diff = self._differences(input)
        shape = input.shape[:-1] + (self.weight.shape[1],)
        check_shape(self, gradOutput, "gradOutput", shape, input.dtype, "the output")
        y = self._distances(diff)
        g = xp.ascontiguousarray(gradOutput).reshape(y.shape)
        ratio = xp.divide(g, y, out=xp.zeros_like(y), where=y != 0)
        return diff, ratio

    def updateOutput(self, input):
        w = self.weight
        rows = host_plan(self, input, (type(w), w.shape, w.dtype), lambda a: self._rows(a).shape)
        if rows is None:   # a device or strided input: the checks and the copy each call
            y = self._distances(self._differences(input))
            self.output = reuse(self.output, input.shape[:-1] + (w.shape[1],), input.dtype, input)
            self.output[...] = y.reshape(self.output.shape)
            return self.output
        # (a C-contiguous host array of a shape seen before, with these centres: checked then; the
        # output's reshape, to itself or with a leading 1, is a view whatever its strides)
        out = self.output = reuse(self.output, input.shape[:-1] + (w.shape[1],), input.dtype, input)
        self._distances(input.reshape(rows)[:, :, None] - w, np, out.reshape(rows[0], w.shape[1]))
        return out

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        diff, ratio = self._backward_terms(input, gradOutput)
        cov = self._scale()
        weighted = diff if cov is None else diff * cov ** 2
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = xp.einsum("bj,bij->bi", ratio, weighted).reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        diff, ratio = self._backward_terms(input, gradOutput)
        cov = self._scale()
        weighted = diff if cov is None else diff * cov ** 2
        self.gradWeight -= scale * xp.einsum("bj,bij->ij", ratio, weighted)
        if cov is not None:
            self.gradDiagCov += scale * xp.einsum("bj,bij->ij", ratio, cov * diff ** 2)

    def __repr__(self):
        n_in, n_out = self.weight.shape
        return f"nn.{type(self).__name__}({n_in} -> {n_out})"

    def _onnx(self, g, x, y):
        """Sqrt of ReduceSumSquare of the differences to the centres"""
        diff = g.op("Sub", [g.op("Unsqueeze", [x, g.ints([-1])]), g.param(self.weight, "weight")])
        if self._scale() is not None:
            diff = g.op("Mul", [diff, g.param(self._scale(), "diagCov")])
        return g.op("Sqrt", [g.op("ReduceSumSquare", [diff, g.ints([-2])], keepdims=0)])
