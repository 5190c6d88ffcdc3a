import numbers

import numpy as np

from ._helpers.arrays import check_like, describe, name_of, reuse
from ._helpers.namespace import array_namespace
from ._helpers.planes import check_planes
from .Module import Module, uniform


class InstanceNormalization(Module):
    """Each plane of each sample normalized by its own statistics, then
    scaled and shifted per plane (Ulyanov, Vedaldi and Lempitsky 2016; the
    ``nn.InstanceNormalization`` that fast-neural-style and CycleGAN defined)::

        mean[n, c] = mean of input[n, c] over H, W
        var[n, c]  = mean of (input[n, c] - mean[n, c])^2   (biased)
        xhat       = (input - mean) / sqrt(var + eps)
        output[n, c] = weight[c] * xhat[n, c] + bias[c]

    input ``[nOutput, H, W]`` (one sample) or ``[batch, nOutput, H, W]``.
    The statistics are always the sample's own, in training and in
    evaluation alike (both Lua layers ran a SpatialBatchNormalization over
    one sample of batch*nOutput planes, in training mode).  With
    ``affine=False`` there is no weight or bias (CycleGAN's option).

    Gradients, per plane of m = H*W values, with ``g = dL/doutput * weight``:
    ``dL/dx = (g - mean(g) - xhat * mean(g * xhat)) / sqrt(var + eps)``;
    ``dL/dweight[c] += scale * sum over n, H, W of dL/doutput * xhat`` and
    ``dL/dbias[c] += scale * sum of dL/doutput``.  reset() draws weight from
    U(0, 1) and zeroes bias, as the Lua layers did.  Files of either Lua
    layer load (their running_mean / running_var, which neither used to
    compute, are kept as they are).
    """

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, nOutput, eps=1e-5, momentum=0.0, affine=True):
        super().__init__()
        if not isinstance(nOutput, (int, np.integer)) or isinstance(nOutput, bool) or nOutput < 1:
            raise ValueError(f"InstanceNormalization: nOutput must be a positive integer, got {nOutput!r}")
        for name, value in (("eps", eps), ("momentum", momentum)):
            if not isinstance(value, numbers.Real) or isinstance(value, bool) or value < 0:
                raise ValueError(f"InstanceNormalization: {name} must be a number >= 0, got {value!r}")
        self.nOutput, self.eps, self.momentum, self.affine = int(nOutput), float(eps), float(momentum), bool(affine)
        self.weight = np.zeros(self.nOutput) if self.affine else None
        self.bias = np.zeros(self.nOutput) if self.affine else None
        self.gradWeight = np.zeros(self.nOutput) if self.affine else None
        self.gradBias = np.zeros(self.nOutput) if self.affine else None
        self.reset()

    def reset(self, stdv=None):
        if self.weight is not None:
            self.weight[...] = uniform(self.weight.shape, 0.5, self.weight.dtype) + 0.5   # U(0, 1)
            self.bias.fill(0)
        return self

    def _t7_fixup(self, version):
        self.nOutput = int(self.nOutput)
        self.eps = float(getattr(self, "eps", 1e-5))
        self.momentum = float(getattr(self, "momentum", 0.0))
        self.affine = self.weight is not None
        for name in ("bn", "prev_N", "prev_batch_size"):   # the Lua layers' inner BatchNormalization
            self.__dict__.pop(name, None)

    def _statistics(self, input):
        """input as [batch, planes, H*W], xhat of the same shape and 1/sqrt(var + eps) [batch, planes, 1]."""
        xp = array_namespace(input)
        self._kernels(input)
        batched = check_planes(self, input)
        if input.shape[-3] != self.nOutput:
            raise ValueError(f"{name_of(self)}: input must have nOutput = {self.nOutput} planes "
                             f"(dim {input.ndim - 3}), got {describe(input)}")
        if input.shape[-1] * input.shape[-2] == 0:
            raise ValueError(f"{name_of(self)}: input planes must not be empty, got {describe(input)}")
        x = xp.ascontiguousarray(input).reshape((input.shape[0] if batched else 1), self.nOutput,
                                                input.shape[-2] * input.shape[-1])
        centred = x - x.mean(axis=2, keepdims=True)
        inv_std = 1 / xp.sqrt((centred * centred).mean(axis=2, keepdims=True) + self.eps)
        return x, centred * inv_std, inv_std

    def _scaled(self, values, dtype):
        xp = array_namespace(values)
        w = xp.ones(self.nOutput, dtype) if self.weight is None else self.weight
        return values * w[None, :, None]

    def updateOutput(self, input):
        _, xhat, _ = self._statistics(input)
        y = self._scaled(xhat, input.dtype)
        if self.bias is not None:
            y = y + self.bias[None, :, None]
        self.output = reuse(self.output, input.shape, input.dtype, input)
        self.output[...] = y.reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        x, xhat, inv_std = self._statistics(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        g = self._scaled(xp.ascontiguousarray(gradOutput).reshape(x.shape), input.dtype)
        grad = (g - g.mean(axis=2, keepdims=True) - xhat * (g * xhat).mean(axis=2, keepdims=True)) * inv_std
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = grad.reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        if self.weight is None:
            return
        x, xhat, _ = self._statistics(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        g = xp.ascontiguousarray(gradOutput).reshape(x.shape)
        self.gradWeight += scale * (g * xhat).sum(axis=(0, 2))
        self.gradBias += scale * g.sum(axis=(0, 2))

    def __repr__(self):
        extra = "" if self.affine else ", affine=False"
        return f"nn.InstanceNormalization({self.nOutput}, eps={self.eps:g}{extra})"

    def _onnx(self, g, x, y):
        """InstanceNormalization (in float64 with an eps float32 does not hold: ReduceMean, Sub, Div by Sqrt)"""
        n = self.nOutput
        weight = self.weight if self.weight is not None else np.ones(n, g.float)
        bias = self.bias if self.bias is not None else np.zeros(n, g.float)
        if g.exact(self.eps):
            scale, shift = g.param(weight, "weight"), g.param(bias, "bias")
            return g.with_batch(x, 4, lambda v: g.op("InstanceNormalization", [v, scale, shift], epsilon=self.eps))
        scale, shift = g.param(weight.reshape(n, 1, 1), "weight"), g.param(bias.reshape(n, 1, 1), "bias")

        def build(v):   # each plane by its own mean and (biased) variance
            axes = g.ints([2, 3])
            centred = g.op("Sub", [v, g.op("ReduceMean", [v, axes], keepdims=1)])
            variance = g.op("ReduceMean", [g.op("Mul", [centred, centred]), axes], keepdims=1)
            xhat = g.op("Div", [centred, g.op("Sqrt", [g.op("Add", [variance, np.array(self.eps)])])])
            return g.op("Add", [g.op("Mul", [xhat, scale]), shift])
        return g.with_batch(x, 4, build)
