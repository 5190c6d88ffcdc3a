import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import check_like, check_writeable, describe, reuse
from ._helpers.checks import torch7_arguments
from ._helpers.namespace import array_namespace
from .Module import Module


class Dropout(Module):
    """Zero each element with probability ``p`` while training; any shape.

    Training: ``y = x * noise`` where ``noise`` is 0 with probability p and
    ``1 / (1 - p)`` otherwise (inverted dropout, so the expected output is
    the input); ``dL/dx = dL/dy * noise`` with the same noise.  A new noise
    array is drawn at every forward pass, from the module generator, so
    ``nn_legacy.manualSeed`` repeats it.  Evaluation (``evaluate()``): the
    identity, for the output and the gradient.  ``p = 0`` is the identity
    in both modes; ``p = 1`` zeroes everything while training (Torch7
    refused p = 1; PyTorch gives zeros).

    ``v1=True`` is Torch7's original scheme: the kept elements are not
    scaled while training, and evaluation multiplies by ``1 - p`` instead
    (output and gradient).  ``inplace=True`` writes the output into the
    input array and the gradient into gradOutput.
    ``stochasticInference=True`` drops elements while evaluating too (as
    while training; the gradient then takes the same noise, where Torch7
    passed it unmasked).  ``setp(p)`` changes p.

    The arguments are Torch7's, in its order:
    ``Dropout(p, v1, inplace, stochasticInference)``.  torch.legacy.nn had
    ``Dropout(p, inplace)``, so ``Dropout(0.5, True)`` could mean v1 or
    inplace: that call is refused with a TypeError; name the argument
    (``Dropout(0.5, inplace=True)``).  Every argument may be given by
    keyword.
    """

    _buffer_names = ("noise",)
    inplace = False  # absent from Torch7 files written before it existed
    v1 = False
    stochastic_inference = False   # Torch7's field name
    noise = None

    def __init__(self, p=0.5, *torch7_order, v1=None, inplace=None, stochasticInference=None):
        super().__init__()
        v1, inplace, stochasticInference = torch7_arguments(
            self, "Dropout(p, v1, inplace, stochasticInference)", "Dropout(p, inplace)", torch7_order,
            v1=v1, inplace=inplace, stochasticInference=stochasticInference)
        self.p = self._checked(p)
        self.inplace = bool(inplace)
        self.v1 = bool(v1)
        self.stochastic_inference = bool(stochasticInference)

    @staticmethod
    def _checked(p):
        p = float(p)
        if not 0 <= p <= 1:
            raise ValueError(f"Dropout: p must be in [0, 1], got {p:g}")
        return p

    # nnx's nn.Dropout (2013) and nn's first one (July 2014) kept no v2 field:
    # they scaled at evaluation, as v1 does
    _t7_absent = {"v2": False}

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup (Torch7 stored v2)."""
        fields["v2"] = not fields.pop("v1")

    def _t7_fixup(self, version):
        """Torch7 files store ``v2 = not v1`` and an empty noise tensor."""
        self.v1 = not vars(self).pop("v2")
        self.stochastic_inference = bool(getattr(self, "stochastic_inference", False))
        if self.noise is not None and self.noise.size == 0:
            self.noise = None

    def setp(self, p):
        self.p = self._checked(p)
        return self

    def _dropping(self):
        return (self.train or self.stochastic_inference) and self.p > 0

    def _into(self, source, name, buffer, *avoid):
        """The array to write the result in: source itself in in-place mode,
        else the module's buffer holding a copy of source."""
        if self.inplace:
            check_writeable(self, source, name)
            return source
        buffer = reuse(buffer, source.shape, source.dtype, *avoid)
        buffer[...] = source
        return buffer

    def updateOutput(self, input):
        self._kernels(input)
        self.output = self._into(input, "input", self.output, input)
        if self._dropping():
            xp = array_namespace(input)
            self.noise = reuse(self.noise, input.shape, input.dtype, input)
            keep = _random.random(xp, input.shape) >= self.p   # True with probability 1 - p
            scale = 1 if self.v1 or self.p == 1 else 1 / (1 - self.p)
            xp.multiply(keep, scale, out=self.noise)
            self.output *= self.noise
        elif not self.train and self.v1:
            self.output *= 1 - self.p
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        training = self._dropping()
        if training and (self.noise is None or self.noise.shape != input.shape):
            got = "none" if self.noise is None else describe(self.noise)
            raise ValueError(f"Dropout: updateGradInput needs the noise of a training forward pass on this input "
                             f"({describe(input)}), got {got}")
        self.gradInput = self._into(gradOutput, "gradOutput", self.gradInput, input, gradOutput)
        if training:
            self.gradInput *= self.noise
        elif not self.train and self.v1:
            self.gradInput *= 1 - self.p
        return self.gradInput

    def __repr__(self):
        extras = "".join([", in-place" if self.inplace else "", ", v1" if self.v1 else "",
                          ", stochastic inference" if self.stochastic_inference else ""])
        return f"nn.Dropout({self.p:g}{extras})"

    def _onnx(self, g, x, y):
        """none (evaluation: the identity; Mul by 1 - p for Torch7's original Dropout)"""
        return onnx_dropout(self, g, x, "elements")


def onnx_dropout(module, g, x, what):
    """A dropout's ONNX mapping (Dropout's, SpatialDropout's, ...): what it
    computes in evaluation."""
    if module.stochastic_inference and module.p:
        from ._helpers.onnx_types import NotExportable
        raise NotExportable(f"it drops {what} at random while evaluating too (stochasticInference)")
    if module.v1 and module.p:
        return g.op("Mul", [x, np.array(1 - module.p, dtype=x.dtype)])
    return x
