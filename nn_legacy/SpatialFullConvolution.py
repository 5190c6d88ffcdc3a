import math

import numpy as np

from ._helpers import spatial as _spatial
from .Module import Module, uniform


class SpatialFullConvolution(Module):
    """The transpose of SpatialConvolution, a.k.a. deconvolution (Torch7's
    ``nn.SpatialFullConvolution``): every input pixel spreads its value over
    a kW x kH patch of the output, dW columns and dH rows further per pixel::

        output[o, y*dH - padH + i, x*dW - padW + j] += weight[c, o, i, j] * input[c, y, x]

    summed over c, y, x, on top of ``bias[o]``; patch pixels that fall
    outside the output (in the cropped ``padW``/``padH`` border) are
    dropped.  input ``[nInputPlane, iH, iW]`` or ``[batch, nInputPlane, iH,
    iW]``; output ``[nOutputPlane, oH, oW]`` (or batched) with::

        oW = (iW - 1) * dW - 2*padW + kW + adjW
        oH = (iH - 1) * dH - 2*padH + kH + adjH

    ``adjW``, ``adjH`` in ``[0, dW)``, ``[0, dH)`` add columns and rows at
    the far end: of the output sizes that a SpatialConvolution with these
    settings maps back to ``iW x iH``, they choose which one.  ``weight`` is
    ``[nInputPlane, nOutputPlane, kH, kW]``, ``bias`` ``[nOutputPlane]``.

    Arguments in Torch7's order: ``SpatialFullConvolution(nInputPlane,
    nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0, adjW=0, adjH=0)``;
    pads lie in ``[0, k)``.

    Gradients: dL/dinput is the SpatialConvolution of dL/doutput by the same
    weight (read as ``[nInputPlane, nOutputPlane, kH, kW]``);
    ``dL/dweight[c, o, i, j] += scale * sum over y, x (and the batch) of
    input[c, y, x] * dL/doutput[o, y*dH - padH + i, x*dW - padW + j]``;
    ``dL/dbias[o] += scale * sum of dL/doutput[o]``.

    Computed with columns ``[nOutputPlane*kH*kW, iH*iW]`` per sample (one
    matrix per thread in the buffers ``finput`` and ``fgradInput``, freed by
    clearState()).  reset() draws from U(-1/sqrt(kW*kH*nInputPlane), +...)
    as Torch7 did; noBias() drops the bias.  (Torch7's form taking a table
    ``{input, target}`` to choose adj from the target's size is not
    supported: give adjW, adjH.)
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("finput", "fgradInput")
    _kernel = "SpatialFullConvolution"

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0, adjW=0, adjH=0):
        super().__init__()
        name = type(self).__name__
        self.nInputPlane, self.nOutputPlane = _spatial.at_least(name, 0, nInputPlane=nInputPlane,
                                                                 nOutputPlane=nOutputPlane)
        self.kW, self.kH = _spatial.at_least(name, 1, kW=kW, kH=kH)
        self.dW, self.dH = _spatial.at_least(name, 1, dW=dW, dH=dH)
        self.padW, self.padH = _spatial.check_padding(name, padW, padH, *self._spans())
        self.adjW, self.adjH = _spatial.at_least(name, 0, adjW=adjW, adjH=adjH)
        self._check_adj()
        self.weight = np.zeros((self.nInputPlane, self.nOutputPlane, self.kH, self.kW))
        self.bias = np.zeros(self.nOutputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.finput = self.fgradInput = None
        self.reset()

    def _spans(self):
        return self.kW, self.kH

    def _check_adj(self):
        if self.adjW >= self.dW or self.adjH >= self.dH:
            raise ValueError(f"{type(self).__name__}: adjW and adjH must be smaller than dW and dH, "
                             f"got adjW={self.adjW}, adjH={self.adjH} with dW={self.dW}, dH={self.dH}")

    def _settings(self):
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH, self.adjW, self.adjH)

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
        for name in ("padW", "padH", "adjW", "adjH"):   # files older than padding (2015) and adj (2016)
            setattr(self, name, getattr(self, name, 0))
        _spatial.t7_ints(self, "nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH", "padW", "padH",
                         "adjW", "adjH")
        _spatial.t7_parameter(self, "weight", (self.nInputPlane, self.nOutputPlane, self.kH, self.kW))
        self.finput = self.fgradInput = None

    def _repr_settings(self):
        s = f"{self.nInputPlane} -> {self.nOutputPlane}, {self.kW}x{self.kH}"
        if (self.dW, self.dH, self.padW, self.padH) != (1, 1, 0, 0):
            s += f", {self.dW},{self.dH}"
        if (self.padW, self.padH) != (0, 0):
            s += f", {self.padW},{self.padH}"
        if (self.adjW, self.adjH) != (0, 0):
            s += f", {self.adjW},{self.adjH}"
        return s

    def __repr__(self):
        return f"nn.{type(self).__name__}({self._repr_settings()}){'' if self.bias is not None else ' without bias'}"

    def _onnx(self, g, x, y):
        """ConvTranspose (adj as output_padding)"""
        return g.conv(x, g.param(self.weight, "weight"), None if self.bias is None else g.param(self.bias, "bias"),
                      (self.kH, self.kW), (self.dH, self.dW), (self.padH, self.padW),
                      (getattr(self, "dilationH", 1), getattr(self, "dilationW", 1)), transpose=True,
                      output_padding=(self.adjH, self.adjW))
