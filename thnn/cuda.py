"""CUDA tensors and the CUDA twins of the kernels (thcunn_cu/).

    import thnn.cuda as cuda
    x = cuda.to_device(np.ones((4, 5), np.float32))    # a CudaTensor
    y = cuda.Cuda.Sigmoid_updateOutput(x, None)         # THNN_CudaSigmoid_updateOutput
    y.numpy()                                           # back to the host

Two devices can run the twins, both built from the same .cu sources:

- ``gpu()``: the nvcc build (``thnn._thcunn``) on a real GPU, when the
  package was built with nvcc and a device is present;
- ``emulator()``: the CPU emulation (``thnn._thcunn_emu``, always built
  unless THNN_EMULATOR=0 said not to),
  which runs the kernels block by block on the CPU (thcunn_cu/THCEmu.h).

``default()`` is the GPU when there is one, else the emulator; the module
level ``Cuda``, ``CudaDouble`` and ``to_device`` use it.  Tensors live on one
device and kernels only take tensors of their own device.

A kernel takes the same arguments as its CPU kernel (``thnn.Float.<name>``),
with CudaTensors in place of numpy arrays, and returns the CudaTensors of its
[OUT] and [BUFFER] arguments the same way.  Memory moves between host and
device only through ``to_device`` (and ``device.numpy.asarray``, an
assignment ``t[...] = array``) and ``CudaTensor.numpy``; ``from_dlpack`` and
``CudaTensor.__dlpack__`` share device memory with other libraries.

Each device also has the device tensor math (``device.math(real)``, the
functions of thcunn_cu/generic/THCTensorMath.h) and, built on it, numpy's
namespace for its tensors (``device.numpy``, thnn/_cuda_numpy.py).
"""
import dataclasses
import warnings

import numpy as np

from . import _binding, _header
from ._cuda_numpy import DeviceNumpy
from ._cuda_tensor import CudaError  # noqa: F401 (defined below the device code, which raises it)
from ._cuda_tensor import CTYPES as _CTYPES, DTYPES as _DTYPES, REALS as _REALS, CudaTensor, c_real, \
    contiguous_strides


class Device:
    """One library that runs the twins: its tensors and its two backends."""

    def __reduce__(self):
        """Pickled (with a CudaTensor) as the function that gives this device back."""
        return (gpu if self.name == "gpu" else emulator), ()

    def __init__(self, name, module):
        self.name = name
        self.ffi, self.lib = module.ffi, module.lib
        thnn_h = self.ffi.string(self.lib.THNN_headerText()).decode("ascii")
        # the generated list of twins the library was built with (thnn/_layers.py)
        layers_text = self.ffi.string(self.lib.THCUNN_layersText()).decode("ascii")
        self.functions = _header.twin_functions(thnn_h, layers_text)
        self.layers = tuple(_header.twin_layers(layers_text))
        self.Cuda = CudaBackend(self, "Float")
        self.CudaDouble = CudaBackend(self, "Double")
        math_h = self.ffi.string(self.lib.THCTensorMath_headerText()).decode("ascii")
        self.math_functions = _header.parse(math_h, _header.MATH_PREFIX, _header.MATH_SOURCE)
        self._math = {}
        #: numpy's namespace on this device (thnn/_cuda_numpy.py)
        self.numpy = DeviceNumpy(self)

    def math(self, real):
        """The device tensor math (thcunn_cu/generic/THCTensorMath.h) for
        'Float', 'Double' or 'Long' tensors: ``device.math('Float').map(...)``."""
        if real not in self._math:
            self._math[real] = CudaMath(self, real)
        return self._math[real]

    def __repr__(self):
        return f"<thnn CUDA device {self.name!r} ({len(self.layers)} layers)>"

    def backend(self, dtype):
        dtype = np.dtype(dtype)
        if dtype == np.float32:
            return self.Cuda
        if dtype == np.float64:
            return self.CudaDouble
        raise TypeError(f"the CUDA twins work in float32 or float64, got {dtype}")

    def _check(self, status, state, what):
        if status != 0:
            raise CudaError(f"{what}: {self.ffi.string(state.message).decode('utf-8', 'replace')}")

    def synchronize(self):
        """Wait until every kernel launched on this device has finished.  On a
        GPU the twins launch asynchronously: a timing must synchronise before
        it reads the clock (benchmarks/bench_gpu.py).  An error a kernel left
        behind is raised here as a CudaError.  (The emulator runs a kernel
        during its call: nothing to wait for.)"""
        state = self.ffi.new("THNNState*")
        self._check(self.lib.THCSynchronize(state), state, "synchronize")

    def empty(self, shape, dtype):
        """A new contiguous tensor of this device (contents undefined)."""
        real = _REALS.get(np.dtype(dtype))
        if real is None:
            raise TypeError(f"a CUDA tensor holds float32, float64, int64 or bool, got {np.dtype(dtype)}")
        shape = tuple(int(n) for n in shape)
        if any(n < 0 for n in shape) or len(shape) > _binding.MAX_DIM:
            raise ValueError(f"cannot make a CUDA tensor of shape {shape}")
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        state = self.ffi.new("THNNState*")
        storage = getattr(self.lib, f"THC{c_real(real)}Storage_new")(state, n)
        if storage == self.ffi.NULL:
            self._check(-1, state, "CudaTensor")
        return CudaTensor._own(self, real, storage, 0, shape, contiguous_strides(shape))

    def to_device(self, array):
        """A device copy of a numpy array (float32, float64, int64 or bool;
        other integer types become int64)."""
        array = np.asarray(array)
        if array.dtype.kind in "iu" and array.dtype != np.int64:
            array = array.astype(np.int64)
        if array.dtype not in _REALS:
            raise TypeError(f"a CUDA tensor holds float32, float64, int64 or bool, got {array.dtype}")
        t = self.empty(array.shape, array.dtype)
        host = np.ascontiguousarray(array.astype(np.int64) if t.real == "Bool" else array)
        state = self.ffi.new("THNNState*")
        real = c_real(t.real)
        src = self.ffi.cast(_CTYPES[real] + "*", host.ctypes.data)
        self._check(getattr(self.lib, f"THC{real}Storage_copyFromHost")(state, t._storage, 0, src, host.size),
                    state, "to_device")
        return t


