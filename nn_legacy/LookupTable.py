import numpy as np

import thnn
from thnn.cuda import CudaTensor

from ._helpers.arrays import is_array, reuse
from .Module import Module, normal


class LookupTable(Module):
    """Embedding: each index selects a row of a table, ``y[..., :] = W[x[...], :]``.

    input: 0-based row indices, ``[n]`` or ``[batch, n]`` (an integer array, or
    a float array holding whole numbers, as Torch7 accepted any tensor type);
    output ``[n, nOutput]`` or ``[batch, n, nOutput]``; ``weight`` ``[nIndex,
    nOutput]``, drawn from N(0, stdv^2) (stdv = 1) by reset() as in Torch7.
    An index outside ``[0, nIndex)`` raises.

    Gradient: ``gradWeight[k] += scale * dL/dy[i]`` for every position i with
    ``x[i] == k``, except for ``k == paddingValue`` (default -1: no padding);
    after ``scaleGradByFreq()`` each such term is divided by the number of
    times k occurs in that input.  Indices are not differentiable: gradInput
    is zeros shaped (and typed) as the input.

    ``maxNorm``: every forward first rescales, in place, each row the input
    references (each once) whose ``normType``-norm (default 2; any p > 0 or
    inf) exceeds maxNorm: ``W[k] *= maxNorm / (norm + 1e-7)``, as Torch7 and
    torch.nn.functional.embedding do.

    ``accUpdateOnly()`` drops gradWeight, for training only through
    accUpdateGradParameters (the table is then not listed by parameters()).
    """

    _kernel = "LookupTable"

    _parameter_names = (("weight", "gradWeight"),)

    def __init__(self, nIndex, nOutput, paddingValue=-1, maxNorm=None, normType=None):
        super().__init__()
        if nIndex < 0 or nOutput < 0:
            raise ValueError(f"LookupTable: sizes must be non-negative, got {nIndex} x {nOutput}")
        self.weight = np.zeros((nIndex, nOutput))
        self.gradWeight = np.zeros((nIndex, nOutput))
        self.paddingValue = paddingValue
        self.maxNorm = maxNorm
        self.normType = normType
        self.shouldScaleGradByFreq = False
        self.reset()

    def accUpdateOnly(self):
        self.gradWeight = None
        return self

    def setPadding(self, paddingValue):
        self.paddingValue = paddingValue
        return self

    def setMaxNorm(self, maxNorm):
        self.maxNorm = maxNorm
        return self

    def setNormType(self, normType):
        self.normType = normType
        return self

    def scaleGradByFreq(self):
        self.shouldScaleGradByFreq = True
        return self

    def reset(self, stdv=None):
        stdv = 1 if stdv is None else stdv   # (Torch7's stdv or 1: a container's reset() passes nil)
        self.weight[...] = normal(self.weight.shape, stdv, self.weight.dtype)
        return self

    def _indices(self, input):
        """input as an integer array (whole-number floats are converted)."""
        if not is_array(input):
            raise TypeError(f"LookupTable: input must be an array of indices, got {type(input).__name__}")
        xp = self._xp(input)
        if input.dtype.kind in "iu":
            return input
        if input.dtype.kind != "f":
            raise TypeError(f"LookupTable: input must hold integer indices, got {input.dtype}")
        with np.errstate(invalid="ignore"):
            bad = ~((xp.floor(input) == input) & (xp.abs(input) < 2.0 ** 62))
        if bad.any():
            where = tuple(int(i) for i in xp.argwhere(bad)[0])
            raise ValueError(f"LookupTable: input{list(where)} = {input[where]} is not an integer index")
        return input.astype(np.int64)

    def _backend(self):
        self._owned_parameters()   # (which makes a weight given as a list an array)
        if isinstance(self.weight, CudaTensor):
            return self.weight.device.backend(self.weight.dtype)
        return thnn.backend(self.weight.dtype)

    def renorm(self, input):
        """Rescale the rows input references to norm at most maxNorm (no-op without maxNorm)."""
        if self.maxNorm is None:
            return
        self._backend().LookupTable_renorm(self._indices(input), self.weight, self.maxNorm,
                                           2 if self.normType is None else self.normType)

    def updateOutput(self, input):
        index = self._indices(input)
        self.renorm(index)
        self.output = self._backend().LookupTable_updateOutput(index, self.output, self.weight)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._indices(input)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input)
        self.gradInput.fill(0)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.gradWeight is None:
            raise ValueError("LookupTable: accUpdateOnly() dropped gradWeight; "
                             "train with accUpdateGradParameters / backwardUpdate")
        self._kernel_of(gradOutput, "accGradParameters", "gradOutput")(
            self._indices(input), gradOutput, self.gradWeight, self.shouldScaleGradByFreq,
            -1 if self.paddingValue is None else int(self.paddingValue), scale)

    _t7_version = 4   # Torch7's class version (save_lua writes it)

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup (Torch7 counted rows from 1; 0 was no padding)."""
        fields["paddingValue"] = self.paddingValue + 1

    def _t7_fixup(self, version):
        """A module read from a Torch7 file: its fields as Torch7 left them."""
        # Torch7 counted rows from 1, so its "no padding" 0 is -1 here; nil fields are absent
        self.paddingValue = int(getattr(self, "paddingValue", 0) or 0) - 1
        self.maxNorm = getattr(self, "maxNorm", None)
        self.normType = getattr(self, "normType", None)
        self.shouldScaleGradByFreq = bool(getattr(self, "shouldScaleGradByFreq", False))
        for name in ("_count", "_input", "_gradOutput", "_sorted", "_indices", "copiedInput",
                     "size", "batchSize", "nBackward", "inputs", "accUpdate", "_inputView"):
            self.__dict__.pop(name, None)   # Torch7's work tensors (1-based indices), class versions 2-3's state
        if self.weight.ndim != 2:
            # class versions 2 and 3 (2012-2015) allowed entries of any shape: LookupTable(n, 3, 4)
            raise ValueError(f"LookupTable: entries of shape {list(self.weight.shape[1:])} (Torch7's class version "
                             f"{version} allowed them) are not supported: only vectors are")
        self.gradInput = None

    def _owned_parameters(self):
        return [] if self.gradWeight is None else super()._owned_parameters()

    def _dtype(self):
        return self.weight.dtype

    def __repr__(self):
        extra = ""
        if self.paddingValue is not None and self.paddingValue >= 0:
            extra += f", padding {self.paddingValue}"
        if self.maxNorm is not None:
            extra += f", maxNorm {self.maxNorm:g} (p = {2 if self.normType is None else self.normType:g})"
        return f"nn.LookupTable({self.weight.shape[0]} x {self.weight.shape[1]}{extra})"

    def _onnx(self, g, x, y):
        """Gather (rows over maxNorm rescaled as forward would)"""
        weight = self.weight
        if self.maxNorm is not None:
            p = 2 if self.normType is None else self.normType
            norms = np.linalg.norm(weight.astype(np.float64), ord=p, axis=1)
            scale = np.where(norms > self.maxNorm, self.maxNorm / (norms + 1e-7), 1)
            weight = (weight * scale[:, None]).astype(weight.dtype)
        index = x if x.dtype == np.int64 else g.op("Cast", [x], to=7)
        return g.op("Gather", [g.param(weight, "weight"), index], axis=0)
