import numpy as np

from ._helpers.arrays import check_float_array, describe, reuse
from .Module import Module, uniform
from .Threshold import Threshold


class BatchNormalization(Module):
    """Batch normalization over the channels of ``[batch, nOutput]`` input::

        y = (x - mean[c]) / sqrt(var[c] + eps) * weight[c] + bias[c]

    for every element of channel ``c`` (dim 1).  ``SpatialBatchNormalization``
    (``[batch, nOutput, h, w]``) and ``VolumetricBatchNormalization``
    (``[batch, nOutput, t, h, w]``) are this module with more dims after the
    channel; ``mean``/``var`` are then taken over the batch and every
    position.

    In training (the default), ``mean`` and the biased ``var`` come from the
    batch (which must hold more than one value per channel), and the running
    statistics move towards them, with ``n`` the values per channel::

        running_mean = momentum * mean + (1 - momentum) * running_mean
        running_var  = momentum * var * n / (n - 1) + (1 - momentum) * running_var

    After ``evaluate()``, ``running_mean``/``running_var`` are used instead and
    the input may also be one sample without the batch dim.  With
    ``affine=False`` there is no ``weight``/``bias`` (1 and 0).

    Gradients, with ``xhat = (x - mean) / sqrt(var + eps)`` and sums over the
    values of a channel: ``dL/dweight += scale * sum(xhat * dL/dy)``,
    ``dL/dbias += scale * sum(dL/dy)``; in training
    ``dL/dx = weight / sqrt(var + eps) * (dL/dy - sum(dL/dy) / n - xhat *
    sum(xhat * dL/dy) / n)`` (the batch statistics depend on x), in
    evaluation ``dL/dx = weight / sqrt(var + eps) * dL/dy``.

    As in Torch7: ``weight`` starts U(0, 1), ``bias`` 0, ``running_mean`` 0,
    ``running_var`` 1; the batch mean and ``1 / sqrt(var + eps)`` of the last
    training forward are kept in ``save_mean`` and ``save_std`` for backward.
    """

    _kernel = "BatchNormalization"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("save_mean", "save_std")
    #: the step clones of a recurrent module share these (as dpnn's clones did): one set of running averages
    _clone_shared = ("running_mean", "running_var")
    #: dims of a batch of input (the input may have one less in evaluation)
    nDim = 2

    def __init__(self, nOutput, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()
        name = type(self).__name__
        if isinstance(nOutput, bool) or not isinstance(nOutput, (int, np.integer)) or nOutput < 1:
            raise ValueError(f"{name}: nOutput must be a positive integer, got {nOutput!r}")
        if not eps >= 0:
            raise ValueError(f"{name}: eps must be >= 0, got {eps!r}")
        self.eps = float(eps)
        self.momentum = float(momentum)
        self.affine = bool(affine)
        self.running_mean = np.zeros(int(nOutput))
        self.running_var = np.ones(int(nOutput))
        self.weight = self.bias = self.gradWeight = self.gradBias = None
        if self.affine:
            self.weight = np.zeros(int(nOutput))
            self.bias = np.zeros(int(nOutput))
            self.gradWeight = np.zeros(int(nOutput))
            self.gradBias = np.zeros(int(nOutput))
        self.save_mean = self.save_std = None
        self.reset()

    def reset(self, stdv=None):
        if self.weight is not None:
            self.weight[...] = 0.5 + uniform(self.weight.shape, 0.5, self.weight.dtype)  # U(0, 1)
            self.bias.fill(0)
        self.running_mean.fill(0)
        self.running_var.fill(1)
        return self

    def _dtype(self):
        return self.running_mean.dtype

    # ---- shapes ----
    def _layout(self):
        n = self.running_mean.shape[0]
        dims = ", ".join(["batch", str(n)] + ["t", "h", "w"][5 - self.nDim:])
        return f"{self.nDim}D [{dims}]", n

    def _batched(self, array, name):
        """array as a batch (a view with a batch dim of 1 for one sample in
        evaluation), after checking its layout."""
        check_float_array(self, array, name)
        layout, n = self._layout()
        one = array.ndim == self.nDim - 1 and not self.train
        if (array.ndim != self.nDim and not one) or array.shape[0 if one else 1] != n:
            sample = f" (or {self.nDim - 1}D without the batch dim in evaluation)"
            raise ValueError(f"{type(self).__name__}: {name} must be {layout}{sample}, got {describe(array)}")
        return array.reshape((1,) + array.shape) if one else array

    @staticmethod
    def _into(buffer, batched_shape, sample):
        """The array the kernel may write into: ``buffer`` when it has the
        shape (seen with a batch dim of 1 for one sample), else None."""
        if buffer is None:
            return None
        if sample:
            return buffer.reshape((1,) + buffer.shape) if buffer.shape == batched_shape[1:] else None
        return buffer if buffer.shape == batched_shape else None

    # ---- the verbs ----
    def updateOutput(self, input):
        return self._forward(input, None)

    def _forward(self, input, threshold):
        """updateOutput; with ``threshold`` (an in-place Threshold, in
        evaluation) that module's forward pass too, in the same pass."""
        x = self._batched(input, "input")
        sample = x is not input
        target = self._into(self.output, x.shape, sample)
        if threshold is None:
            out, save_mean, save_std = self._kernel_of(input, "updateOutput")(
                x, target, self.weight, self.bias, self.running_mean, self.running_var,
                self.save_mean, self.save_std, self.train, self.momentum, self.eps)
            if self.train:
                self.save_mean, self.save_std = save_mean, save_std
        else:
            out = self._kernel_of(input, "evaluateThreshold")(
                x, target, self.weight, self.bias, self.running_mean, self.running_var, self.eps,
                threshold.threshold, threshold.val)
        if out is not target:                    # a new array: the shape changed
            self.output = out.reshape(out.shape[1:]) if sample else out
        return self.output

    def _fuse_next(self, following, input):
        """Sequential's step for this module and the ``following`` one: in
        evaluation, when that one is an in-place Threshold (Torch7's
        ``ReLU(true)``), which would overwrite this output anyway, one pass
        writes the thresholded output, and both modules' ``output`` are then
        the array the two separate steps leave, with the same values.  None
        (nothing done) otherwise."""
        if self.train or not (isinstance(following, Threshold) and following._fusable()):
            return None
        following.output = self._forward(input, following)
        return following.output

    def _backward(self, input, gradOutput, scale, gradInput, gradParams):
        kernels = self._kernels(input)
        x = self._batched(input, "input")
        g = self._batched(gradOutput, "gradOutput")
        if g.shape != x.shape:
            raise ValueError(f"{type(self).__name__}: gradOutput must be of size "
                             f"[{', '.join(map(str, input.shape))}] like the input, got {describe(gradOutput)}")
        if self.train and self.save_mean is None:
            raise ValueError(f"{type(self).__name__}: backward in training needs a forward in training first")
        gi = None
        if gradInput:
            self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
            gi = self.gradInput.reshape((1,) + self.gradInput.shape) if x is not input else self.gradInput
        gw, gb = (self.gradWeight, self.gradBias) if gradParams else (None, None)
        kernels.BatchNormalization_backward(
            x, g, gi, gw, gb, self.weight, self.running_mean, self.running_var,
            self.save_mean if self.train else None, self.save_std if self.train else None,
            self.train, scale, self.eps)
        return self.gradInput

    def backward(self, input, gradOutput, scale=1):
        return self._backward(input, gradOutput, scale, True, self.weight is not None)

    def updateGradInput(self, input, gradOutput):
        return self._backward(input, gradOutput, 1, True, False)

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.weight is not None:
            self._backward(input, gradOutput, scale, False, True)

    # ---- Torch7 files ----
    _t7_version = 2   # Torch7's class version: running_var, not running_std (save_lua writes it)

    def _t7_fixup(self, version):
        """Class version 1 kept running_std = 1 / sqrt(running_var + eps)."""
        self.eps = float(getattr(self, "eps", 1e-5))
        self.momentum = float(getattr(self, "momentum", 0.1))
        if version < 2 and getattr(self, "running_std", None) is not None:
            self.running_var = self.running_std.astype(np.float64) ** -2 - self.eps
            self.running_var = self.running_var.astype(self.running_std.dtype)
        self.__dict__.pop("running_std", None)
        self.affine = self.weight is not None
        if not self.affine:
            self.bias = self.gradWeight = self.gradBias = None
        for name in ("_input", "_gradOutput"):   # Torch7's contiguous copies
            self.__dict__.pop(name, None)
        self.save_mean = self.save_std = None    # uninitialised memory in the files
        self.gradInput = None

    def __repr__(self):
        return f"nn.{type(self).__name__} ({self.nDim}D) ({self.running_mean.shape[0]})"

    def _onnx(self, g, x, y):
        """BatchNormalization with the running statistics"""
        n = self.running_mean.shape[0]
        scale = g.param(self.weight, "weight") if self.weight is not None else np.ones(n)
        shift = g.param(self.bias, "bias") if self.bias is not None else np.zeros(n)
        var = self.running_var
        if not g.exact(self.eps):   # ONNX's epsilon is a float32: the float64 variance takes the difference
            var = var + (self.eps - float(np.float32(self.eps)))
        mean, var = g.param(self.running_mean, "running_mean"), g.param(var, "running_var")
        return g.with_batch(x, self.nDim, lambda v: g.op("BatchNormalization", [v, scale, shift, mean, var],
                                                         epsilon=self.eps))