class CudaKernel:
    """One twin for one type (``thnn.cuda.Cuda.Sigmoid_updateOutput``), or
    one function of the device tensor math (symbol given: THCFloatTensor_map)."""

    def __init__(self, device, function, real, symbol=None):
        self.device, self.function, self.real = device, function, real
        self.dtype = _DTYPES[real]
        if symbol is None:
            symbol = f"THNN_{'Cuda' if real == 'Float' else 'CudaDouble'}{function.name}"
        self._c = getattr(device.lib, symbol)
        self._args = function.args[1:]
        if real == "Long":   # (the math of int64 tensors takes its 'real' scalars as integers)
            self._args = tuple(dataclasses.replace(a, ctype="int64_t") if a.ctype == "real" else a
                               for a in self._args)
        self._min_dim = 1 if symbol.startswith("THNN_") else 0   # (the math takes 0D tensors: one element)
        self.__name__ = function.name
        self.__doc__ = f"{symbol}(" + ", ".join(f"{a.name}: {a.doc}" for a in self._args) + ")"

    def _real_of(self, arg):
        return arg.fixed_real or self.real

    def _error(self, message, kind=CudaError):
        return kind(f"{self.function.name}: {message}")

    _scalar = _binding.Kernel._scalar   # the same rules for scalar arguments as the CPU kernels

    def _tensor(self, arg, value):
        want = self._real_of(arg)
        if not isinstance(value, CudaTensor):
            raise self._error(f"{arg.name} must be a CudaTensor, got {type(value).__name__}", TypeError)
        if value.device is not self.device:
            raise self._error(f"{arg.name} is on device {value.device.name!r}, the kernel on {self.device.name!r}",
                              TypeError)
        if c_real(value.real) != want:
            raise self._error(f"{arg.name} must be {_DTYPES[want]}, got {value.dtype}", TypeError)
        if not self._min_dim <= value.ndim <= _binding.MAX_DIM:
            raise self._error(f"{arg.name} must have {self._min_dim} to {_binding.MAX_DIM} dimensions, "
                              f"got {value.ndim}")
        return value

    def __call__(self, *values):
        if len(values) != len(self._args):
            raise TypeError(f"{self.function.name} takes {len(self._args)} arguments "
                            f"({', '.join(a.name for a in self._args)}), got {len(values)}")
        ffi = self.device.ffi
        c_args, outs, inputs = [], [], []
        for arg, value in zip(self._args, values):
            if not arg.is_tensor:
                kind = _binding._SCALARS.get(arg.ctype)
                c_args.append(value if kind is None else self._scalar(arg, kind, value))
                continue
            produced = bool(arg.tags & {"OUT", "BUFFER"})
            if produced and isinstance(value, np.ndarray):   # a host buffer: replaced by a device one
                value = None
            if value is None:
                if not produced and "OPTIONAL" not in arg.tags:
                    raise self._error(f"{arg.name} is required, got None{_binding._forward_first(arg.name)}",
                                      TypeError)
                t = ffi.new(f"TH{self._real_of(arg)}Tensor*") if produced else ffi.NULL
                c_args.append(t)
                if produced:
                    outs.append((arg, None, t, ffi.NULL))
                continue
            value = self._tensor(arg, value)
            t, storage = value._struct(ffi)
            c_args.append(t)
            if produced:
                outs.append((arg, value, t, storage))
            else:
                inputs.append((value, storage))
        # an [OUT] tensor sharing memory with an input (or another [OUT]) is
        # not written into: the kernel gets an empty one instead
        seen = {int(ffi.cast("intptr_t", s.data)) for _, s in inputs}
        for i, (arg, value, t, storage) in enumerate(outs):
            if value is None:
                continue
            key = int(ffi.cast("intptr_t", storage.data))
            if key in seen or not value.is_contiguous():
                t.storage, t.nDimension = ffi.NULL, 0
                outs[i] = (arg, None, t, ffi.NULL)
            seen.add(key)
        state = ffi.new("THNNState*")
        results, adopted = None, set()
        try:
            if self._c(state, *c_args) != 0:
                raise self._error(ffi.string(state.message).decode("utf-8", "replace"))
            done = []
            for i, (arg, value, t, storage) in enumerate(outs):
                adopted.add(i)   # from here on the result owns what the kernel allocated (a leak at worst)
                done.append(self._result(arg, value, t, storage, inputs))
            results = done
        finally:
            if results is None:   # an error, or a KeyboardInterrupt right after the kernel returned
                for i, (arg, value, t, storage) in enumerate(outs):
                    if i not in adopted and t.storage != ffi.NULL and t.storage != storage and t.storage.flag & 1:
                        getattr(self.device.lib, f"THC{self._real_of(arg)}Storage_free")(t.storage)
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def _result(self, arg, value, t, storage, inputs):
        """The CudaTensor an [OUT]/[BUFFER] argument holds after the call (one
        over a storage the kernel allocated owns it)."""
        ffi = self.device.ffi
        if t.storage == ffi.NULL:
            return None
        shape = tuple(t.size[d] for d in range(t.nDimension))
        strides = tuple(t.stride[d] for d in range(t.nDimension))
        if value is not None and t.storage == storage:
            return value if shape == value.shape else value._view(shape, strides, t.storageOffset)
        for other, other_storage in inputs:   # an in-place kernel made it a view of an input
            if t.storage == other_storage:
                return other._view(shape, strides, t.storageOffset)
        real = self._real_of(arg)
        return CudaTensor._own(self.device, real, ffi.cast(f"TH{real}Storage*", t.storage), t.storageOffset,
                               shape, strides)


