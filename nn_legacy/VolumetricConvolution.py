import math

import numpy as np

from ._helpers import volumetric as _volumetric
from .Module import Module, uniform


class VolumetricConvolution(Module):
    """3D convolution of a stack of volumes (Torch7's ``nn.VolumetricConvolution``)::

        output[o, t, y, x] = bias[o] + sum over c, a, b, e of
            weight[o, c, a, b, e] * input[c, t*dT - padT + a, y*dH - padH + b, x*dW - padW + e]

    with zeros outside the volume.  input ``[nInputPlane, T, H, W]`` or
    ``[batch, nInputPlane, T, H, W]``; output ``[nOutputPlane, oT, oH, oW]``
    (or batched) with ``oT = (T + 2*padT - kT) // dT + 1`` and likewise
    ``oH`` (from H, kH, dH, padH) and ``oW`` (from W, kW, dW, padW), each at
    least 1.  ``weight`` is ``[nOutputPlane, nInputPlane, kT, kH, kW]``,
    ``bias`` ``[nOutputPlane]``.

    Arguments in Torch7's order, time, then width, then height:
    ``VolumetricConvolution(nInputPlane, nOutputPlane, kT, kW, kH, dT=1,
    dW=1, dH=1, padT=0, padW=padT, padH=padW)``; pads are at least 0.

    Gradients: ``dL/dinput`` is the same sum run backwards (every input voxel
    collects ``weight * dL/doutput`` from each output voxel it fed);
    ``dL/dweight[o, c, a, b, e] += scale * sum over t, y, x (and the batch)
    of dL/doutput[o, t, y, x] * input[c, t*dT - padT + a, y*dH - padH + b,
    x*dW - padW + e]``; ``dL/dbias[o] += scale * sum of dL/doutput[o]``.

    Computed directly by the VolumetricConvolution kernels, without work
    space (VolumetricConvolutionMM gives the same through matrix products).
    reset() draws weight and bias from U(-1/sqrt(kT*kW*kH*nInputPlane), +...)
    as Torch7 did (reset(stdv): U(-stdv, stdv)); noBias() drops the bias.
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _kernel = "VolumetricConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=None, padH=None):
        super().__init__()
        name = type(self).__name__
        padW = padT if padW is None else padW
        padH = padW if padH is None else padH
        self.nInputPlane, self.nOutputPlane = _volumetric.positive(name, nInputPlane=nInputPlane,
                                                                    nOutputPlane=nOutputPlane)
        self.kT, self.kW, self.kH = _volumetric.positive(name, kT=kT, kW=kW, kH=kH)
        self.dT, self.dW, self.dH = _volumetric.positive(name, dT=dT, dW=dW, dH=dH)
        self.padT, self.padW, self.padH = _volumetric.non_negative(name, padT=padT, padW=padW, padH=padH)
        self.weight = np.zeros((self.nOutputPlane, self.nInputPlane, self.kT, self.kH, self.kW))
        self.bias = np.zeros(self.nOutputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def _settings(self):
        """The kernel's int arguments, in header order."""
        return (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH)

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        if stdv is None:
            stdv = 1 / math.sqrt(self.kT * self.kW * self.kH * self.nInputPlane)
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

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
        _volumetric.t7_defaults(self, padT=0)
        _volumetric.t7_defaults(self, padW=self.padT)
        _volumetric.t7_defaults(self, padH=self.padW)
        _volumetric.t7_ints(self, "nInputPlane", "nOutputPlane", "kT", "kW", "kH", "dT", "dW", "dH",
                            "padT", "padW", "padH")
        _volumetric.t7_weight(self, (self.nOutputPlane, self.nInputPlane, self.kT, self.kH, self.kW))
        _volumetric.t7_drop_buffers(self, *self._buffer_names)

    def _repr_settings(self):
        s = f"{self.nInputPlane} -> {self.nOutputPlane}, {self.kT}x{self.kW}x{self.kH}"
        if (self.dT, self.dW, self.dH, self.padT, self.padW, self.padH) != (1, 1, 1, 0, 0, 0):
            s += f", {self.dT},{self.dW},{self.dH}"
        if (self.padT, self.padW, self.padH) != (0, 0, 0):
            s += f", {self.padT},{self.padW},{self.padH}"
        return s

    def __repr__(self):
        return f"nn.{type(self).__name__}({self._repr_settings()}){'' if self.bias is not None else ' without bias'}"

    def _onnx(self, g, x, y):
        """Conv (3D)"""
        dilations = tuple(getattr(self, f"dilation{a}", 1) for a in "THW")
        return g.conv(x, g.param(self.weight, "weight"), None if self.bias is None else g.param(self.bias, "bias"),
                      (self.kT, self.kH, self.kW), (self.dT, self.dH, self.dW), (self.padT, self.padH, self.padW),
                      dilations)
