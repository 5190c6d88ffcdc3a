import math

import numpy as np

from ._helpers import random as _random
from ._helpers.namespace import array_namespace
from ._helpers.pooling import integer, plane_indices_to_t7, t7_fields
from .Module import Module


class SpatialFractionalMaxPooling(Module):
    """Fractional max pooling (Graham, 2014): ``poolSizeW x poolSizeH``
    windows whose starts are spread pseudo-randomly over the plane, so it
    shrinks by a factor that need not be an integer.

    ``SpatialFractionalMaxPooling(poolSizeW, poolSizeH, outW, outH)`` gives
    ``outH x outW`` planes; ``SpatialFractionalMaxPooling(poolSizeW,
    poolSizeH, ratioW, ratioH)`` with ratios in (0, 1) gives
    ``floor(H ratioH) x floor(W ratioW)``.  input ``[planes, H, W]`` or
    ``[batch, planes, H, W]``; output ``[(batch,) planes, outH, outW]``,
    which needs ``outW + poolSizeW - 1 <= W`` and the same for the height.

    Plane p of sample b has two samples ``(u_w, u_h) = randomSamples[b, p]``
    in [0, 1) (b = 0 without batch).  Along the width, window j starts at::

        alpha = (W - poolSizeW) / (outW - 1)
        start_j = int((j + u_w) alpha) - int(u_w alpha)   for j < outW - 1
        start_{outW - 1} = W - poolSizeW

    computed in the input's precision, as Torch7 and PyTorch do; likewise
    along the height with ``u_h``.  Each forward draws new samples from the
    nn_legacy generator (uniform in [0, 1), the input's dtype), except after
    ``fixPoolingRegions()``: then ``randomSamples`` is kept while the batch
    size and plane count stay the same (Torch7's rule).  To give your own:
    set ``randomSamples`` to a ``[batch, planes, 2]`` array and call
    ``fixPoolingRegions()``.  ``indices`` (int64, shaped as output) holds the
    offset ``h * W + w`` of each maximum, counted from 0 (PyTorch's
    ``return_indices``).  Of equal values the first wins; a NaN in a window
    makes its output NaN.

    Gradient: ``dL/dx[plane][indices[o]] += dL/dy[o]``.  Pool sizes must be
    at least 2, as in Torch7.  ``clearState()`` and saving keep
    ``randomSamples`` (Torch7's clearState dropped them), so fixed regions
    stay fixed.
    """

    _kernel = "SpatialFractionalMaxPooling"

    _buffer_names = ("indices",)

    def __init__(self, poolSizeW, poolSizeH, arg1, arg2):
        super().__init__()
        name = type(self).__name__
        self.poolSizeW, self.poolSizeH = integer(name, "poolSizeW", poolSizeW), integer(name, "poolSizeH", poolSizeH)
        if self.poolSizeW < 2 or self.poolSizeH < 2:
            raise ValueError(f"{name}: pool sizes must be at least 2, got {self.poolSizeW}x{self.poolSizeH}")
        self.outW = self.outH = self.ratioW = self.ratioH = None
        if arg1 >= 1 and arg2 >= 1:
            self.outW, self.outH = integer(name, "outW", arg1), integer(name, "outH", arg2)
        elif 0 < arg1 < 1 and 0 < arg2 < 1:
            self.ratioW, self.ratioH = float(arg1), float(arg2)
        else:
            raise ValueError(f"{name}: give the output size (outW, outH both >= 1) or the reduction ratios "
                             f"(ratioW, ratioH both in (0, 1)), got {arg1!r}, {arg2!r}")
        self.randomSamples = None
        self.newRandomPool = False
        self.indices = None

    def fixPoolingRegions(self, val=True):
        """Keep randomSamples from one forward to the next (Torch7's name for
        the flag is newRandomPool; False draws anew at every forward)."""
        self.newRandomPool = bool(val)
        return self

    def _output_size(self, input):
        if self.ratioW is None or input.ndim not in (3, 4):
            return self.outW or 1, self.outH or 1
        H, W = input.shape[-2:]
        outW, outH = math.floor(W * self.ratioW), math.floor(H * self.ratioH)
        if outW < 1 or outH < 1:
            raise ValueError(f"SpatialFractionalMaxPooling: the ratios {self.ratioW:g}, {self.ratioH:g} of an "
                             f"input of {H}x{W} give an output of {outH}x{outW}; it must be at least 1x1")
        return outW, outH

    def _draw_samples(self, input):
        xp = array_namespace(input)
        if input.ndim not in (3, 4):
            return xp.zeros((1, 1, 2), dtype=input.dtype)  # the kernel reports the input's shape
        shape = (input.shape[0], input.shape[1], 2) if input.ndim == 4 else (1, input.shape[0], 2)
        s = self.randomSamples
        if s is None or np.shape(s)[:2] != shape[:2] or not self.newRandomPool:
            self.randomSamples = _random.random(xp, shape, input.dtype)
        return xp.asarray(self.randomSamples)   # (samples set on the host follow a device input)

    def updateOutput(self, input):
        kernel = self._kernel_of(input, "updateOutput")   # (checks the input before samples are drawn in its dtype)
        outW, outH = self._output_size(input)
        samples = self._draw_samples(input)
        self.output, self.indices = kernel(
            input, self.output, outW, outH, self.poolSizeW, self.poolSizeH, self.indices, samples)
        return self.output

    def updateGradInput(self, input, gradOutput):
        outW, outH = self._output_size(input)
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, outW, outH, self.poolSizeW, self.poolSizeH, self.indices)
        return self.gradInput

    def _t7_unfixup(self, fields):
        """save_lua: the indices as Torch7's THNN kept them, flat within
        the plane counted from 1 (load_lua drops them: the input size they
        index is not in the file)."""
        plane_indices_to_t7(fields)

    def _t7_fixup(self, version):
        sizes = ("outW", "outH") if getattr(self, "outW", None) is not None else ()
        t7_fields(self, ("poolSizeW", "poolSizeH") + sizes,
                  {"outW": None, "outH": None, "ratioW": None, "ratioH": None, "newRandomPool": False,
                   "randomSamples": None, "indices": None})

    def __repr__(self):
        size = f"{self.outW}x{self.outH}" if self.ratioW is None else f"{self.ratioW:g}x{self.ratioH:g}"
        return f"nn.SpatialFractionalMaxPooling({size}, {self.poolSizeW},{self.poolSizeH})"

    _onnx_unsupported = "random pooling regions"
