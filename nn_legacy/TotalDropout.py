import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import check_float_array, check_like, reuse
from .Module import Module


class TotalDropout(Module):
    """The rnn package's TotalDropout: the whole input is kept or zeroed at
    once.  While training, each forward draws one ``noise``, 1 with
    probability 1 - p and 0 with probability p, and ``output = noise *
    input`` (no rescaling); evaluating, ``output = input``.  Backward
    (training only, as in the package): ``gradInput = noise * gradOutput``.

    ``TotalDropout(p=0.5)``, 0 <= p < 1.  Any shape; the draw comes from
    nn_legacy's generator (``nn.manualSeed``), on the host for a device
    input too."""

    def __init__(self, p=0.5):
        super().__init__()
        p = float(p)
        if not 0 <= p < 1:
            raise ValueError(f"TotalDropout: p must be in [0, 1), got {p:g}")
        self.p = p
        self.noise = None

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        p, noise = vars(self).get("p", 0.5), vars(self).get("noise")
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p < 1:
            raise T7Error(f"TotalDropout: p in the file must be a number in [0, 1), got {p!r}")
        self.p = float(p)
        self.noise = float(noise) if isinstance(noise, (int, float)) and noise in (0, 1) else None

    def _check(self, value, name):
        check_float_array(self, value, name)

    def updateOutput(self, input):
        self._check(input, "input")
        self.output = reuse(self.output, input.shape, input.dtype, input)
        self.output[...] = input
        if self.train:
            self.noise = 1.0 if float(_random.random(np, (1,))[0]) >= self.p else 0.0
            self.output *= self.noise
        return self.output

    def updateGradInput(self, input, gradOutput):
        if not self.train:
            raise RuntimeError("TotalDropout: backward is only defined while training (as in the rnn package)")
        self._check(input, "input")
        check_like(self, gradOutput, "gradOutput", input, "the input")
        if self.noise is None:
            raise RuntimeError("TotalDropout: backward needs the noise of a training forward first")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = gradOutput
        self.gradInput *= self.noise
        return self.gradInput

    def __repr__(self):
        return f"nn.TotalDropout({self.p:g})"

    def _onnx(self, g, x, y):
        """none (evaluation: the identity)"""
        return x