class CudaMath:
    """The device tensor math for one element type: ``device.math('Float').map``
    is THCFloatTensor_map (thcunn_cu/generic/THCTensorMath.h), called as a
    twin is.  The namespace device.numpy is built on these."""

    def __init__(self, device, real):
        self.device, self.real = device, real
        for f in device.math_functions:
            setattr(self, f.name, CudaKernel(device, f, real, f"THC{real}Tensor_{f.name}"))

    def __repr__(self):
        return f"<thnn CUDA tensor math {self.real} on {self.device.name!r}>"


class CudaBackend:
    """Every twin for one type: ``device.Cuda`` (float32), ``device.CudaDouble``."""

    def __init__(self, device, real):
        self.device, self.real, self.dtype = device, real, _DTYPES[real]
        for f in device.functions:
            setattr(self, f.name, CudaKernel(device, f, real))

    def __getattr__(self, name):   # only reached for a kernel that is not there
        raise AttributeError(f"{name} has no CUDA twin (a layer has one when thcunn_cu/generic/<Layer>.cu exists)")

    def __repr__(self):
        return f"<thnn CUDA backend {'Cuda' if self.real == 'Float' else 'CudaDouble'} on {self.device.name!r}>"


_devices = {}


def emulator_unavailable_reason():
    """None when the CPU emulation of the twins was built (the normal case),
    else why not (a GPU machine's build with THNN_EMULATOR=0)."""
    try:
        from . import _thcunn_emu  # noqa: F401
    except ImportError as e:
        return f"thnn was built without the CUDA emulator (THNN_EMULATOR=0 skips it; {e})"
    return None


