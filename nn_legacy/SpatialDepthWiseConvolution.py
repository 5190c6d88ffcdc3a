import math

import numpy as np

from ._helpers import spatial as _spatial
from .Module import Module, uniform


class SpatialDepthWiseConvolution(Module):
    """Depth-wise convolution (Torch7's ``nn.SpatialDepthWiseConvolution``):
    each input plane is convolved on its own, by ``depthwiseMultiplier``
    (M) kernels, and kernel m of plane c makes output plane ``c*M + m``::

        output[c*M + m, y, x] = bias[m, c] + sum over i, j of
                                weight[m, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]

    with zeros outside the image.  input ``[nInputPlane, iH, iW]`` or
    ``[batch, nInputPlane, iH, iW]``; output ``[nInputPlane*M, oH, oW]`` (or
    batched) with ``oW = (iW + 2*padW - kW) // dW + 1`` (likewise oH).
    Torch7's layout: ``weight`` is ``[M, nInputPlane*kH*kW]`` (the memory
    of ``weight[m, c, i, j]`` above), ``bias`` ``[M, nInputPlane]``.  The
    same as PyTorch's ``conv2d(..., groups=nInputPlane)`` with its weight
    ``[c*M + m, 0, i, j] = weight[m, c, i, j]``.

    Arguments in Torch7's order: ``SpatialDepthWiseConvolution(nInputPlane,
    depthwiseMultiplier, kW, kH, dW=1, dH=1, padW=0, padH=padW)``; pads lie
    in ``[0, k)``.  ``nOutputPlane`` is ``nInputPlane * M``.

    Gradients: ``dL/dinput[c]`` collects ``weight[m, c] * dL/doutput[c*M + m]``
    back through every window, over m; ``dL/dweight[m, c, i, j] += scale *
    sum over y, x (and the batch) of dL/doutput[c*M + m, y, x] *
    input[c, y*dH - padH + i, x*dW - padW + j]``; ``dL/dbias[m, c] += scale *
    sum of dL/doutput[c*M + m]``.  Computed directly (no column buffers).
    reset() draws from U(-1/sqrt(kW*kH*nInputPlane), +...) as Torch7 did;
    noBias() drops the bias.
    """

    _kernel = "SpatialDepthWiseConvolution"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, nInputPlane, depthwiseMultiplier, kW, kH, dW=1, dH=1, padW=0, padH=None):
        super().__init__()
        name = type(self).__name__
        self.nInputPlane, self.depthwiseMultiplier = _spatial.at_least(
            name, 0, nInputPlane=nInputPlane, depthwiseMultiplier=depthwiseMultiplier)
        self.nOutputPlane = self.nInputPlane * self.depthwiseMultiplier
        self.kW, self.kH = _spatial.at_least(name, 1, kW=kW, kH=kH)
        self.dW, self.dH = _spatial.at_least(name, 1, dW=dW, dH=dH)
        self.padW, self.padH = _spatial.check_padding(name, padW, padW if padH is None else padH, self.kW, self.kH)
        self.weight = np.zeros((self.depthwiseMultiplier, self.nInputPlane * self.kH * self.kW))
        self.bias = np.zeros((self.depthwiseMultiplier, self.nInputPlane))
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        if stdv is None:
            stdv = 1 / math.sqrt(max(self.kW * self.kH * self.nInputPlane, 1))
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def _settings(self):
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH)

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

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's nn kept the multiplier as nOutputPlane (class version 1)."""
        fields["nOutputPlane"] = fields.pop("depthwiseMultiplier")

    def _t7_fixup(self, version):
        _spatial.t7_padding(self)
        if version < 2:   # nOutputPlane was the multiplier
            self.depthwiseMultiplier = self.nOutputPlane
        _spatial.t7_ints(self, "nInputPlane", "depthwiseMultiplier", "kW", "kH", "dW", "dH", "padW", "padH")
        self.nOutputPlane = self.nInputPlane * self.depthwiseMultiplier
        for name in ("finput", "fgradInput"):   # Torch7's column buffers; not used here
            vars(self).pop(name, None)

    def __repr__(self):
        s = f"{self.nInputPlane} -> {self.depthwiseMultiplier}, {self.kW}x{self.kH}"
        if (self.dW, self.dH, self.padW, self.padH) != (1, 1, 0, 0):
            s += f", {self.dW},{self.dH}"
        if (self.padW, self.padH) != (0, 0):
            s += f", {self.padW},{self.padH}"
        return f"nn.SpatialDepthWiseConvolution({s}){'' if self.bias is not None else ' without bias'}"

    def _onnx(self, g, x, y):
        """Conv with one group per input plane"""
        m, c = self.depthwiseMultiplier, self.nInputPlane
        weight = self.weight.reshape(m, c, self.kH, self.kW).transpose(1, 0, 2, 3).reshape(c * m, 1, self.kH, self.kW)
        bias = None if self.bias is None else g.param(self.bias.T.reshape(-1), "bias")
        return g.conv(x, g.param(weight, "weight"), bias, (self.kH, self.kW), (self.dH, self.dW),
                      (self.padH, self.padW), group=c)
