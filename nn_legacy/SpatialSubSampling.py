import math

import numpy as np

from ._helpers import spatial as _spatial
from .Module import Module, uniform


class SpatialSubSampling(Module):
    """Scaled window sums, one weight and one bias per plane (Torch7's
    ``nn.SpatialSubSampling``, LeNet's subsampling layer)::

        output[k, y, x] = bias[k] + weight[k] * sum over i < kH, j < kW of input[k, y*dH + i, x*dW + j]

    input ``[nInputPlane, iH, iW]`` or ``[batch, nInputPlane, iH, iW]``
    (at least kH x kW); output ``[nInputPlane, oH, oW]`` (or batched) with
    ``oW = (iW - kW) // dW + 1``, ``oH = (iH - kH) // dH + 1``.  ``weight`` and
    ``bias`` are ``[nInputPlane]``.  Arguments in Torch7's order:
    ``SpatialSubSampling(nInputPlane, kW, kH, dW=1, dH=1)``.

    Gradients: ``dL/dinput[k, y*dH + i, x*dW + j] += weight[k] * dL/doutput[k, y, x]``
    for every window; ``dL/dweight[k] += scale * sum of dL/doutput[k] * (window
    sums of input[k])``; ``dL/dbias[k] += scale * sum of dL/doutput[k]``.
    reset() draws both from U(-1/sqrt(kW*kH), +...) as Torch7 did.
    """

    _kernel = "SpatialSubSampling"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, nInputPlane, kW, kH, dW=1, dH=1):
        super().__init__()
        name = type(self).__name__
        (self.nInputPlane,) = _spatial.at_least(name, 0, nInputPlane=nInputPlane)
        self.kW, self.kH = _spatial.at_least(name, 1, kW=kW, kH=kH)
        self.dW, self.dH = _spatial.at_least(name, 1, dW=dW, dH=dH)
        self.weight = np.zeros(self.nInputPlane)
        self.bias = np.zeros(self.nInputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def reset(self, stdv=None):
        if stdv is None:
            stdv = 1 / math.sqrt(self.kW * self.kH)
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def _settings(self):
        return (self.kW, self.kH, self.dW, self.dH)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, *self._settings())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, *self._settings())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, *self._settings(), scale)

    def _t7_fixup(self, version):
        _spatial.t7_ints(self, "nInputPlane", "kW", "kH", "dW", "dH")
        # Torch7 read the first nInputPlane numbers of the weight's (and
        # bias's) memory, whatever its shape: some files keep the weight 3D
        for name in ("weight", "bias"):
            value = getattr(self, name)
            if value is not None and value.shape != (self.nInputPlane,):
                if value.size < self.nInputPlane:
                    raise ValueError(f"SpatialSubSampling: {name} has {value.size} elements, fewer than the "
                                     f"{self.nInputPlane} planes")
                setattr(self, name, np.ascontiguousarray(value).ravel()[:self.nInputPlane].copy())
                setattr(self, "grad" + name.capitalize(), np.zeros(self.nInputPlane, value.dtype))

    def __repr__(self):
        s = f"{self.nInputPlane}, {self.kW}x{self.kH}"
        if (self.dW, self.dH) != (1, 1):
            s += f", {self.dW},{self.dH}"
        return f"nn.SpatialSubSampling({s})"

    def _onnx(self, g, x, y):
        """Conv with one group per plane (each kernel weight[k] everywhere)"""
        weight = np.broadcast_to(self.weight[:, None, None, None], (self.nInputPlane, 1, self.kH, self.kW))
        return g.conv(x, g.param(weight, "weight"), g.param(self.bias, "bias"), (self.kH, self.kW),
                      (self.dH, self.dW), (0, 0), group=self.nInputPlane)
