"""The plumbing of SpatialSubtractiveNormalization and
SpatialDivisiveNormalization (not a layer itself; the math is in their
docstrings): the averaging kernel, and the local mean ``E`` over a kernel
window and all planes, computed by a SpatialZeroPadding followed by a
SpatialConvolution to one plane whose weights are the kernel, as in Torch7.
"""
import numbers

import numpy as np

from .._helpers.arrays import describe, name_of
from .dims import check_int, lua_int
from .._helpers.namespace import array_namespace
from .._helpers.planes import check_planes
from ..Module import Module
from ..Sequential import Sequential
from ..SpatialConvolution import SpatialConvolution
from ..SpatialZeroPadding import SpatialZeroPadding

# the fields of Torch7's modules that this implementation does not use
_TORCH7_INTERNALS = ("meanestimator", "stdestimator", "subtractor", "divider", "normalizer", "thresholder",
                     "coef", "_coef", "ones", "localsums", "adjustedsums", "localstds", "adjustedstds",
                     "thresholdedstds")


def checked_kernel(layer, kernel):
    """The averaging kernel as a float64 array: 1D or 2D, odd sizes (it has
    a centre), finite, with a nonzero sum.  None gives Torch7's default, a
    9x9 kernel of ones."""
    if kernel is None:
        return np.ones((9, 9))
    if not isinstance(kernel, np.ndarray) or kernel.dtype.kind not in "biuf":
        raise TypeError(f"{layer}: kernel must be a numpy array of numbers, got "
                        f"{kernel.dtype if isinstance(kernel, np.ndarray) else type(kernel).__name__}")
    if kernel.ndim not in (1, 2) or not all(n % 2 for n in kernel.shape):
        raise ValueError(f"{layer}: kernel must be 1D or 2D with odd sizes, got {describe(kernel)}")
    kernel = kernel.astype(np.float64)
    if not np.all(np.isfinite(kernel)) or kernel.sum() == 0:
        raise ValueError(f"{layer}: kernel must be finite with a nonzero sum, got sum {kernel.sum()}")
    return kernel


def check_input(module, input, nInputPlane):
    """input must be a float ``[nInputPlane, H, W]`` or ``[batch, nInputPlane, H, W]``."""
    module._kernels(input)
    check_planes(module, input)
    if input.shape[-3] != nInputPlane:
        raise ValueError(f"{name_of(module)}: input must have nInputPlane = {nInputPlane} planes "
                         f"(dim {input.ndim - 3}), got {describe(input)}")


def checked_number(layer, name, value):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{layer}: {name} must be a number, got {value!r}")
    return float(value)


class LocalMean(Module):
    """The base of the spatial normalizations: holds ``nInputPlane``, the
    kernel (scaled to sum ``1 / nInputPlane``, as Torch7 kept it) and the
    estimator ``E``; ``coef = E(1)`` is cached per plane size."""

    _buffer_names = ("coef",)

    def __init__(self, nInputPlane=1, kernel=None):
        super().__init__()
        self.nInputPlane = check_int(self, nInputPlane, "nInputPlane", 1)
        kernel = checked_kernel(name_of(self), kernel)
        self.kernel = kernel / (kernel.sum() * self.nInputPlane)
        self._build()

    def _build(self):
        """The estimator E for the kernel, and no coef yet."""
        kH, kW = self._weights().shape
        conv = SpatialConvolution(self.nInputPlane, 1, kW, kH).noBias()
        self.meanestimator = Sequential(SpatialZeroPadding(kW // 2, kW // 2, kH // 2, kH // 2), conv)
        self._set_weights(self.kernel.dtype)
        self.coef = None

    def _weights(self):
        """The weights of every plane: ``kernel2d / (nInputPlane * sum(kernel2d))``
        in float64, where a 1D kernel k stands for ``kernel2d = outer(k, k)``
        (Torch7 ran it along the rows, then along the columns)."""
        k = self.kernel.astype(np.float64)
        weights = k if k.ndim == 2 else array_namespace(k).outer(k, k)
        return weights / (weights.sum() * self.nInputPlane)

    def _set_weights(self, dtype):
        """The estimator in dtype, its weights rounded once from the kernel
        (so switching precision back and forth loses nothing)."""
        self.meanestimator.type(dtype)
        conv = self.meanestimator.modules[1]
        conv.weight[0] = self._weights()

    def _t7_fixup(self, version):
        """Torch7 kept the estimators as nested modules and buffers; they are rebuilt here from the kernel."""
        for name in _TORCH7_INTERNALS:
            self.__dict__.pop(name, None)
        self.nInputPlane = lua_int(self.nInputPlane)
        self.kernel = checked_kernel(name_of(self), self.kernel)
        self.kernel = self.kernel / (self.kernel.sum() * self.nInputPlane)
        self._build()

    def _check(self, input):
        """Checks input; returns ``coef = E(1)`` ``[1, H, W]`` for its plane size."""
        check_input(self, input, self.nInputPlane)
        if self.meanestimator._dtype() != input.dtype:   # the fixed weights follow the input's precision
            self._set_weights(input.dtype)
        if self.coef is None or self.coef.shape[-2:] != input.shape[-2:] or self.coef.dtype != input.dtype:
            ones = array_namespace(input).ones((self.nInputPlane,) + input.shape[-2:], dtype=input.dtype)
            self.coef = self.meanestimator.forward(ones).copy()   # [1, H, W]
        return self.coef

    def _mean(self, x):
        """E(x): ``[..., 1, H, W]`` for x ``[..., nInputPlane, H, W]``."""
        return self.meanestimator.forward(x).copy()

    def _mean_backward(self, x, grad):
        """The gradient w.r.t. x of ``sum(grad * E(x))`` (E is linear)."""
        self.meanestimator.forward(x)
        return self.meanestimator.updateGradInput(x, grad).copy()

    def clearState(self):
        super().clearState()
        self.meanestimator.clearState()
        return self

    def __repr__(self):
        return f"nn.{name_of(self)}({self.nInputPlane}, kernel {'x'.join(map(str, self.kernel.shape))})"

    def _onnx_mean(self, g, x, v=None):
        """E(v) (v: x's name, or another name of x's shape) by Conv, and the coef E(1) as a constant."""
        coef = g.const(self._check(x.value), "coef")
        conv = self.meanestimator.modules[1]
        weight = g.param(conv.weight, "weight")
        kH, kW = conv.weight.shape[-2:]
        mean = g.conv(type(x)(g, x.name if v is None else v, x.value), weight, None, (kH, kW), (1, 1),
                      (kH // 2, kW // 2))
        return mean, coef
