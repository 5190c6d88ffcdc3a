import numbers

import numpy as np

from ._helpers.arrays import check_like, name_of, reuse
from ._bases.dims import check_int, lua_int
from ._helpers.namespace import array_namespace
from ._helpers.planes import as_batch, check_planes
from .Module import Module


class SpatialCrossMapLRN(Module):
    """Local response normalisation across planes (Krizhevsky et al. 2012),
    at every pixel::

        scale[c] = k + alpha / size * sum of x[d]^2 over the planes d of window(c)
        y[c]     = x[c] * scale[c]^(-beta)

    where window(c) holds the planes ``c - size//2`` to ``c + (size-1)//2``
    that exist: centred on c for an odd size, as in Torch7 (the sum is still
    divided by ``size`` where the window is cut at the first or last plane).
    For an even size, where Torch7's Lua code indexed half planes, the window
    has one plane more before c than after, as PyTorch's
    ``local_response_norm``, which computes the same normalisation.

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``, float.

    Gradient::

        dL/dx[d] = dL/dy[d] scale[d]^(-beta)
                   - 2 alpha beta / size * x[d] * sum of dL/dy[c] y[c] / scale[c]
                     over the planes c whose window holds d

    Torch7's defaults: ``alpha = 1e-4``, ``beta = 0.75``, ``k = 1``.
    """

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = check_int(self, size, "size", 1)
        for name, value in (("alpha", alpha), ("beta", beta), ("k", k)):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise TypeError(f"{name_of(self)}: {name} must be a number, got {value!r}")
            setattr(self, name, float(value))

    def _t7_fixup(self, version):
        self.size = lua_int(self.size)
        for name in ("scale", "paddedRatio", "accumRatio"):   # Torch7's work buffers
            self.__dict__.pop(name, None)

    def _scale(self, x):
        """scale for the contiguous batch x ``[batch, planes, H, W]``."""
        square_sums = _window_sum(x * x, self.size // 2, (self.size - 1) // 2)
        return square_sums * (self.alpha / self.size) + self.k

    def updateOutput(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        batched = check_planes(self, input)
        x = as_batch(xp.ascontiguousarray(input), batched)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        with np.errstate(all="ignore"):
            as_batch(self.output, batched)[...] = x * self._scale(x) ** -self.beta
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        self._kernels(input)
        batched = check_planes(self, input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        x = as_batch(xp.ascontiguousarray(input), batched)
        g = as_batch(xp.ascontiguousarray(gradOutput), batched)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        with np.errstate(all="ignore"):
            scale = self._scale(x)
            powered = scale ** -self.beta            # y = x * powered
            ratio = g * x * powered / scale          # dL/dy[c] y[c] / scale[c]
            spread = _window_sum(ratio, (self.size - 1) // 2, self.size // 2)
            as_batch(self.gradInput, batched)[...] = \
                g * powered - (2 * self.alpha * self.beta / self.size) * x * spread
        return self.gradInput

    def __repr__(self):
        return f"nn.SpatialCrossMapLRN({self.size}, alpha={self.alpha:g}, beta={self.beta:g}, k={self.k:g})"

    def _onnx(self, g, x, y):
        """LRN (an even size, whose window is off centre, or float64 with constants float32 does not hold: a
        sum by Conv, Pow, Mul)"""
        if self.size % 2 and all(g.exact(v) for v in (self.alpha, self.beta, self.k)):
            return g.with_batch(x, 4, lambda v: g.op("LRN", [v], size=self.size, alpha=self.alpha, beta=self.beta,
                                                     bias=self.k))

        def build(v):   # scale = k + alpha / size * (window sum of x^2 over the planes), y = x * scale^-beta
            squares = g.op("Unsqueeze", [g.op("Mul", [v, v]), g.ints([1])])          # [batch, 1, planes, H, W]
            ones = np.ones((1, 1, self.size, 1, 1))
            sums = g.op("Conv", [squares, ones], kernel_shape=[self.size, 1, 1],
                        pads=[self.size // 2, 0, 0, (self.size - 1) // 2, 0, 0])
            scale = g.op("Add", [g.op("Mul", [g.op("Squeeze", [sums, g.ints([1])]),
                                              np.array(self.alpha / self.size)]), np.array(self.k)])
            return g.op("Mul", [v, g.op("Pow", [scale, np.array(-self.beta)])])
        return g.with_batch(x, 4, build)


def _window_sum(v, before, after):
    """out[:, c] = sum of v[:, d] for d from c - before to c + after (the
    planes that exist), for v ``[batch, planes, H, W]``."""
    n = v.shape[1]
    out = array_namespace(v).zeros_like(v)
    for offset in range(-before, after + 1):
        lo, hi = max(0, -offset), min(n, n - offset)
        if lo < hi:
            out[:, lo:hi] += v[:, lo + offset:hi + offset]
    return out
