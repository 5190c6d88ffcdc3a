import numpy as np

import thnn
from thnn.cuda import CudaTensor

from ._helpers import checks as _checks, threads as _threads
from ._helpers.backend import FLOATS as _FLOATS, Layer, check_float as _check_float
from ._helpers.backend import convert as _convert, device_kernels as _device_kernels, move as _move

_F32, _F64 = _FLOATS


class Criterion(Layer):
    """The base of every loss: forward(input, target) returns the loss as a
    Python float; backward(input, target) returns its gradient w.r.t. input
    (an array the criterion owns and reuses, like a module's gradInput)."""

    #: the THNN name of the criterion's kernels (subclasses inherit it); None for numpy criterions
    _kernel = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _threads.guard_verbs(cls)  # one thread at a time per criterion: see _threads
        _checks.integral_sizes(cls)  # sizes given as integral floats: see _checks
        if "type" in cls.__dict__:
            cls.type = _checks.torch_type_names(cls.type)

    def __init__(self):
        self.output = 0.0
        self.gradInput = None

    def forward(self, input, target):
        return self.updateOutput(input, target)

    def backward(self, input, target):
        return self.updateGradInput(input, target)

    def updateOutput(self, input, target):
        return self.output

    def updateGradInput(self, input, target):
        return self.gradInput

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return None
        dtype = _checks.float_dtype(self, dtype)
        memo = {} if _memo is None else _memo
        for key, value in vars(self).items():
            setattr(self, key, _convert(value, dtype, memo))
        return self

    def float(self):
        return self.type(np.float32)

    def double(self):
        return self.type(np.float64)

    _cuda_unsupported = None   # see Module.cuda

    def cuda(self, device=None):
        """Move the criterion's arrays to a CUDA device (see Module.cuda)."""
        from thnn import cuda
        return _move(self, device or cuda.module_default(), {})

    def clearState(self):
        self.gradInput = None
        return self

    def clone(self):
        import copy
        return copy.deepcopy(self)

    def __repr__(self):
        return f"nn.{type(self).__name__}"

    def _kernels(self, input):
        if type(input) is np.ndarray:   # the usual case first (identity tests: hashing a dtype is slow)
            if input.dtype is _F32:
                return thnn.Float
            if input.dtype is _F64:
                return thnn.Double
        if isinstance(input, CudaTensor):
            return _device_kernels(self, input, "input")
        if not isinstance(input, np.ndarray):
            raise TypeError(f"{type(self).__name__}: input must be a numpy array, got {type(input).__name__}")
        _check_float(self, input, "input")
        return thnn.backend(input.dtype)

    def _kernel_of(self, input, verb):
        """The kernel ``<_kernel>_<verb>`` for input's dtype and device."""
        return getattr(self._kernels(input), f"{self._kernel}_{verb}")

    def _index_target(self, input, target):
        """Class indices (a number, a list or an integer array) as an array,
        1D at least; for a device input, on its device (a host target is
        copied, as _float_target does)."""
        if not isinstance(target, (np.ndarray, CudaTensor)):
            target = np.array([target] if isinstance(target, (int, np.integer)) else target)
        if target.ndim == 0:
            target = target.reshape(1)
        if isinstance(input, CudaTensor) and isinstance(target, np.ndarray):
            return input.device.to_device(target)
        return target

    def _float_target(self, input, target):
        """A float target as an array of input's dtype (numbers and lists
        accepted); for a device input, on its device (a host target is copied).
        Its shape must be input's, size-1 dims aside (see check_pointwise_target)."""
        if isinstance(target, CudaTensor):
            if target.dtype != input.dtype:
                raise TypeError(f"{type(self).__name__}: target is {target.dtype} on the device, input {input.dtype}")
            _checks.check_pointwise_target(type(self).__name__, input.shape, target.shape)
            return target
        if not isinstance(target, np.ndarray):
            target = np.asarray(target, dtype=input.dtype)
        if target.dtype.kind not in "fiub":
            raise TypeError(f"{type(self).__name__}: target must be numeric, got {target.dtype}")
        if target.dtype != input.dtype:
            target = target.astype(input.dtype)
        _checks.check_pointwise_target(type(self).__name__, input.shape, target.shape)
        if isinstance(input, CudaTensor):
            return input.device.to_device(target)
        return target


Criterion.type = _checks.torch_type_names(Criterion.type)
_threads.guard_verbs(Criterion)
