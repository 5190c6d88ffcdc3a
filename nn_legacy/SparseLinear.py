import math

import numpy as np

from ._helpers.arrays import is_array, reuse
from ._helpers.namespace import array_namespace
from .Module import Module, uniform

# Torch7's states for the sparse updates: what gradWeight holds since the last zeroGradParameters
_NO_LAST_INPUT, _ONE_LAST_INPUT, _ACC_MULTIPLE_TIMES = 0, 1, 2


class SparseLinear(Module):
    """Affine map of a sparse input given by its nonzeros: ``y = W x + b``,
    that is ``y[h] = b + sum of v * W[:, k]`` over the (feature k, value v)
    pairs of sample h.  Features are 0-based; pairs whose value is 0 are
    skipped.

    input, as in Torch7 (the pairs are rows of float arrays of the module's
    dtype, features stored as whole numbers):

    - ``[nnz, 2]``: one sample; output ``[nOut]``;
    - ``[batch, nnz, 2]``: a batch, nnz pairs per sample (Torch7's "legacy"
      layout); output ``[batch, nOut]``;
    - a list of ``[nnz_i, 2]`` arrays: a batch whose samples have their own
      number of pairs; output ``[len(list), nOut]``.

    ``weight`` ``[nOut, nIn]`` and ``bias`` ``[nOut]``; reset() draws W from
    U(-1/sqrt(nIn), 1/sqrt(nIn)) and b from the same times 1e-6, as Torch7.

    Gradients: ``dL/dW[:, k] += scale * v * dL/dy[h]`` per pair,
    ``dL/db += scale * sum_h dL/dy[h]``, and ``weightDecay * W`` (attribute,
    default 0, not scaled) added to all of gradWeight.  gradInput, only with
    ``doGradInput=True``, is the dense ``dL/dx = W^T dL/dy`` in the pair
    format: for each sample the nIn rows ``(k, dL/dx_k)`` (an array
    ``[batch, nIn, 2]``, a list of ``[nIn, 2]`` arrays or one ``[nIn, 2]``
    array, following the input); the gradient w.r.t. the value of a pair
    (k, v) is the entry of row k.  Without doGradInput it is zeros shaped as
    an array input, or an empty list.

    Sparse updates (Torch7): when exactly one accGradParameters ran since
    the last zeroGradParameters, and no forward since, gradWeight is zero
    outside the columns of the features that input had nonzero values for,
    so updateParameters and zeroGradParameters touch only those columns
    (and all of the bias); otherwise they run dense.
    """

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    _kernel = "SparseLinear"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputSize, outputSize, doGradInput=False):
        super().__init__()
        if inputSize < 0 or outputSize < 0:
            raise ValueError(f"SparseLinear: sizes must be non-negative, got {inputSize} -> {outputSize}")
        self.weightDecay = 0
        self.doGradInput = bool(doGradInput)
        self.weight = np.zeros((outputSize, inputSize))
        self.bias = np.zeros(outputSize)
        self.gradWeight = np.zeros((outputSize, inputSize))
        self.gradBias = np.zeros(outputSize)
        self.lastInput = None
        self.legacyMode = False
        self.sparseUpdate = _NO_LAST_INPUT
        self.formatted_input = None
        self.reset()

    def reset(self, stdv=None):
        stdv = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(max(self.weight.shape[1], 1))
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype) * 1e-6
        return self

    # ---- input forms ----
    def _pairs(self, x, name):
        """A float array of (feature, value) rows, checked against the module."""
        if not is_array(x):
            raise TypeError(f"SparseLinear: {name} must be an array of (feature, value) rows, "
                            f"got {type(x).__name__}")
        kernels = self._kernels(x, name)
        if x.ndim != 2 or x.shape[1] != 2:
            raise ValueError(f"SparseLinear: {name} must be 2D [nnz, 2] (feature, value) rows, "
                             f"got shape {list(x.shape)}")
        return kernels

    def _format(self, input):
        """(kernels, legacy, single, array for the kernel, batch size).  A
        list or a single [nnz, 2] sample becomes Torch7's COO rows
        (sample, feature, value) in formatted_input."""
        if is_array(input) and input.ndim == 3:
            return self._kernels(input), True, False, input, input.shape[0]
        if is_array(input):
            samples, single = [input], True
            if input.ndim != 2:
                raise ValueError(f"SparseLinear: input must be [nnz, 2], [batch, nnz, 2] or a list of "
                                 f"[nnz, 2] arrays, got shape {list(input.shape)}")
        elif isinstance(input, (list, tuple)):
            samples, single = list(input), False
        else:
            raise TypeError(f"SparseLinear: input must be an array or a list of arrays, "
                            f"got {type(input).__name__}")
        kernels = None
        for i, x in enumerate(samples):
            kernels = self._pairs(x, "input" if single else f"input[{i}]")
        total = sum(x.shape[0] for x in samples)
        self.formatted_input = reuse(self.formatted_input, (total, 3), self.weight.dtype, self.weight, *samples)
        start = 0
        for h, x in enumerate(samples):
            rows = self.formatted_input[start:start + x.shape[0]]
            rows[:, 0] = h
            rows[:, 1:] = x
            start += x.shape[0]
        if kernels is None:  # an empty batch
            kernels = self._kernels(self.formatted_input)
        return kernels, False, single, self.formatted_input, len(samples)

    @staticmethod
    def _as_row(a):
        """The 2D [1, n] view of a 1D array (None stays None)."""
        return a.reshape(1, a.shape[0]) if is_array(a) and a.ndim == 1 else None

    # ---- the verbs ----
    def updateOutput(self, input):
        if self.sparseUpdate == _ONE_LAST_INPUT:
            self.sparseUpdate = _ACC_MULTIPLE_TIMES
        kernels, self.legacyMode, single, data, batch = self._format(input)
        if self.legacyMode:
            self.output = kernels.SparseLinear_legacyUpdateOutput(data, self.output, self.weight, self.bias)
        elif single:
            previous = self._as_row(self.output)
            out = kernels.SparseLinear_updateOutput(data, previous, self.weight, self.bias, 1)
            self.output = self.output if out is previous else out.reshape(out.shape[1])
        else:
            out = self.output if is_array(self.output) and self.output.ndim == 2 else None
            self.output = kernels.SparseLinear_updateOutput(data, out, self.weight, self.bias, batch)
        return self.output

    def _gradOutput2d(self, input, gradOutput):
        """gradOutput as [batch, nOut] for the kernels, checked against input."""
        kernels = self._kernels(gradOutput, "gradOutput")
        n_out = self.weight.shape[0]
        single = is_array(input) and input.ndim == 2
        batch = None if single else (input.shape[0] if is_array(input) else len(input))
        expected = [n_out] if single else [batch, n_out]
        if list(gradOutput.shape) != expected:
            raise ValueError(f"SparseLinear: gradOutput must be of shape {expected}, got {list(gradOutput.shape)}")
        return kernels, gradOutput.reshape(1, n_out) if single else gradOutput

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels, self.legacyMode, _, data, _ = self._format(input)
        kernels, g = self._gradOutput2d(input, gradOutput)
        if self.sparseUpdate == _NO_LAST_INPUT:
            self.lastInput = data.copy()
            self.sparseUpdate = _ONE_LAST_INPUT
        elif self.sparseUpdate == _ONE_LAST_INPUT:
            self.sparseUpdate = _ACC_MULTIPLE_TIMES
        verb = kernels.SparseLinear_legacyAccGradParameters if self.legacyMode \
            else kernels.SparseLinear_accGradParameters
        verb(data, g, self.gradWeight, self.gradBias, self.weight, self.bias, self.weightDecay, scale)

    def updateGradInput(self, input, gradOutput):
        if not self.doGradInput:
            if is_array(input):
                self.gradInput = self._zeros_like(self.gradInput, input.shape)
                self.gradInput.fill(0)
            else:
                self.gradInput = []
            return self.gradInput
        _, g = self._gradOutput2d(input, gradOutput)
        # numpy's matmul rounds differently for strided operands: contiguous
        # gradOutput gives every memory layout the same gradInput
        xp = array_namespace(g)
        dense = xp.ascontiguousarray(g) @ self.weight  # [batch, nIn]
        n_in = self.weight.shape[1]
        if is_array(input):
            shape = (input.shape[0], n_in, 2) if input.ndim == 3 else (n_in, 2)
            self.gradInput = self._zeros_like(self.gradInput, shape)
            self.gradInput[..., 0] = xp.arange(n_in)
            self.gradInput[..., 1] = dense if input.ndim == 3 else dense[0]
        else:
            self.gradInput = [xp.stack([xp.arange(n_in, dtype=dense.dtype), row], axis=1) for row in dense]
        return self.gradInput

    def _zeros_like(self, current, shape):
        """current if it is an array of this shape and the module's dtype (and place), else a new one."""
        if is_array(current) and current.shape == tuple(shape) and current.dtype == self.weight.dtype \
                and array_namespace(current) is array_namespace(self.weight):
            return current
        return array_namespace(self.weight).zeros(shape, dtype=self.weight.dtype)

    # ---- sparse updates ----
    def _sparse_ready(self):
        """True when gradWeight is known to be zero outside lastInput's columns.
        A weight decay fills every column, so it forces the dense path (Torch7
        took the sparse one anyway and kept stale decay in the other columns)."""
        return self.lastInput is not None and self.sparseUpdate == _ONE_LAST_INPUT and self.weightDecay == 0

    def updateParameters(self, learningRate):
        if self._sparse_ready():
            kernels = self._kernels(self.lastInput, "lastInput")
            verb = kernels.SparseLinear_legacyUpdateParameters if self.legacyMode \
                else kernels.SparseLinear_updateParameters
            verb(self.weight, self.bias, self.gradWeight, self.gradBias, self.lastInput, learningRate)
        else:
            super().updateParameters(learningRate)

    def zeroGradParameters(self):
        if self._sparse_ready():
            kernels = self._kernels(self.lastInput, "lastInput")
            verb = kernels.SparseLinear_legacyZeroGradParameters if self.legacyMode \
                else kernels.SparseLinear_zeroGradParameters
            verb(self.gradWeight, self.gradBias, self.lastInput)
        else:
            super().zeroGradParameters()
        self.sparseUpdate = _NO_LAST_INPUT

    def clearState(self):
        super().clearState()
        self.lastInput = None
        self.formatted_input = None  # without lastInput the next updates run dense
        return self

    def _t7_fixup(self, version):
        """A module read from a Torch7 file: its lastInput holds 1-based
        indices and must not drive a sparse update; nil fields are absent."""
        self.weightDecay = getattr(self, "weightDecay", 0) or 0
        self.doGradInput = bool(getattr(self, "doGradInput", False))
        self.lastInput = self.formatted_input = self.gradInput = None
        self.legacyMode = False
        self.sparseUpdate = _NO_LAST_INPUT

    def __repr__(self):
        n_out, n_in = self.weight.shape
        return f"nn.SparseLinear({n_in} -> {n_out})"

    def _onnx(self, g, x, y):
        """Gather of the weight's columns by the pairs' features, Mul by their values, ReduceSum, Add"""
        columns = g.param(np.ascontiguousarray(self.weight.T), "weight")

        def sample_sums(pairs):   # pairs [..., nnz, 2] -> [..., nOut]
            features = g.op("Cast", [g.op("Gather", [pairs, np.array(0, dtype=np.int64)], axis=-1)], to=7)
            values = g.slice(pairs, pairs.ndim - 1, 1, 2)
            picked = g.op("Mul", [g.op("Gather", [columns, features], axis=0), values])
            return g.op("Add", [g.op("ReduceSum", [picked, g.ints([-2])], keepdims=0), g.param(self.bias, "bias")])
        if isinstance(x, list):   # samples with their own number of pairs: one row each
            rows = [g.op("Unsqueeze", [sample_sums(pairs), g.ints([0])]) for pairs in x]
            return g.op("Concat", rows, axis=0)
        return sample_sums(x)

