"""The plumbing of SpatialDropout and VolumetricDropout (not a layer
itself; the math is in their docstrings): one random draw per plane."""
from .._helpers import random as _random
from .._helpers.arrays import check_like, describe, name_of, reuse
from .._helpers.namespace import array_namespace
from .._helpers.planes import check_planes
from ..Module import Module


class PlaneDropout(Module):
    _space = ()   # the names of the dims of one plane
    _buffer_names = ("noise",)
    v1 = False
    stochastic_inference = False   # Torch7's field name
    noise = None

    def __init__(self, p=0.5, stochasticInference=False, v1=False):
        super().__init__()
        self.p = self._checked(p)
        self.stochastic_inference = bool(stochasticInference)
        self.v1 = bool(v1)

    def _checked(self, p):
        p = float(p)
        if not 0 <= p <= 1:
            raise ValueError(f"{name_of(self)}: p must be in [0, 1], got {p:g}")
        return p

    def _dropping(self):
        return (self.train or self.stochastic_inference) and self.p > 0

    def setp(self, p):
        self.p = self._checked(p)
        return self

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's plane dropouts have no v1 flag: they never rescaled while training and scaled
        by 1 - p at evaluation, which is what the file will mean."""
        fields.pop("v1", None)
        if not self.v1:
            import warnings
            warnings.warn(f"save_lua: nn.{name_of(self)} rescales while training here (v1=False, the default), "
                          f"which Torch7's plane dropouts never did: in the file it is Torch7's, which scales by "
                          f"1 - p at evaluation", UserWarning, stacklevel=4)

    def _t7_fixup(self, version):
        """Torch7's plane dropouts never rescaled while training (v1)."""
        self.v1 = True
        self.stochastic_inference = bool(getattr(self, "stochastic_inference", False))
        if self.noise is not None and self.noise.size == 0:
            self.noise = None

    def _noise_shape(self, input):
        """One entry per plane, broadcasting over the plane's pixels."""
        return input.shape[:-len(self._space)] + (1,) * len(self._space)

    def updateOutput(self, input):
        self._kernels(input)
        check_planes(self, input, self._space)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        self.output[...] = input
        if self._dropping():
            shape = self._noise_shape(input)
            xp = array_namespace(input)
            # True with probability 1 - p
            keep = _random.random(xp, shape[:-len(self._space)]) >= self.p
            self.noise = reuse(self.noise, shape, input.dtype, input)
            xp.multiply(keep.reshape(shape), 1 if self.v1 or self.p == 1 else 1 / (1 - self.p), out=self.noise)
            self.output *= self.noise
        elif not self.train and self.v1:
            self.output *= 1 - self.p
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._kernels(input)
        check_planes(self, input, self._space)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        training = self._dropping()
        if training and (self.noise is None or self.noise.shape != self._noise_shape(input)):
            got = "none" if self.noise is None else describe(self.noise)
            raise ValueError(f"{name_of(self)}: updateGradInput needs the noise of a training forward pass on "
                             f"this input ({describe(input)}), got {got}")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = gradOutput
        if training:
            self.gradInput *= self.noise
        elif not self.train and self.v1:
            self.gradInput *= 1 - self.p
        return self.gradInput

    def __repr__(self):
        extras = (", v1" if self.v1 else "") + (", stochastic inference" if self.stochastic_inference else "")
        return f"nn.{name_of(self)}({self.p:g}{extras})"

    def _onnx(self, g, x, y):
        """none (evaluation: the identity; Mul by 1 - p for Torch7's original scheme)"""
        from ..Dropout import onnx_dropout
        return onnx_dropout(self, g, x, "planes")
