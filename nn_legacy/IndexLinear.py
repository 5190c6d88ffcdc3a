import math

import numpy as np

from ._helpers.arrays import is_array
from ._helpers.namespace import array_namespace
from .Module import Module, uniform


class IndexLinear(Module):
    """Affine map of sparse (key, value) input, Torch7's IndexLinear:
    ``y[j] = b + sum of v * W[k + keysOffset]`` over the pairs (k, v) of
    sample j.  ``weight`` is ``[inputSize, outputSize]``: one row per
    feature (the transpose of Linear's layout); ``bias`` ``[outputSize]``.
    Both start at 0, as in Torch7; reset() draws W from U(-s, s) with
    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    s = 1/sqrt(weight.shape[1]) and b from the same times 1e-6.

    input (keys 0-based, integer arrays; values float arrays of the module's
    dtype; key k uses row ``k + keysOffset``, which must lie in
    ``[0, inputSize)``):

    - ``(keys, values)``, two 1D arrays: one sample; output ``[outputSize]``;
    - ``([keys_0, keys_1, ...], [values_0, values_1, ...])``: a batch, one
      pair of 1D arrays per sample; output ``[batch, outputSize]``;
    - ``(keys, values, sizes)``: a batch laid flat, the samples' keys and
      values one after the other and ``sizes[j]`` of them for sample j (an
      int for a single size); output ``[len(sizes), outputSize]``.

    ``normalize=True`` (max-normalisation): weight has 4 more leading
    columns, ``[inputSize, 4 + outputSize]``, holding per feature the largest
    |v| seen in training, its inverse, an update scale (set to 1 when the
    feature is seen in training) and a feature bias c; each value becomes
    ``u = v / max + c`` (``sign(v) + c`` when |v| exceeds the max, which only
    happens outside training) and u takes v's place above.

    Gradients are kept as Torch7 kept them, never as a dense array the size
    of weight: each accGradParameters stores, for every pair, the row
    ``scale * u * dL/dy[j]`` (and, normalized, ``scale * dL/dy[j]`` for c)
    with its key.  updateParameters(lr) applies the stored rows to the rows
    they name, ``W[k] -= lr * row`` and ``c_k -= lr * sum_o row_c[o] W[k, 4 + o]``
    (normalized: lr times the feature's update scale), with a sparse weight
    decay ``W[k] -= weightDecay * W[k]`` (attribute, default 0) for each pair
    naming the row; zeroGradParameters drops them.  All c steps use the
    weights from before the step (Torch7 interleaved them with the weight
    steps, so a key repeated in a batch did not get the gradient step).
    accUpdateGradParameters does the same step at once.  gradBias is dense as usual.  ``gradWeight``
    is the dense equivalent of the stored rows, computed on access and
    read-only (for inspection and gradient checks); so inside a container
    use the module's own zeroGradParameters / updateParameters, or
    accUpdateGradParameters.

    gradInput (``doGradInput=True``, not with normalize): the dense
    ``dL/dx = W dL/dy`` for every feature, as (keys, values) in the input's
    form: keys are all ``inputSize`` keys; with flat input, ``[batch,
    inputSize]`` arrays.  Without doGradInput it is an empty list.
    accGradParameters, accUpdateGradParameters and updateGradInput use the
    pairs of the last forward, as in Torch7.
    """

    _kernel = "IndexLinear"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("normalizedValues", "keys", "values", "sizes")

    def __init__(self, inputSize, outputSize, doGradInput=False, keysOffset=0, weight=None, bias=None,
                 normalize=False):
        super().__init__()
        self.normalize = 4 if normalize else 0
        if normalize and doGradInput:
            raise ValueError("IndexLinear: doGradInput is not available with normalize (nor was it in Torch7)")
        if inputSize < 0 or outputSize < 0:
            raise ValueError(f"IndexLinear: sizes must be non-negative, got {inputSize} -> {outputSize}")
        self.weight = np.zeros((inputSize, outputSize + self.normalize)) if weight is None else weight
        self.bias = np.zeros(outputSize) if bias is None else bias
        expected = (self.weight.shape[0], self.bias.shape[0] + self.normalize)
        if self.weight.ndim != 2 or self.bias.ndim != 1 or self.weight.shape != expected:
            raise ValueError(f"IndexLinear: weight must be [inputSize, {'4 + ' if normalize else ''}outputSize] "
                             f"for bias [outputSize], got {list(self.weight.shape)} and {list(self.bias.shape)}")
        self.gradBias = np.zeros_like(self.bias)
        self.weightDecay = 0
        self.doGradInput = bool(doGradInput)
        self.keysOffset = int(keysOffset)
        self.normalizedValues = None
        self.keys = self.values = self.sizes = None   # the pairs of the last forward
        self._noBatch = self._isFlat = False
        self._runningKeys, self._runningGradWeight = [], []   # one entry per accGradParameters
        self._gradWeightBuffers = []

    def _bare(self):
        """True while load_lua fills an instance made without __init__ (the
        running state is not there yet): it then sets Torch7's fields, some
        of which are derived here and are ignored (see _t7_fixup)."""
        return "_runningKeys" not in vars(self)

    @property
    def inputSize(self):
        return self.weight.shape[0]

    @inputSize.setter
    def inputSize(self, value):
        if not self._bare():
            raise AttributeError("IndexLinear: inputSize is weight.shape[0]")

    @property
    def outputSize(self):
        return self.bias.shape[0]

    @outputSize.setter
    def outputSize(self, value):
        if not self._bare():
            raise AttributeError("IndexLinear: outputSize is bias.shape[0]")

    def reset(self, stdv=None):
        stdv = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(max(self.weight.shape[1], 1))
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype) * 1e-6
        self.weight[:, :self.normalize] = 0
        return self

    # ---- input forms ----
    def _keys(self, k, name):
        if not is_array(k) or k.dtype.kind not in "iu":
            what = k.dtype if is_array(k) else type(k).__name__
            raise TypeError(f"IndexLinear: {name} must be an integer array, got {what}")
        if k.ndim != 1:
            raise ValueError(f"IndexLinear: {name} must be 1D, got shape {list(k.shape)}")
        return k.astype(np.int64, copy=False)

    def _values(self, v, name, n):
        if not is_array(v):
            raise TypeError(f"IndexLinear: {name} must be an array, got {type(v).__name__}")
        kernels = self._kernels(v, name)
        if v.shape != (n,):
            raise ValueError(f"IndexLinear: {name} must be 1D [{n}] like its keys, got shape {list(v.shape)}")
        return kernels

    def _flatten(self, input):
        """Store the input as flat keys, values and sizes; the kernels."""
        if not isinstance(input, (list, tuple)) or len(input) not in (2, 3):
            raise TypeError("IndexLinear: input must be (keys, values), ([keys...], [values...]) or "
                            f"(keys, values, sizes), got {type(input).__name__}"
                            + (f" of length {len(input)}" if isinstance(input, (list, tuple)) else ""))
        xp = array_namespace(input)
        if len(input) == 3:
            keys = self._keys(input[0], "keys")
            kernels = self._values(input[1], "values", keys.shape[0])
            sizes = xp.asarray([input[2]]) if np.isscalar(input[2]) else input[2]
            self.keys, self.values, self.sizes = keys, input[1], self._keys(sizes, "sizes")
            self._isFlat, self._noBatch = True, False
        elif isinstance(input[0], (list, tuple)) and isinstance(input[1], (list, tuple)):
            if len(input[0]) != len(input[1]):
                raise ValueError(f"IndexLinear: {len(input[0])} key arrays but {len(input[1])} value arrays")
            keys = [self._keys(k, f"keys[{j}]") for j, k in enumerate(input[0])]
            kernels = None
            for j, (k, v) in enumerate(zip(keys, input[1])):
                kernels = self._values(v, f"values[{j}]", k.shape[0])
            self.keys = xp.concatenate(keys) if keys else xp.zeros(0, dtype=np.int64)
            self.values = xp.concatenate(input[1]) if keys else xp.zeros(0, dtype=self.weight.dtype)
            self.sizes = xp.asarray([k.shape[0] for k in keys], dtype=np.int64)
            self._isFlat, self._noBatch = False, False
            kernels = kernels or self._kernels(self.values, "values")
        else:
            keys = self._keys(input[0], "keys")
            kernels = self._values(input[1], "values", keys.shape[0])
            self.keys, self.values, self.sizes = keys, input[1], xp.asarray([keys.shape[0]], dtype=np.int64)
            self._isFlat, self._noBatch = False, True
        return kernels

    def _forward_values(self):
        """The values the gradients use: the normalized ones with normalize."""
        return self.normalizedValues if self.normalize else self.values

    def _gradOutput2d(self, gradOutput):
        if self.keys is None:
            raise ValueError("IndexLinear: call forward before the backward verbs")
        kernels = self._kernels(gradOutput, "gradOutput")
        expected = [self.outputSize] if self._noBatch else [self.sizes.shape[0], self.outputSize]
        if list(gradOutput.shape) != expected:
            raise ValueError(f"IndexLinear: gradOutput must be of shape {expected}, got {list(gradOutput.shape)}")
        return kernels, gradOutput.reshape(1, -1) if self._noBatch else gradOutput

    # ---- the verbs ----
    def updateOutput(self, input):
        kernels = self._flatten(input)
        previous = self.output
        if self._noBatch:
            previous = previous.reshape(1, previous.shape[0]) if is_array(previous) and previous.ndim == 1 \
                else None
        out, self.normalizedValues = kernels.IndexLinear_updateOutput(
            self.keys, self.keysOffset, self.values, self.sizes, previous, self.weight, self.bias,
            self.normalizedValues, self.train)
        if out is not previous:
            self.output = out.reshape(out.shape[1]) if self._noBatch else out
        return self.output

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels, g = self._gradOutput2d(gradOutput)
        n = len(self._runningKeys)
        buffer = self._gradWeightBuffers[n] if n < len(self._gradWeightBuffers) else None
        buffer = kernels.IndexLinear_accGradParameters(
            self.keys, self.keysOffset, self._forward_values(), self.sizes, g, buffer, self.gradBias,
            self.weight, self.bias, scale)
        if n < len(self._gradWeightBuffers):
            self._gradWeightBuffers[n] = buffer
        else:
            self._gradWeightBuffers.append(buffer)
        self._runningKeys.append(self.keys.copy())
        self._runningGradWeight.append(buffer)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        kernels, g = self._gradOutput2d(gradOutput)
        kernels.IndexLinear_accUpdateGradParameters(
            self.keys, self.keysOffset, self._forward_values(), self.sizes, g, self.weight, self.bias,
            self.weightDecay, lr)

    def updateGradInput(self, input, gradOutput):
        if not self.doGradInput:
            self.gradInput = []
            return self.gradInput
        if self.normalize:
            raise NotImplementedError("IndexLinear: updateGradInput is not implemented with normalize "
                                      "(nor was it in Torch7)")
        _, g = self._gradOutput2d(gradOutput)
        xp = array_namespace(g)
        dense = g @ self.weight.T  # [batch, inputSize]
        keys = xp.arange(self.inputSize, dtype=np.int64) - self.keysOffset
        if self._noBatch:
            self.gradInput = [keys, dense[0]]
        elif self._isFlat:
            self.gradInput = [xp.tile(keys, (dense.shape[0], 1)), dense]
        else:
            self.gradInput = [[keys.copy() for _ in dense], list(dense)]
        return self.gradInput

    def updateParameters(self, learningRate):
        kernels = self._kernels(self.bias, "bias")
        width = self.outputSize * (2 if self.normalize else 1)
        xp = array_namespace(self.weight)
        keys = xp.concatenate(self._runningKeys) if self._runningKeys else xp.zeros(0, dtype=np.int64)
        grads = xp.concatenate(self._runningGradWeight) if self._runningGradWeight \
            else xp.zeros((0, width), dtype=self.weight.dtype)
        kernels.IndexLinear_updateParameters(grads, self.gradBias, self.weight, self.bias, keys,
                                             self.keysOffset, self.weightDecay, learningRate)

    def zeroGradParameters(self):
        self.gradBias.fill(0)
        self._runningKeys, self._runningGradWeight = [], []

    # ---- the dense view of the gradient ----
    @property
    def gradWeight(self):
        xp = array_namespace(self.weight)
        dense = xp.zeros_like(self.weight)
        n_out, first = self.outputSize, self.normalize
        for keys, rows in zip(self._runningKeys, self._runningGradWeight):
            r = keys + self.keysOffset
            xp.add.at(dense[:, first:], r, rows[:, rows.shape[1] - n_out:])
            if self.normalize:
                xp.add.at(dense[:, 3], r, xp.einsum("io,io->i", rows[:, :n_out], self.weight[r, 4:]))
        if xp is np:   # (a device tensor cannot be made read-only)
            dense.flags.writeable = False
        return dense

    @gradWeight.setter
    def gradWeight(self, value):
        if self._bare():
            return  # Torch7's own gradWeight field: an empty tensor
        raise AttributeError("IndexLinear keeps its weight gradient as per-key rows (Torch7's design); "
                             "gradWeight is a read-only dense view and cannot be assigned or flattened")

    def _t7_fixup(self, version):
        """A module read from a Torch7 file: Torch7 stored keysOffset - 1 as
        `offset` (turning its 1-based keys into 0-based rows), so 0-based keys
        need keysOffset = offset + 1; its running state holds 1-based keys
        and is dropped, like the other work tensors."""
        self.keysOffset = int(getattr(self, "offset", -1)) + 1
        self.normalize = 4 if getattr(self, "normalize", 0) else 0
        self.weightDecay = getattr(self, "weightDecay", 0) or 0
        self.doGradInput = bool(getattr(self, "doGradInput", False)) and not self.normalize
        for name in ("offset", "running", "sizesCache", "cumSumSizesCache", "gradWeightBuffer", "valuesBuffer",
                     "lkeys", "lvalues", "isFlat", "noBatch", "cumSumSizes", "updateKeys", "updateKeysBuffer",
                     "zerokeys"):
            self.__dict__.pop(name, None)
        self.keys = self.values = self.sizes = self.normalizedValues = self.gradInput = None
        self._noBatch = self._isFlat = False
        self._runningKeys, self._runningGradWeight, self._gradWeightBuffers = [], [], []

    def _dtype(self):
        return self.weight.dtype  # not through parameters(): that would build the dense gradient

    def clearState(self):
        super().clearState()
        self._gradWeightBuffers = []
        return self

    def __repr__(self):
        return (f"nn.IndexLinear({self.inputSize} -> {self.outputSize}"
                f"{', normalized' if self.normalize else ''})")

    _onnx_unsupported = "its batch is laid flat, samples of their own lengths told apart by a sizes table"
