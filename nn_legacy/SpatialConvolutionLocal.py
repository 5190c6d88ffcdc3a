import math

import numpy as np

from ._helpers import volumetric as _volumetric
from .Module import Module, uniform


class SpatialConvolutionLocal(Module):
    """A 2D convolution whose kernel is not shared: every output pixel has
    its own weights and bias (Torch7's ``nn.SpatialConvolutionLocal``, a
    "locally connected" layer)::

        output[o, y, x] = bias[o, y, x] + sum over c, i, j of
            weight[y, x, o, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]

    with zeros outside the image.  The input size is fixed when the module
    is built: input ``[nInputPlane, iH, iW]`` or ``[batch, nInputPlane, iH,
    iW]``; output ``[nOutputPlane, oH, oW]`` (or batched) with ``oW = (iW +
    2*padW - kW) // dW + 1``, ``oH = (iH + 2*padH - kH) // dH + 1``, at least
    1.  ``weight`` is ``[oH, oW, nOutputPlane, nInputPlane, kH, kW]`` and
    ``bias`` ``[nOutputPlane, oH, oW]``, Torch7's layouts.

    Arguments in Torch7's order: ``SpatialConvolutionLocal(nInputPlane,
    nOutputPlane, iW, iH, kW, kH, dW=1, dH=1, padW=0, padH=padW)``.

    Gradients: ``dL/dinput[c, y*dH - padH + i, x*dW - padW + j] += weight[y,
    x, o, c, i, j] * dL/doutput[o, y, x]`` summed over o, y, x;
    ``dL/dweight[y, x, o, c, i, j] += scale * dL/doutput[o, y, x] *
    input[c, y*dH - padH + i, x*dW - padW + j]`` and ``dL/dbias[o, y, x] +=
    scale * dL/doutput[o, y, x]`` (summed over the batch).  reset() draws
    from U(-1/sqrt(kW*kH*nInputPlane), +...) as Torch7 did (reset(stdv):
    U(-stdv, stdv)).  No work buffers: each weight serves one pixel, so the
    kernels sum directly.
    """

    _kernel = "SpatialConvolutionLocal"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, nInputPlane, nOutputPlane, iW, iH, kW, kH, dW=1, dH=1, padW=0, padH=None):
        super().__init__()
        name = type(self).__name__
        padH = padW if padH is None else padH
        self.nInputPlane, self.nOutputPlane = _volumetric.positive(name, nInputPlane=nInputPlane,
                                                                    nOutputPlane=nOutputPlane)
        self.iW, self.iH = _volumetric.positive(name, iW=iW, iH=iH)
        self.kW, self.kH = _volumetric.positive(name, kW=kW, kH=kH)
        self.dW, self.dH = _volumetric.positive(name, dW=dW, dH=dH)
        self.padW, self.padH = _volumetric.non_negative(name, padW=padW, padH=padH)
        self.oW = _volumetric.output_size(self.iW, self.kW, self.dW, self.padW)
        self.oH = _volumetric.output_size(self.iH, self.kH, self.dH, self.padH)
        if self.oW < 1 or self.oH < 1:
            raise ValueError(f"{name}: the padded input ({self.iW}+2*{self.padW} wide, {self.iH}+2*{self.padH} "
                             f"high) must be at least as large as the kernel ({self.kW}x{self.kH})")
        self.weight = np.zeros((self.oH, self.oW, self.nOutputPlane, self.nInputPlane, self.kH, self.kW))
        self.bias = np.zeros((self.nOutputPlane, self.oH, self.oW))
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def _settings(self):
        """The kernel's int arguments, in header order."""
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH, self.iW, self.iH, self.oW, self.oH)

    def reset(self, stdv=None):
        if stdv is None:
            stdv = 1 / math.sqrt(self.kW * self.kH * self.nInputPlane)
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
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
        _volumetric.t7_defaults(self, padW=0)
        _volumetric.t7_defaults(self, padH=self.padW)
        _volumetric.t7_ints(self, "nInputPlane", "nOutputPlane", "iW", "iH", "kW", "kH", "dW", "dH",
                            "padW", "padH", "oW", "oH")
        _volumetric.t7_weight(self, (self.oH, self.oW, self.nOutputPlane, self.nInputPlane, self.kH, self.kW))
        _volumetric.t7_drop_buffers(self)

    def __repr__(self):
        s = f"nn.SpatialConvolutionLocal({self.nInputPlane} -> {self.nOutputPlane}, {self.iW}x{self.iH}, " \
            f"{self.kW}x{self.kH}"
        if (self.dW, self.dH, self.padW, self.padH) != (1, 1, 0, 0):
            s += f", {self.dW},{self.dH}"
        if (self.padW, self.padH) != (0, 0):
            s += f", {self.padW},{self.padH}"
        return s + ")"

    def _onnx(self, g, x, y):
        """Pad, a Slice per kernel tap, MatMul per output pixel (batched), Add"""
        c, o, taps, pixels = self.nInputPlane, self.nOutputPlane, self.kH * self.kW, self.oH * self.oW
        weight = self.weight.reshape(pixels, o, c * taps).transpose(0, 2, 1)     # [pixel, (c, i, j), o]

        def build(v):
            v = g.pad(v, [0, 0, self.padH, self.padW], [0, 0, self.padH, self.padW])
            tap_list = []
            for i in range(self.kH):
                for j in range(self.kW):
                    rows = g.slice(v, 2, i, i + self.dH * (self.oH - 1) + 1, self.dH)
                    tap = g.slice(rows, 3, j, j + self.dW * (self.oW - 1) + 1, self.dW)   # [batch, c, oH, oW]
                    tap_list.append(g.op("Unsqueeze", [tap, g.ints([2])]))
            patches = g.op("Reshape", [g.op("Concat", tap_list, axis=2), g.ints([-1, c * taps, pixels])])
            out = g.op("MatMul", [g.op("Transpose", [patches], perm=[2, 0, 1]), g.param(weight, "weight")])
            out = g.op("Reshape", [g.op("Transpose", [out], perm=[1, 2, 0]), g.ints([-1, o, self.oH, self.oW])])
            return g.op("Add", [out, g.param(self.bias, "bias")])
        return g.with_batch(x, 4, build)
