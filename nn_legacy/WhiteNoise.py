import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import check_float_array, check_like, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class WhiteNoise(Module):
    """Adds Gaussian noise while training: ``y = x + n`` with every element
    of ``n`` drawn from N(mean, std^2) at each forward pass (from the module
    generator, so ``nn_legacy.manualSeed`` repeats it; the draw is kept in
    ``noise``).  Evaluating, ``y = x + mean``.  Any shape.

    Gradient (training only, as in Torch7): ``dL/dx = dL/dy``; backward
    while evaluating raises.  Defaults ``mean=0``, ``std=0.1`` as Torch7.
    """

    _buffer_names = ("noise",)
    noise = None

    def __init__(self, mean=0, std=0.1):
        super().__init__()
        self.mean, self.std = float(mean), float(std)
        if not self.std >= 0:
            raise ValueError(f"WhiteNoise: std must be >= 0, got {std!r}")

    def _t7_fixup(self, version):
        self.mean, self.std = float(self.mean), float(self.std)
        self.noise = None

    def updateOutput(self, input):
        check_float_array(self, input, "input")
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp = array_namespace(input)
        if self.train:
            self.noise = reuse(self.noise, input.shape, input.dtype, input)
            self.noise[...] = _random.normal(xp, self.mean, self.std, input.shape, input.dtype)
            xp.add(input, self.noise, out=self.output)
        else:
            xp.add(input, self.mean, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_float_array(self, input, "input")
        if not self.train:
            raise RuntimeError("WhiteNoise: backprop is only defined while training (call training())")
        check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = gradOutput
        return self.gradInput

    def __repr__(self):
        return f"nn.WhiteNoise(mean {self.mean:g}, std {self.std:g})"

    def _onnx(self, g, x, y):
        """Add of the noise's mean (evaluation)"""
        return g.op("Add", [x, np.array(self.mean, dtype=x.dtype)]) if self.mean else x
