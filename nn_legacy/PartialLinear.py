import math
import numpy as np

from ._helpers.arrays import check_features, check_shape, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, normal


class PartialLinear(Module):
    """A Linear layer that can be restricted to a subset of its outputs.

    ``weight`` ``[outputsize, inputsize]`` and ``bias`` ``[1, outputsize]``
    (Torch7's layout; None with ``bias=False``) hold the full layer.  ``setPartition(indices)``
    (0-based output indices, any order, repeats allowed) makes the layer
    compute only those outputs, ``y_r = W[p_r] x + b[0, p_r]`` for
    ``p = indices``; ``resetPartition()`` goes back to all of them.  Input
    ``[inputsize]`` or ``[batch, inputsize]``; output ``[len(p)]`` or
    ``[batch, len(p)]``.  Useful to train on a subset of the outputs and
    evaluate on all of them (e.g. sampled softmax).

    Gradients: ``dL/dx = W[p]^T dL/dy``; ``dL/dW[p_r] += scale * dL/dy_r x^T``
    and ``dL/db[0, p_r] += scale * dL/dy_r`` (summed over the batch, and over
    repeats of an index); the rows outside the partition are untouched.
    Initialisation as Torch7 (whose weight was a LookupTable): W from
    N(0, 1), b zero; ``reset(stdv)`` draws W from N(0, stdv^2) and zeroes b.
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputsize, outputsize, bias=True):
        super().__init__()
        if not all(isinstance(n, (int, np.integer)) and n > 0 for n in (inputsize, outputsize)):
            raise ValueError(f"PartialLinear: sizes must be positive integers, got {inputsize} -> {outputsize}")
        self.weight = np.zeros((outputsize, inputsize))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros((1, outputsize)) if bias else None
        self.gradBias = np.zeros((1, outputsize)) if bias else None
        self.resetPartition()
        self.reset()

    def reset(self, stdv=None):
        stdv = 1.0 if stdv is None else stdv
        self.weight[...] = normal(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias.fill(0)
        return self

    def setPartition(self, indices):
        xp = array_namespace(indices)
        indices = xp.asarray(indices)
        n = self.weight.shape[0]
        if indices.ndim != 1 or (indices.size and indices.dtype.kind not in "iu"):
            raise ValueError(f"PartialLinear: indices must be a 1D array of integers, "
                             f"got {indices.ndim}D of {indices.dtype}")
        bad = (indices < 0) | (indices >= n)
        if bad.any():
            i = int(xp.argmax(bad))
            raise ValueError(f"PartialLinear: index {int(indices[i])} at position {i} is out of range [0, {n})")
        self.partition = indices.astype(np.int64)
        return self

    def resetPartition(self):
        self.partition = np.arange(self.weight.shape[0], dtype=np.int64)
        return self

    def _rows(self, input, gradOutput=None):
        """input (and gradOutput) as 2D batches, checked."""
        xp = array_namespace(input)
        self._kernels(input)
        check_features(self, input, self.weight.shape[1])
        x = xp.ascontiguousarray(input).reshape(int(math.prod(input.shape[:-1])), self.weight.shape[1])
        if gradOutput is None:
            return x
        shape = input.shape[:-1] + (self.partition.size,)
        check_shape(self, gradOutput, "gradOutput", shape, input.dtype, "the output")
        return x, xp.ascontiguousarray(gradOutput).reshape(x.shape[0], self.partition.size)

    def updateOutput(self, input):
        xp = array_namespace(input)
        x = self._rows(input)
        self.output = reuse(self.output, input.shape[:-1] + (self.partition.size,), input.dtype, input)
        out = self.output.reshape(x.shape[0], self.partition.size)
        xp.matmul(x, self.weight[self.partition].T, out=out)
        if self.bias is not None:
            out += self.bias[0, self.partition]
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        x, g = self._rows(input, gradOutput)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.matmul(g, self.weight[self.partition], out=self.gradInput.reshape(x.shape))
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        x, g = self._rows(input, gradOutput)
        xp.add.at(self.gradWeight, self.partition, scale * (g.T @ x))
        if self.bias is not None:
            xp.add.at(self.gradBias[0], self.partition, scale * g.sum(axis=0))

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup (Torch7's network, sizes, 1-based columns)."""
        from .Identity import Identity
        from .LookupTable import LookupTable
        from .MM import MM
        from .ParallelTable import ParallelTable
        from .Sequential import Sequential
        n_out, n_in = self.weight.shape
        lookup = LookupTable(n_out, n_in)
        lookup.weight, lookup.gradWeight = self.weight, self.gradWeight
        fields["network"] = Sequential().add(ParallelTable().add(Identity()).add(lookup)).add(MM(False, True))
        fields.pop("weight", None)
        fields.pop("gradWeight", None)
        fields["inputsize"], fields["outputsize"] = n_in, n_out
        fields["allcolumns"] = np.arange(1.0, n_out + 1)
        fields["partition"] = np.asarray(self.partition, dtype=np.float64) + 1

    def _t7_fixup(self, version):
        """Torch7's PartialLinear kept its weight in a LookupTable inside
        ``network`` (ParallelTable{Identity, LookupTable} then MM), its bias
        as [1, outputsize] and its partition as 1-based indices."""
        network = vars(self).pop("network")
        lookup = network.modules[0].modules[1]
        self.weight = lookup.weight
        self.gradWeight = np.zeros_like(self.weight)
        if self.bias is not None:
            self.bias = np.ascontiguousarray(self.bias).reshape(1, -1)   # [1, outputsize], as here
            self.gradBias = np.zeros_like(self.bias)
        partition = getattr(self, "partition", None)
        if partition is None:
            self.resetPartition()
        else:
            self.setPartition(np.asarray(partition).astype(np.int64).reshape(-1) - 1)
        for name in ("allcolumns", "inputsize", "outputsize", "buffer", "addBuffer"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        n_out, n_in = self.weight.shape
        return f"nn.PartialLinear({n_in} -> {n_out}{'' if self.bias is not None else ', without bias'})"

    def _onnx(self, g, x, y):
        """Gemm over the partition's rows"""
        weight = g.param(self.weight[self.partition], "weight")
        bias = None if self.bias is None else g.param(self.bias.reshape(-1)[self.partition], "bias")
        return g.with_batch(x, 2, lambda v: g.op("Gemm", [v, weight, bias], transB=1))