def emulator():
    """The CPU emulation of the twins (built unless THNN_EMULATOR=0; then a
    RuntimeError says so)."""
    if "emulator" not in _devices:
        reason = emulator_unavailable_reason()
        if reason:
            raise RuntimeError(f"thnn.cuda.emulator: {reason}")
        from . import _thcunn_emu
        _devices["emulator"] = Device("emulator", _thcunn_emu)
    return _devices["emulator"]


def gpu_unavailable_reason():
    """None when the twins can run on a GPU, else why not (for skip messages)."""
    try:
        from . import _thcunn
    except ImportError as e:
        return f"thnn was built without the nvcc library ({e})"
    count = _thcunn.ffi.new("int*")
    if _thcunn.lib.THCDeviceCount(count) != 0 or count[0] == 0:
        return "no CUDA device is present"
    return None


def is_available():
    """True when a GPU (and the nvcc build) can run the twins.  False means
    ``default()``, and so ``module.cuda()``, is the CPU emulator: a test of the
    twins, several times slower than the host kernels (``default().name`` says
    which: "gpu" or "emulator")."""
    return gpu_unavailable_reason() is None


class EmulatorWarning(UserWarning):
    """``.cuda()`` without a device on a machine without a GPU: the model runs on the CPU emulator."""


_emulator_warned = []


def module_default():
    """default() for ``Module.cuda()`` / ``Criterion.cuda()`` without a device: the first time it is the
    emulator (once per process) an EmulatorWarning says so.  Naming the device, ``cuda(thnn.cuda.emulator())``,
    says the emulator is meant and warns nothing."""
    device = default()
    if device.name == "emulator" and not _emulator_warned:
        _emulator_warned.append(True)
        warnings.warn(f"thnn.cuda: {gpu_unavailable_reason()}, so .cuda() runs on the CPU emulator, which is for "
                      f"testing the CUDA twins and about 10x slower than the host kernels: keep the model on the "
                      f"host (or call .cuda(thnn.cuda.emulator()) to say the emulator is meant)",
                      EmulatorWarning, stacklevel=3)
    return device


def gpu():
    """The twins on a real GPU; RuntimeError saying why when there is none."""
    if "gpu" not in _devices:
        reason = gpu_unavailable_reason()
        if reason:
            raise RuntimeError(f"thnn.cuda.gpu: {reason}")
        from . import _thcunn
        _devices["gpu"] = Device("gpu", _thcunn)
    return _devices["gpu"]


def default():
    """The GPU when there is one, else the emulator."""
    return gpu() if is_available() else emulator()


def to_device(array):
    """A CudaTensor copy of array on the default device."""
    return default().to_device(array)


def from_dlpack(x, device=None):
    """A CudaTensor viewing, without a copy, the memory of x: an array of
    another library with ``__dlpack__`` (a CuPy or PyTorch CUDA tensor for
    the GPU; host memory, a numpy array say, for the emulator, whose
    device memory is host memory) or a ``dltensor`` capsule.  device
    defaults to the one x's memory belongs to.  See thnn/_dlpack.py."""
    from . import _dlpack
    if device is None:
        kind = int(x.__dlpack_device__()[0]) if hasattr(x, "__dlpack_device__") else _dlpack.K_DL_CUDA
        device = emulator() if kind == _dlpack.K_DL_CPU else gpu()
    from ._dlpack_import import from_dlpack as import_dlpack
    return import_dlpack(device, x)


def __getattr__(name):
    if name in ("Cuda", "CudaDouble"):
        return getattr(default(), name)
    raise AttributeError(f"module 'thnn.cuda' has no attribute {name!r}")


__all__ = ["CudaTensor", "CudaError", "Device", "CudaKernel", "CudaBackend", "CudaMath", "emulator", "gpu", "default",
           "is_available", "gpu_unavailable_reason", "emulator_unavailable_reason", "to_device", "from_dlpack", "Cuda",
           "CudaDouble", "EmulatorWarning"]
