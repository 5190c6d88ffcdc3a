import math
import numpy as np

from ._helpers.arrays import describe, is_array
from ._helpers.namespace import array_namespace
from ._bases.recurrent import first_array
from ._bases.tables import check_nested_like, nested_copy
from .Decorator import Decorator
from ._helpers.onnx_types import NotExportable


class MaskZero(Decorator):
    """Zeroes the output of the decorated module for the samples whose input
    is all zeros (the rnn package's padding mask).

    The mask comes from the first array of the input (the first entry of a
    table, recursively: a recurrent step module's ``x``).  With
    ``nInputDim`` dims it is one sample; with ``nInputDim + 1`` the first dim
    is the batch and sample b is masked when ``x[b]`` is all zeros (NaN is
    not zero).  Every array of the output (a table too) has the masked
    samples' entries set to 0, and so has the gradOutput before it goes to
    the module, in updateGradInput and accGradParameters alike: a masked
    sample sends no gradient back and adds none to the parameters.  (The
    rnn package passed the unmasked gradOutput to accGradParameters; the
    parameter gradient here is the true one.)

    ``AbstractRecurrent.maskZero(nInputDim)`` wraps a recurrent module's step
    module this way, so a padded sample's output and state are zero during
    its padding.
    """

    def __init__(self, module, nInputDim, silent=False):
        super().__init__(module)
        if not isinstance(nInputDim, (int, np.integer)) or isinstance(nInputDim, bool) or nInputDim < 1:
            raise ValueError(f"MaskZero: nInputDim must be a positive integer, got {nInputDim!r}")
        self.nInputDim = int(nInputDim)
        self.zeroMask = None
        self._gradOutput = None

    _buffer_names = ("zeroMask", "_gradOutput")

    def _t7_fixup(self, version):
        n = vars(self).get("nInputDim")
        # torch/rnn's MaskZero (2017, "v2") has no nInputDim: its input is a batch, whatever follows the batch dim
        self.nInputDim = None if n is None else int(n)
        from ._helpers.lua import T7Error
        if vars(self).pop("maskinput", False) or vars(self).pop("maskoutput", True) is False:
            raise T7Error("nn.MaskZero: this one masks its input (maskinput) or leaves its output unmasked "
                          "(maskoutput = false), torch/rnn options nn_legacy does not implement")
        self.zeroMask = self._gradOutput = None
        for name in ("_zeroMask", "_maskbyte", "_maskindices", "gradOutput", "batchmode", "module", "v2"):
            vars(self).pop(name, None)

    def _mask(self, input):
        """The samples to zero: a bool array [batch], or a 0D bool for one sample."""
        x = first_array(input)
        if not is_array(x):
            raise TypeError(f"MaskZero: the input's first array must be an array, got {type(x).__name__}")
        xp = array_namespace(x)
        if self.nInputDim is None and x.ndim >= 1:     # a torch/rnn file's: always a batch
            return ~xp.any(x.reshape(x.shape[0], int(math.prod(x.shape[1:]))) != 0, axis=1)
        if x.ndim == self.nInputDim:
            return xp.asarray(~xp.any(x != 0))
        if x.ndim == self.nInputDim + 1:
            return ~xp.any(x.reshape(x.shape[0], int(math.prod(x.shape[1:]))) != 0, axis=1)
        raise ValueError(f"MaskZero: the input's first array must have nInputDim={self.nInputDim} dims "
                         f"(one sample) or {self.nInputDim + 1} (a batch), got {describe(x)}")

    def _masked(self, buffer, value, name):
        """A copy of value (an array or nested table) with the masked samples zeroed."""
        out = nested_copy(buffer, value)
        self._apply(out, name)
        return out

    def _apply(self, value, name):
        if isinstance(value, list):
            for v in value:
                self._apply(v, name)
            return
        mask = self.zeroMask
        if mask.ndim == 0:
            if mask:
                value[...] = 0
            return
        if value.ndim == 0 or value.shape[0] != mask.shape[0]:
            raise ValueError(f"MaskZero: every array of the {name} must have the batch of {mask.shape[0]} "
                             f"samples first, got {describe(value)}")
        value[mask] = 0

    def updateOutput(self, input):
        self.zeroMask = self._mask(input)
        out = self._child(0, "updateOutput", input)
        self.output = self._masked(self.output, out, "output")
        return self.output

    def _masked_gradOutput(self, gradOutput):
        if self.zeroMask is None:
            raise RuntimeError("MaskZero: backward needs the mask of a forward pass first")
        check_nested_like(self, gradOutput, self.output)
        self._gradOutput = self._masked(self._gradOutput, gradOutput, "gradOutput")
        return self._gradOutput

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._child(0, "updateGradInput", input, self._masked_gradOutput(gradOutput))
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._child(0, "accGradParameters", input, self._masked_gradOutput(gradOutput), scale)

    def backward(self, input, gradOutput, scale=1):
        self.gradInput = self._child(0, "backward", input, self._masked_gradOutput(gradOutput), scale)
        return self.gradInput

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._child(0, "accUpdateGradParameters", input, self._masked_gradOutput(gradOutput), lr)

    def __repr__(self):
        return f"nn.MaskZero({self.nInputDim}) @ " + repr(self.modules[0])

    def _onnx(self, g, x, y):
        """the module's nodes, then Where(the sample's input is all zeros, 0, output)"""
        out = g.child(self, 0, x)
        first = x
        while isinstance(first, list):
            first = first[0]
        n = first.ndim - 1 if self.nInputDim is None else self.nInputDim
        if first.ndim not in (n, n + 1):
            raise NotExportable(f"the input's first array must have {n} or {n + 1} dims, "
                                f"got {first.ndim}")
        batched = first.ndim == n + 1
        nonzero = g.op("Cast", [g.op("Not", [g.op("Equal", [first, g.const(np.zeros((), first.dtype), "zero",
                                                                               exact_type=True)])])], to=1)
        axes = list(range(1 if batched else 0, first.ndim))
        any_nonzero = g.op("ReduceMax", [nonzero, g.ints(axes)], keepdims=0)
        keep = g.op("Greater", [any_nonzero, g.const(np.zeros((), np.float32), "zero", exact_type=True)])
        probe = g.arrays(x, "probe")
        masks = (self._mask(g.arrays(x)), None if probe is None else self._mask(probe))

        def masked(v):
            k = keep if not batched or v.ndim == 1 else g.op("Unsqueeze", [keep, g.ints(range(1, v.ndim))])
            name = g.op("Where", [k, v, g.const(np.zeros((), v.dtype), "zero", exact_type=True)])
            arrays = [None if m is None or a is None else
                      np.where(m.reshape(m.shape + (1,) * (a.ndim - m.ndim)), np.zeros((), a.dtype), a)
                      for m, a in zip(masks, (v.value, v.probe))]
            return type(v)(g, name, arrays[0], arrays[1])
        return _nest(masked, out)


def _nest(fn, value):
    return [_nest(fn, v) for v in value] if isinstance(value, list) else fn(value)
