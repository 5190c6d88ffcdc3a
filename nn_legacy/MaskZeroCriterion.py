import math
import numpy as np

from thnn.cuda import CudaTensor

from ._helpers.arrays import describe, is_array
from ._helpers.namespace import array_namespace
from ._bases.recurrent import first_array
from .Criterion import Criterion


class MaskZeroCriterion(Criterion):
    """A criterion that leaves out the samples whose input is all zeros (the
    rnn package's MaskZeroCriterion: padded steps of variable-length
    sequences add nothing to the loss).

    The mask comes from the first array of the input (the first entry of a
    table, recursively), whose first dim is the batch: with ``nInputDim``
    dims per sample it must have ``nInputDim + 1`` (one sample alone is
    refused, as in the rnn package); ``nInputDim=None`` takes whatever
    follows the batch dim (torch/rnn's rule).  Sample b is masked when that
    array's row b is all zeros.  The decorated criterion sees only the
    other rows of the input and of the target (every array of a table,
    along its first dim), so its averages are over them::

        loss = criterion(input[kept], target[kept])      (0 when every sample is masked)
        gradInput[kept] = its gradient,  gradInput[masked] = 0

    ``setZeroMask(mask)`` gives the mask instead (a ``[batch]`` array, True
    or nonzero: masked; torch/rnn's MaskZero modules hand it on), ``False``
    turns masking off (the criterion sees everything), ``None`` goes back to
    the rule above.
    """

    def __init__(self, criterion, nInputDim=None):
        super().__init__()
        if not isinstance(criterion, Criterion):
            raise TypeError(f"MaskZeroCriterion: criterion must be a Criterion, got {type(criterion).__name__}")
        if nInputDim is not None and (not isinstance(nInputDim, (int, np.integer)) or isinstance(nInputDim, bool)
                                      or nInputDim < 1):
            raise ValueError(f"MaskZeroCriterion: nInputDim must be a positive integer or None, got {nInputDim!r}")
        self.criterion = criterion
        self.nInputDim = None if nInputDim is None else int(nInputDim)
        self.zeroMask = None
        self._kept = None

    def _t7_fixup(self, version):
        """Element-Research: nInputDim.  torch/rnn (v2): no nInputDim, the
        mask handed on by setZeroMask; loaded, it takes the mask from the
        input's rows until setZeroMask says otherwise.  The mask a file holds
        is the last batch's (Element-Research's, its kept rows' indices):
        dropped."""
        if not isinstance(vars(self).get("criterion"), Criterion):
            from ._helpers.lua import T7Error
            raise T7Error("nn.MaskZeroCriterion: the file's criterion field holds no criterion")
        n = vars(self).get("nInputDim")
        self.nInputDim = int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) and n >= 1 else None
        self.zeroMask = None
        for name in ("_zeroMask", "__zeroMask", "input", "target", "_gradInput", "_oneMask", "_range", "_indices",
                     "isEmptyBatch", "v2"):
            vars(self).pop(name, None)
        self._kept = None
        self.output, self.gradInput = 0.0, None

    def setZeroMask(self, zeroMask):
        if zeroMask is not None and zeroMask is not False:
            if not is_array(zeroMask) or zeroMask.ndim != 1:
                raise ValueError(f"MaskZeroCriterion: zeroMask must be an array [batch], False or None, got "
                                 f"{describe(zeroMask) if is_array(zeroMask) else type(zeroMask).__name__}")
            zeroMask = zeroMask != 0
        self.zeroMask = zeroMask

    def _kept_rows(self, input):
        """The rows to keep (a bool array [batch]), or None: keep everything."""
        if self.zeroMask is False:
            return None
        x = first_array(input)
        if not is_array(x):
            raise TypeError(f"MaskZeroCriterion: the input's first array must be an array, got {type(x).__name__}")
        if self.nInputDim is not None and x.ndim != self.nInputDim + 1:
            one = " (one sample without its batch dim is not supported)" if x.ndim == self.nInputDim else ""
            raise ValueError(f"MaskZeroCriterion: the input's first array must be a batch of nInputDim="
                             f"{self.nInputDim} dims per sample ({self.nInputDim + 1}D){one}, got {describe(x)}")
        if x.ndim < 1:
            raise ValueError("MaskZeroCriterion: the input's first array must have a batch dim, got a scalar")
        if self.zeroMask is not None:
            if self.zeroMask.shape != (x.shape[0],):
                raise ValueError(f"MaskZeroCriterion: zeroMask has {self.zeroMask.shape[0]} entries, the batch "
                                 f"{x.shape[0]} samples")
            return ~self.zeroMask
        xp = array_namespace(x)
        return xp.any(x.reshape(x.shape[0], int(math.prod(x.shape[1:]))) != 0, axis=1)

    def _rows(self, value, kept, name):
        if isinstance(value, (list, tuple)):
            return [self._rows(v, kept, name) for v in value]
        if not is_array(value) or value.ndim < 1 or value.shape[0] != kept.shape[0]:
            got = describe(value) if is_array(value) else type(value).__name__
            raise ValueError(f"MaskZeroCriterion: every array of the {name} must have the batch of "
                             f"{kept.shape[0]} samples first, got {got}")
        return value[_beside(kept, value)]

    def updateOutput(self, input, target):
        kept = self._kept_rows(input)
        self._kept = kept
        if kept is None:
            self.output = float(self.criterion.updateOutput(input, target))
        elif not bool(kept.any()):
            self.output = 0.0     # every sample masked: no loss (rnn issue 128)
        else:
            self.output = float(self.criterion.updateOutput(self._rows(input, kept, "input"),
                                                            self._rows(target, kept, "target")))
        return self.output

    def updateGradInput(self, input, target):
        kept = self._kept_rows(input)
        if kept is None:
            self.gradInput = self.criterion.updateGradInput(input, target)
            return self.gradInput
        grad = None
        if bool(kept.any()):
            grad = self.criterion.updateGradInput(self._rows(input, kept, "input"), self._rows(target, kept, "target"))
        self.gradInput = _scatter(self.gradInput, input, kept, grad)
        return self.gradInput

    def type(self, dtype=None, _memo=None):
        if dtype is not None:
            self._kept = None
        return super().type(dtype, _memo)

    def clearState(self):
        self._kept = None
        self.criterion.clearState()
        return super().clearState()

    def __repr__(self):
        return f"nn.MaskZeroCriterion({self.criterion!r})"


def _scatter(buffer, like, kept, grad):
    """Zeros laid out as like (into buffer when it fits), grad's rows put at kept."""
    if isinstance(like, (list, tuple)):
        buffer = buffer if isinstance(buffer, list) and len(buffer) == len(like) else [None] * len(like)
        return [_scatter(b, x, kept, None if grad is None else grad[i]) for i, (b, x) in enumerate(zip(buffer, like))]
    xp = array_namespace(like)
    out = buffer if (is_array(buffer) and buffer.shape == like.shape and buffer.dtype == like.dtype
                     and type(buffer) is type(like)) else xp.empty(like.shape, dtype=like.dtype)
    out[...] = 0
    if grad is not None:
        out[_beside(kept, out)] = grad
    return out


def _beside(mask, value):
    """mask where value lives (a target may stay on the host while the input is on a device)."""
    if isinstance(mask, CudaTensor) and not isinstance(value, CudaTensor):
        return mask.numpy()
    if isinstance(value, CudaTensor) and not isinstance(mask, CudaTensor):
        return value.device.to_device(mask)
    return mask
