import math

import numpy as np

from ._helpers import random as _random
from ._helpers.namespace import array_namespace
from ._helpers.pooling import integer, t7_fields
from .Module import Module


class VolumetricFractionalMaxPooling(Module):
    """Fractional max pooling in 3D: ``poolSizeT x poolSizeW x poolSizeH``
    windows whose starts are spread pseudo-randomly along time, width and
    height.

    ``VolumetricFractionalMaxPooling(poolSizeT, poolSizeW, poolSizeH, outT,
    outW, outH)`` gives ``outT x outH x outW`` blocks; with three ratios in
    (0, 1) instead, ``floor(T ratioT) x floor(H ratioH) x floor(W ratioW)``.
    input ``[planes, T, H, W]`` or ``[batch, planes, T, H, W]``; output
    ``[(batch,) planes, outT, outH, outW]``, which needs
    ``out + poolSize - 1 <= in`` along every axis.

    Each plane has three samples in [0, 1), ``randomSamples[b, p] = (u_t,
    u_w, u_h)`` (Torch7's order), and the window starts along each axis
    follow SpatialFractionalMaxPooling's rule.  New samples are drawn from
    the nn_legacy generator at every forward unless ``fixPoolingRegions()``
    was called (then kept while the batch size and plane count stay).
    ``indices`` (int64, shaped as output) holds the offset
    ``(t * H + h) * W + w`` of each maximum, counted from 0.

    Gradient: ``dL/dx[plane][indices[o]] += dL/dy[o]``.  Pool sizes must be
    at least 2, as in Torch7; ``clearState()`` and saving keep
    ``randomSamples``, as for SpatialFractionalMaxPooling.  Unlike Torch7's module, whose input was laid
    out ``[planes, H, W, T]``, this one takes the ``[planes, T, H, W]`` of
    every other volumetric layer (and of PyTorch).
    """

    _kernel = "VolumetricFractionalMaxPooling"

    _buffer_names = ("indices",)

    def __init__(self, poolSizeT, poolSizeW, poolSizeH, arg1, arg2, arg3):
        super().__init__()
        name = type(self).__name__
        self.poolSizeT = integer(name, "poolSizeT", poolSizeT)
        self.poolSizeW = integer(name, "poolSizeW", poolSizeW)
        self.poolSizeH = integer(name, "poolSizeH", poolSizeH)
        if min(self.poolSizeT, self.poolSizeW, self.poolSizeH) < 2:
            raise ValueError(f"{name}: pool sizes must be at least 2, got "
                             f"{self.poolSizeT}x{self.poolSizeW}x{self.poolSizeH}")
        self.outT = self.outW = self.outH = self.ratioT = self.ratioW = self.ratioH = None
        if arg1 >= 1 and arg2 >= 1 and arg3 >= 1:
            self.outT, self.outW, self.outH = (integer(name, n, a) for n, a in
                                               (("outT", arg1), ("outW", arg2), ("outH", arg3)))
        elif 0 < arg1 < 1 and 0 < arg2 < 1 and 0 < arg3 < 1:
            self.ratioT, self.ratioW, self.ratioH = float(arg1), float(arg2), float(arg3)
        else:
            raise ValueError(f"{name}: give the output size (outT, outW, outH all >= 1) or the reduction ratios "
                             f"(ratioT, ratioW, ratioH all in (0, 1)), got {arg1!r}, {arg2!r}, {arg3!r}")
        self.randomSamples = None
        self.newRandomPool = False
        self.indices = None

    def fixPoolingRegions(self, val=True):
        """Keep randomSamples from one forward to the next."""
        self.newRandomPool = bool(val)
        return self

    def _output_size(self, input):
        if self.ratioT is None or input.ndim not in (4, 5):
            return self.outT or 1, self.outW or 1, self.outH or 1
        T, H, W = input.shape[-3:]
        out = (math.floor(T * self.ratioT), math.floor(W * self.ratioW), math.floor(H * self.ratioH))
        if min(out) < 1:
            raise ValueError(f"VolumetricFractionalMaxPooling: the ratios {self.ratioT:g}, {self.ratioW:g}, "
                             f"{self.ratioH:g} of an input of {T}x{H}x{W} give an output of "
                             f"{out[0]}x{out[2]}x{out[1]}; it must be at least 1x1x1")
        return out

    def _draw_samples(self, input):
        xp = array_namespace(input)
        if input.ndim not in (4, 5):
            return xp.zeros((1, 1, 3), dtype=input.dtype)  # the kernel reports the input's shape
        shape = (input.shape[0], input.shape[1], 3) if input.ndim == 5 else (1, input.shape[0], 3)
        s = self.randomSamples
        if s is None or np.shape(s)[:2] != shape[:2] or not self.newRandomPool:
            self.randomSamples = _random.random(xp, shape, input.dtype)
        return xp.asarray(self.randomSamples)   # (samples set on the host follow a device input)

    def _pool(self):
        return (self.poolSizeT, self.poolSizeW, self.poolSizeH)

    def updateOutput(self, input):
        kernel = self._kernel_of(input, "updateOutput")   # (checks the input before samples are drawn in its dtype)
        out = self._output_size(input)
        samples = self._draw_samples(input)
        self.output, self.indices = kernel(input, self.output, *out, *self._pool(), self.indices, samples)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, *self._output_size(input), *self._pool(), self.indices)
        return self.gradInput

    def _t7_unfixup(self, fields):
        """save_lua: no indices (Torch7's module pooled [planes, H, W, T]
        inputs, and its indices counted in that layout: those of this one's
        layout would mislead its backward; the next forward makes them)."""
        fields.pop("indices", None)

    def _t7_fixup(self, version):
        sizes = ("outT", "outW", "outH") if getattr(self, "outT", None) is not None else ()
        t7_fields(self, ("poolSizeT", "poolSizeW", "poolSizeH") + sizes,
                  {"outT": None, "outW": None, "outH": None, "ratioT": None, "ratioW": None, "ratioH": None,
                   "newRandomPool": False, "randomSamples": None, "indices": None})

    def __repr__(self):
        if self.ratioT is None:
            size = f"{self.outT}x{self.outW}x{self.outH}"
        else:
            size = f"{self.ratioT:g}x{self.ratioW:g}x{self.ratioH:g}"
        return f"nn.VolumetricFractionalMaxPooling({size}, {self.poolSizeT},{self.poolSizeW},{self.poolSizeH})"

    _onnx_unsupported = "random pooling regions"
