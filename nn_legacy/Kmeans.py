import math

import numpy as np

from ._helpers.arrays import check_float_array, describe, name_of, reuse
from ._helpers.namespace import array_namespace
from ._helpers.random import generator
from .Module import Module, uniform


class Kmeans(Module):
    """Online (hard) k-means as a layer (Lua nn's Kmeans): ``k`` centres of
    ``dim`` features in ``weight`` ``[k, dim]``.

    forward takes a batch ``[batch, dim]`` and returns, for each sample, the
    0-based index of its nearest centre (squared Euclidean distance; the
    lower index on ties), as an array of the input's dtype (Torch7 gave
    1-based ones); ``loss`` is the sum of those squared distances.
    gradInput is zero: the centres are trained by the k-means rule, not by
    a gradient flowing back.

    accGradParameters assigns each sample to its nearest centre (the
    input's, computed again) and accumulates, for each centre c with n
    samples x_i, ``gradWeight[c] += -s * sum_i (x_i - c) / (n + 1e-7)``
    where s is the ``scale`` given to the constructor if any, else the one
    given to the call (it must be positive).  ``updateParameters(1)`` then
    moves each centre by s times the mean offset of its samples: with s = 1
    onto their mean.  (This is half the gradient of ``loss`` divided by n:
    the tests check it against that.)  ``clusterSampleCount`` holds the n
    of the last call.

    ``reset(stdev=1)`` draws the centres from U(-stdev, stdev);
    ``initRandom(x)`` copies k samples drawn from the rows of x (with
    replacement, as Torch7), ``initKmeansPlus(x, p=0.95)`` picks them the
    k-means++ way: each next centre among the ``ceil((1 - p) * len(x))``
    samples farthest from the centres so far.
    """

    _integer_arguments = ("k", "dim")

    def __init__(self, k, dim, scale=None):
        super().__init__()
        if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in (k, dim)):
            raise ValueError(f"Kmeans: k and dim must be positive integers, got k={k!r}, dim={dim!r}")
        if scale is not None and not scale > 0:
            raise ValueError(f"Kmeans: scale must be positive, got {scale!r}")
        self.k, self.dim = k, dim
        self.scale = None if scale is None else float(scale)
        self.weight = np.zeros((k, dim))
        self.gradWeight = np.zeros((k, dim))
        self.loss = 0.0
        self.clusterSampleCount = np.zeros(k)
        self.reset()

    def _t7_fixup(self, version):
        self.k, self.dim = int(self.k), int(self.dim)
        self.scale = None if getattr(self, "scale", None) is None else float(self.scale)
        self.loss = float(getattr(self, "loss", 0.0))
        for name in list(vars(self)):
            if name.startswith("_"):   # Torch7's work tensors (1-based indices among them)
                del self.__dict__[name]

    def reset(self, stdev=None):
        self.weight[...] = uniform(self.weight.shape, 1 if stdev is None else stdev, self.weight.dtype)
        return self

    def _samples(self, input):
        check_float_array(self, input, "input")
        self._kernels(input)
        if input.ndim != 2 or input.shape[1] != self.dim:
            raise ValueError(f"{name_of(self)}: input must be 2D [batch, {self.dim}], got {describe(input)}")
        return array_namespace(input).ascontiguousarray(input)

    def _nearest(self, x):
        """(index of each sample's nearest centre, its squared distance)."""
        xp = array_namespace(x)
        distances = ((x[None, :, :] - self.weight[:, None, :]) ** 2).sum(axis=2)   # [k, batch]
        nearest = xp.argmin(distances, axis=0)
        return nearest, distances[nearest, xp.arange(x.shape[0])]

    def updateOutput(self, input):
        x = self._samples(input)
        nearest, distance = self._nearest(x)
        self.loss = float(distance.sum())
        self.output = reuse(self.output, (x.shape[0],), input.dtype, input)
        self.output[...] = nearest
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._samples(input)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput.fill(0)
        return self.gradInput

    def _rule(self, input, scale):
        """The k-means step for input: -s * (mean offset of each centre's samples)."""
        x = self._samples(input)
        s = self.scale if self.scale is not None else scale
        if not s > 0:
            raise ValueError(f"{name_of(self)}: scale must be positive, got {s!r}")
        nearest, _ = self._nearest(x)
        xp = array_namespace(x)
        self.clusterSampleCount = xp.bincount(nearest, minlength=self.k).astype(self.weight.dtype)
        offsets = xp.zeros_like(self.weight)
        xp.add.at(offsets, nearest, x - self.weight[nearest])
        return -s * offsets / (self.clusterSampleCount[:, None] + 1e-7)

    def accGradParameters(self, input, gradOutput, scale=1):
        self.gradWeight += self._rule(input, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """weight -= lr * the step accGradParameters would add (scale 1, or the constructor's)."""
        self.weight -= lr * self._rule(input, 1)

    def initRandom(self, input):
        x = self._samples(input)
        if x.shape[0] < self.k:
            raise ValueError(f"{name_of(self)}: initRandom needs at least k = {self.k} samples, got {x.shape[0]}")
        self.weight[...] = x[generator().integers(0, x.shape[0], size=self.k)]
        return self

    def initKmeansPlus(self, input, p=None):
        x = self._samples(input)
        self.p = getattr(self, "p", 0.95) if p is None else float(p)
        if not 0 <= self.p <= 1:
            raise ValueError(f"{name_of(self)}: p must be in [0, 1], got {self.p!r}")
        n = x.shape[0]
        count = max(math.ceil((1 - self.p) * n), 1)
        self.weight[0] = x[generator().integers(0, n)]
        xp = array_namespace(x)
        nearest = xp.full(n, np.inf)
        for c in range(1, self.k):
            nearest = xp.minimum(nearest, ((x - self.weight[c - 1]) ** 2).sum(axis=1))
            farthest = xp.argsort(-nearest, kind="stable")[:count]
            self.weight[c] = x[farthest[generator().integers(0, min(count, n))]]
        return self

    def __repr__(self):
        return f"nn.Kmeans({self.k}, {self.dim})"

    def _onnx(self, g, x, y):
        """ArgMin of the squared distances to the centres (ReduceSumSquare), Cast to the input's type"""
        diff = g.op("Sub", [g.op("Unsqueeze", [x, g.ints([1])]), g.param(self.weight, "weight")])   # [batch, k, dim]
        nearest = g.op("ArgMin", [g.op("ReduceSumSquare", [diff, g.ints([2])], keepdims=0)], axis=1, keepdims=0)
        from ._helpers.onnx_types import _ELEMENT_TYPES
        return g.op("Cast", [nearest], to=_ELEMENT_TYPES[y.dtype.name])
