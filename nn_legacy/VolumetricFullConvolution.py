import math

import numpy as np

from ._helpers import volumetric as _volumetric
from .Module import Module, uniform


class VolumetricFullConvolution(Module):
    """The transpose of VolumetricConvolution, a.k.a. 3D deconvolution
    (Torch7's ``nn.VolumetricFullConvolution``): every input voxel spreads
    its value over a kT x kH x kW block of the output, dT frames, dH rows
    and dW columns further per voxel::

        output[o, t*dT - padT + a, y*dH - padH + b, x*dW - padW + e] += weight[c, o, a, b, e] * input[c, t, y, x]

    summed over c, t, y, x, on top of ``bias[o]``; block voxels that fall in
    the cropped ``pad`` border are dropped.  input ``[nInputPlane, T, H,
    W]`` or ``[batch, nInputPlane, T, H, W]``; output ``[nOutputPlane, oT,
    oH, oW]`` (or batched) with::

        oT = (T - 1) * dT - 2*padT + kT + adjT      (likewise oH, oW)

    each at least 1.  ``adjT``, ``adjW``, ``adjH`` in ``[0, dT)``, ``[0, dW)``,
    ``[0, dH)`` add voxels at the far end: of the sizes a VolumetricConvolution
    with these settings maps back to ``T x H x W``, they choose which one.
    ``weight`` is ``[nInputPlane, nOutputPlane, kT, kH, kW]``, ``bias``
    ``[nOutputPlane]``.

    Arguments in Torch7's order: ``VolumetricFullConvolution(nInputPlane,
    nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0, padH=0,
    adjT=0, adjW=0, adjH=0)``; pads are at least 0.

    Gradients: dL/dinput is the VolumetricConvolution of dL/doutput by the
    same weight (read as ``[nInputPlane, nOutputPlane, kT, kH, kW]``);
    ``dL/dweight[c, o, a, b, e] += scale * sum over t, y, x (and the batch)
    of input[c, t, y, x] * dL/doutput[o, t*dT - padT + a, y*dH - padH + b,
    x*dW - padW + e]``; ``dL/dbias[o] += scale * sum of dL/doutput[o]``.

    Computed with columns ``[nOutputPlane*kT*kH*kW, T*H*W]`` per sample (the
    buffers ``finput`` and ``fgradInput``, freed by clearState()).  reset()
    draws from U(-1/sqrt(kT*kW*kH*nInputPlane), +...) as Torch7 did
    (reset(stdv): U(-stdv, stdv)); noBias() drops the bias.
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("finput", "fgradInput")
    _kernel = "VolumetricFullConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0, padH=0,
                 adjT=0, adjW=0, adjH=0):
        super().__init__()
        name = type(self).__name__
        self.nInputPlane, self.nOutputPlane = _volumetric.positive(name, nInputPlane=nInputPlane,
                                                                    nOutputPlane=nOutputPlane)
        self.kT, self.kW, self.kH = _volumetric.positive(name, kT=kT, kW=kW, kH=kH)
        self.dT, self.dW, self.dH = _volumetric.positive(name, dT=dT, dW=dW, dH=dH)
        self.padT, self.padW, self.padH = _volumetric.non_negative(name, padT=padT, padW=padW, padH=padH)
        self.adjT, self.adjW, self.adjH = _volumetric.non_negative(name, adjT=adjT, adjW=adjW, adjH=adjH)
        self._check_adj()
        self.weight = np.zeros((self.nInputPlane, self.nOutputPlane, self.kT, self.kH, self.kW))
        self.bias = np.zeros(self.nOutputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.finput = self.fgradInput = None
        self.reset()

    def _check_adj(self):
        _volumetric.check_adj(type(self).__name__, dict(adjT=self.adjT, adjW=self.adjW, adjH=self.adjH),
                              dict(dT=self.dT, dW=self.dW, dH=self.dH))

    def _settings(self):
        """The kernel's int arguments after the buffer, in header order."""
        return (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                self.adjT, self.adjW, self.adjH)

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
        self.output, self.finput = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, self.finput, *self._settings())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput, self.fgradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.fgradInput, *self._settings())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.finput = self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.finput, *self._settings(), scale)

    def _t7_fixup(self, version):
        if getattr(self, "adjW", None) is None:
            # files older than adj: the weight was [nOutputPlane, nInputPlane, ...] and the pads pT, pW, pH
            self.weight = np.ascontiguousarray(np.swapaxes(self.weight, 0, 1))
            for new, old in (("padT", "pT"), ("padW", "pW"), ("padH", "pH")):
                _volumetric.t7_defaults(self, **{new: vars(self).pop(old, 0)})
        _volumetric.t7_defaults(self, padT=0, padW=0, padH=0, adjT=0, adjW=0, adjH=0)
        _volumetric.t7_ints(self, "nInputPlane", "nOutputPlane", "kT", "kW", "kH", "dT", "dW", "dH",
                            "padT", "padW", "padH", "adjT", "adjW", "adjH")
        _volumetric.t7_weight(self, (self.nInputPlane, self.nOutputPlane, self.kT, self.kH, self.kW))
        _volumetric.t7_drop_buffers(self, *self._buffer_names)

    def _repr_settings(self):
        # Torch7 prints this layer's sizes width first: kW x kH x kT, then dW,dH,dT and so on
        s = f"{self.nInputPlane} -> {self.nOutputPlane}, {self.kW}x{self.kH}x{self.kT}"
        if (self.dW, self.dH, self.dT, self.padW, self.padH, self.padT) != (1, 1, 1, 0, 0, 0):
            s += f", {self.dW},{self.dH},{self.dT}"
        if (self.padW, self.padH, self.padT) != (0, 0, 0):
            s += f", {self.padW},{self.padH},{self.padT}"
        if (self.adjW, self.adjH, self.adjT) != (0, 0, 0):
            s += f", {self.adjW},{self.adjH},{self.adjT}"
        return s

    def __repr__(self):
        return f"nn.{type(self).__name__}({self._repr_settings()}){'' if self.bias is not None else ' without bias'}"

    def _onnx(self, g, x, y):
        """ConvTranspose (3D; adj as output_padding)"""
        dilations = tuple(getattr(self, f"dilation{a}", 1) for a in "THW")
        return g.conv(x, g.param(self.weight, "weight"), None if self.bias is None else g.param(self.bias, "bias"),
                      (self.kT, self.kH, self.kW), (self.dT, self.dH, self.dW), (self.padT, self.padH, self.padW),
                      dilations, transpose=True, output_padding=(self.adjT, self.adjH, self.adjW))
