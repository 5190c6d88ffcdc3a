import math

import numpy as np

from ._helpers import spatial as _spatial
from .Module import Module, uniform


class SpatialConvolution(Module):
    """2D convolution of a stack of planes (Torch7's ``nn.SpatialConvolution``)::

        output[o, y, x] = bias[o] + sum over c, i, j of
                          weight[o, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]

    with zeros outside the image.  input ``[nInputPlane, iH, iW]`` or
    ``[batch, nInputPlane, iH, iW]``; output ``[nOutputPlane, oH, oW]`` (or
    batched) with ``oW = (iW + 2*padW - kW) // dW + 1`` and
    ``oH = (iH + 2*padH - kH) // dH + 1``.  ``weight`` is
    ``[nOutputPlane, nInputPlane, kH, kW]``, ``bias`` ``[nOutputPlane]``.

    Arguments in Torch7's order, widths before heights:
    ``SpatialConvolution(nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1,
    padW=0, padH=padW)``; pads lie in ``[0, k)``.

    Gradients: ``dL/dinput`` is the same sum run backwards (each input pixel
    collects ``weight * dL/doutput`` from every output pixel it fed);
    ``dL/dweight[o, c, i, j] += scale * sum over y, x (and the batch) of
    dL/doutput[o, y, x] * input[c, y*dH - padH + i, x*dW - padW + j]``;
    ``dL/dbias[o] += scale * sum of dL/doutput[o]``.

    Computed by the SpatialConvolutionMM kernels: each sample's image is
    unfolded into a matrix of columns ``[nInputPlane*kH*kW, oH*oW]`` and
    multiplied by the weight (one matrix product per sample, samples spread
    over threads; with fewer samples than threads, the threads share each
    sample by bands of output rows).  The buffers ``finput`` and
    ``fgradInput`` hold those columns, one matrix (or band) per thread;
    clearState() frees them.  On CPUs with
    AVX-512, a batch (at least one sample per thread) with ``dW = 1`` is
    convolved by direct vector loops instead, in the forward pass, for the
    weight gradient and, when ``dH = 1`` too, for gradInput; the buffer of
    such a pass is then empty.  In a copy made by ``nn.freeze`` (inference
    only) the float forward keeps the weight packed for the indirect
    product between calls, for as long as ``weight`` and ``bias`` are the
    read-only arrays freeze gave it.  reset() draws
    weight and bias from U(-1/sqrt(kW*kH*nInputPlane), +...) as Torch7 did;
    noBias() drops the bias.
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("finput", "fgradInput")
    # _frozen: (weight, bias) as nn.freeze left them; _packed: those two packed (see _packed_weight).
    # Not stored by nn.save; kept by clearState (the packed weight is part of the frozen model)
    _cache_names = ("_frozen", "_packed")
    _kernel = "SpatialConvolutionMM"

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=None):
        super().__init__()
        name = type(self).__name__
        self.nInputPlane, self.nOutputPlane = _spatial.at_least(name, 0, nInputPlane=nInputPlane,
                                                                 nOutputPlane=nOutputPlane)
        self.kW, self.kH = _spatial.at_least(name, 1, kW=kW, kH=kH)
        self.dW, self.dH = _spatial.at_least(name, 1, dW=dW, dH=dH)
        self.padW, self.padH = _spatial.check_padding(name, padW, padW if padH is None else padH,
                                                      *self._spans())
        self.weight = np.zeros(self._weight_shape())
        self.bias = np.zeros(self.nOutputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.finput = self.fgradInput = None
        self._frozen = self._packed = None
        self.reset()

    def _weight_shape(self):
        return (self.nOutputPlane, self.nInputPlane, self.kH, self.kW)

    def _spans(self):
        """(width, height) the kernel covers."""
        return self.kW, self.kH

    def _settings(self):
        """The kernel's int arguments after the buffer."""
        return (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH)

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
        packed = self._packed_weight(input)
        if packed is None:
            self.output, self.finput = self._kernel_of(input, "updateOutput")(
                input, self.output, self.weight, self.bias, self.finput, *self._settings())
        else:
            self.output, self.finput = self._kernels(input, "input").SpatialDilatedConvolution_updateOutputPacked(
                input, self.output, self.weight, self.bias, self.finput, packed, *self._dilated_settings())
        return self.output

    def _dilated_settings(self):
        """SpatialDilatedConvolution's int arguments for this convolution."""
        return self._settings() + (1, 1)

    def _packed_weight(self, input):
        """The weight and bias packed once for the forward (kept in
        self._packed), or None (the ordinary path).  Only for a module that
        nn.freeze froze, and only while weight and bias are still the very
        read-only arrays it left (``_frozen``): anything that replaces or
        could write them (assignment, type(), float(), cuda(), an array made
        writeable again) drops the packed weight, for good."""
        frozen = self.__dict__.get("_frozen")
        if frozen is None:
            return None
        weight, bias = frozen
        if self.weight is not weight or self.bias is not bias or not _read_only(weight) or not _read_only(bias):
            self._frozen = self._packed = None
            return None
        if self._packed is None:
            self._packed = self._kernels(input, "input").SpatialDilatedConvolution_packWeight(weight, bias, None)
        return self._packed

    def updateGradInput(self, input, gradOutput):
        self.gradInput, self.fgradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.fgradInput, *self._settings())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.finput = self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.finput, *self._settings(), scale)

    def _t7_fixup(self, version):
        _spatial.t7_padding(self)
        _spatial.t7_strides(self)
        _spatial.t7_ints(self, "nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH", "padW", "padH")
        _spatial.t7_parameter(self, "weight", self._weight_shape())
        self.finput = self.fgradInput = None   # Torch7's whole-batch columns; ours differ

    def _repr_settings(self):
        s = f"{self.nInputPlane} -> {self.nOutputPlane}, {self.kW}x{self.kH}"
        if (self.dW, self.dH, self.padW, self.padH) != (1, 1, 0, 0):
            s += f", {self.dW},{self.dH}"
        if (self.padW, self.padH) != (0, 0):
            s += f", {self.padW},{self.padH}"
        return s

    def __repr__(self):
        return f"nn.{type(self).__name__}({self._repr_settings()}){'' if self.bias is not None else ' without bias'}"

    def _onnx(self, g, x, y):
        """Conv"""
        weight = self.weight.reshape(self.nOutputPlane, self.nInputPlane, self.kH, self.kW)
        return g.conv(x, g.param(weight, "weight"), None if self.bias is None else g.param(self.bias, "bias"),
                      (self.kH, self.kW), (self.dH, self.dW), (self.padH, self.padW),
                      (getattr(self, "dilationH", 1), getattr(self, "dilationW", 1)))


def _read_only(array):
    """Whether array is None or a host array that cannot be written now."""
    return array is None or (isinstance(array, np.ndarray) and not array.flags.writeable)
