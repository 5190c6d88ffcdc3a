import numbers

import numpy as np

from ._helpers.arrays import check_like, describe, name_of, reuse
from ._helpers.namespace import array_namespace
from .Module import Module
from .Replicate import Replicate
from .Sequential import Sequential
from .SpatialConvolutionMap import SpatialConvolutionMap
from .SpatialPadding import SpatialPadding
from .Sum import Sum


class SpatialNormalization(Module):
    """nnx's contrast normalizer (the one SpatialContrastiveNormalization
    replaced): each value has the local mean of all planes removed and is
    divided by the local standard deviation, thresholded.  With a ``[kH,
    kW]`` kernel k normalized to sum 1, for input x ``[nInputPlane, H, W]``::

        C(v)  = sum over planes of (v, each plane filtered by k with the
                input's size kept: padding of floor(kW/2) columns on the
                left, floor((kW-1)/2) on the right, the same for rows),
                repeated on every plane
        coef  = C(ones)                 (what the window covers of the input)
        zm    = x - C(x) / coef
        std   = sqrt(C(zm^2)) / coef
        t     = threshold, or if None max(mean of std, 1e-3) (of this sample)
        output = zm / (std where std > t, else t)

    A pair of kernels ``(k1, k2)`` (nnx's two 1D kernels, ``[1, K]`` and
    ``[K, 1]``) filters by k1 and then by k2, each step summing over the
    planes as above.  A 2D input ``[H, W]`` is one plane; a batch
    ``[batch, nInputPlane, H, W]`` is normalized sample by sample.

    The gradient is the chain through these steps, with the threshold t
    held fixed (as nnx computed it: t moves with the input only through the
    mean, which its backward did not follow), and through
    ``where(std > t)``.  The module has no parameters: the filters are
    fixed (``convo`` and ``convostd``, the nnx sub-modules doing C).
    """

    def __init__(self, nInputPlane, kernel, threshold=None):
        super().__init__()
        if not isinstance(nInputPlane, (int, np.integer)) or isinstance(nInputPlane, bool) or nInputPlane < 1:
            raise ValueError(f"SpatialNormalization: nInputPlane must be a positive integer, got {nInputPlane!r}")
        if threshold is not None and (not isinstance(threshold, numbers.Real) or isinstance(threshold, bool)):
            raise TypeError(f"SpatialNormalization: threshold must be a number or None, got {threshold!r}")
        kernels = list(kernel) if isinstance(kernel, (list, tuple)) else [kernel]
        if not 1 <= len(kernels) <= 2 or not all(isinstance(k, np.ndarray) and k.ndim == 2 and k.size
                                                 and k.sum() != 0 for k in kernels):
            raise ValueError("SpatialNormalization: kernel must be a 2D array, or a pair of 2D arrays, with a "
                             "nonzero sum")
        kernels = [np.asarray(k, dtype=np.float64) / k.sum() for k in kernels]
        self.nfeatures = int(nInputPlane)
        self.kernel = kernels if len(kernels) == 2 else kernels[0]
        self.fixedThres = None if threshold is None else float(threshold)
        self.convo = self._filter(kernels)
        self.convostd = self._filter(kernels)

    def _filter(self, kernels):
        steps = []
        for k in kernels:
            kh, kw = k.shape
            step = Sequential()
            step.add(SpatialPadding(kw // 2, kw // 2 - (1 - kw % 2), kh // 2, kh // 2 - (1 - kh % 2)))
            conv = SpatialConvolutionMap(SpatialConvolutionMap.oneToOne(self.nfeatures), kw, kh)
            conv.weight[...] = k
            conv.bias.fill(0)
            step.add(conv).add(Sum(0)).add(Replicate(self.nfeatures))
            steps.append(step)
        return steps[0] if len(steps) == 1 else Sequential(*steps)

    def _t7_fixup(self, version):
        self.nfeatures = int(self.nfeatures)
        threshold = getattr(self, "fixedThres", None)
        self.fixedThres = None if threshold is None else float(threshold)
        for name in ("coef", "inConvo", "inMean", "inputZeroMean", "inputZeroMeanSq", "inConvoVar", "inVar",
                     "inStdDev", "inStdDevNotUnit", "thstd", "stdDev", "input", "squareMod", "sqrtMod",
                     "subtractMod", "meanDiviseMod", "stdDiviseMod", "diviseMod", "thresMod", "padW", "padH",
                     "pad2W", "pad2H", "kerWisPair", "kerHisPair", "ker2WisPair", "ker2HisPair"):
            self.__dict__.pop(name, None)   # nnx's work tensors and element-wise helpers

    def _samples(self, input, name="input"):
        xp = array_namespace(input)
        self._kernels(input, name)
        if input.ndim not in (2, 3, 4) or (input.ndim > 2 and input.shape[-3] != self.nfeatures) \
                or (input.ndim == 2 and self.nfeatures != 1):
            raise ValueError(f"{name_of(self)}: {name} must be 3D [{self.nfeatures}, height, width] or 4D "
                             f"[batch, {self.nfeatures}, height, width] (or 2D for one plane), got {describe(input)}")
        x = xp.ascontiguousarray(input)
        if x.ndim == 2:
            return x[None, None]
        return x if x.ndim == 4 else x[None]

    def _step(self, x):
        """The forward of one sample [planes, H, W]; leaves convo at x and convostd at zm^2."""
        xp = array_namespace(x)
        coef = self.convo.forward(xp.ones_like(x)).copy()
        mean = self.convo.forward(x) / coef
        zm = x - mean
        root = xp.sqrt(self.convostd.forward(zm * zm))
        std = root / coef
        t = self.fixedThres if self.fixedThres is not None else max(float(std.mean()), 1e-3)
        kept = std > t
        divisor = xp.where(kept, std, t)
        return coef, zm, root, kept, divisor

    def _dtype(self):
        return self.convo.type()   # the filters' (converted by float() / double())

    def updateOutput(self, input):
        xp = array_namespace(input)
        outs = [s[1] / s[4] for s in map(self._step, self._samples(input))]
        self.output = reuse(self.output, input.shape, input.dtype, input)
        if outs:   # (a batch of no samples has nothing to normalise)
            self.output[...] = xp.stack(outs).reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        xs = self._samples(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        gs = xp.ascontiguousarray(gradOutput).reshape(xs.shape)
        grads = []
        for x, g in zip(xs, gs):
            coef, zm, root, kept, divisor = self._step(x)
            g_zm = g / divisor
            g_std = xp.where(kept, -g * zm / (divisor * divisor), 0)
            g_var = xp.divide(g_std / coef * 0.5, root, out=xp.zeros_like(root), where=root > 0)
            g_zm = g_zm + 2 * zm * self.convostd.updateGradInput(zm * zm, g_var)
            grads.append(g_zm + self.convo.updateGradInput(x, -g_zm / coef))
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        if grads:
            self.gradInput[...] = xp.stack(grads).reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        shapes = [k.shape for k in (self.kernel if isinstance(self.kernel, list) else [self.kernel])]
        kernel = " then ".join(f"{h}x{w}" for h, w in shapes)
        threshold = "adaptive" if self.fixedThres is None else f"{self.fixedThres:g}"
        return f"nn.SpatialNormalization({self.nfeatures}, kernel {kernel}, threshold {threshold})"

    def _onnx(self, g, x, y):
        """per sample: C(v) = Pad, Conv (a group per plane), ReduceSum over the planes, Expand; (x - C(x) / C(1))
        divided by sqrt(C(zm^2)) / C(1) or by the threshold where that is below it (Where)"""
        c, (h, w) = self.nfeatures, x.shape[-2:]
        coef = g.const(self.convo.forward(np.ones((c, h, w), x.dtype)).copy(), "coef")   # C(1), [c, H, W]

        def filtered(v, filt):
            for step in (filt.modules if isinstance(filt.modules[0], Sequential) else [filt]):
                pad, conv = step.modules[0], step.modules[1]
                v = g.pad(v, [0, 0, pad.pad_t, pad.pad_l], [0, 0, pad.pad_b, pad.pad_r])
                v = g.op("Conv", [v, g.param(conv.weight[:, None], "filter")], kernel_shape=[conv.kH, conv.kW],
                         group=c)
                v = g.op("Expand", [g.op("ReduceSum", [v, g.ints([1])], keepdims=1), g.ints([1, c, 1, 1])])
            return v

        def build(v):
            zm = g.op("Sub", [v, g.op("Div", [filtered(v, self.convo), coef])])
            std = g.op("Div", [g.op("Sqrt", [filtered(g.op("Mul", [zm, zm]), self.convostd)]), coef])
            if self.fixedThres is not None:
                t = np.array(self.fixedThres)
            else:
                t = g.op("Max", [g.op("ReduceMean", [std, g.ints([1, 2, 3])], keepdims=1), np.array(1e-3)])
            return g.op("Div", [zm, g.op("Where", [g.op("Greater", [std, t]), std, t])])
        if x.ndim == 2:   # one plane
            out = build(g.op("Reshape", [x, g.ints([1, 1, h, w])]))
            return g.op("Reshape", [out, g.ints([h, w])])
        return g.with_batch(x, 4, build)
