"""CUDA tensors and the CUDA twins of the kernels (thcunn_cu/).

    import thnn.cuda as cuda
    x = cuda.to_device(np.ones((4, 5), np.float32))    # a CudaTensor
    y = cuda.Cuda.Sigmoid_updateOutput(x, None)         # THNN_CudaSigmoid_updateOutput
    y.numpy()                                           # back to the host

Two devices can run the twins, both built from the same .cu sources:

- ``gpu()``: the nvcc build (``thnn._thcunn``) on a real GPU, when the
  package was built with nvcc and a device is present;
- ``emulator()``: the CPU emulation (``thnn._thcunn_emu``, always built),
  which runs the kernels block by block on the CPU (thcunn_cu/THCEmu.h).

``default()`` is the GPU when there is one, else the emulator; the module
level ``Cuda``, ``CudaDouble`` and ``to_device`` use it.  Tensors live on one
device and kernels only take tensors of their own device.

A kernel takes the same arguments as its CPU kernel (``thnn.Float.<name>``),
with CudaTensors in place of numpy arrays, and returns the CudaTensors of its
[OUT] and [BUFFER] arguments the same way.  Memory moves between host and
device only through ``to_device`` and ``CudaTensor.numpy``.
"""
import numpy as np

from . import _binding, _header

_DTYPES = {"Float": np.dtype(np.float32), "Double": np.dtype(np.float64), "Long": np.dtype(np.int64)}
_REALS = {dtype: real for real, dtype in _DTYPES.items()}
_CTYPES = {"Float": "float", "Double": "double", "Long": "int64_t"}
_STORAGE_DEVICE = 2  # TH_STORAGE_DEVICE of thcunn_cu/THC.h


class CudaError(_binding.THNNError):
    """A CUDA twin refused its arguments, or a device operation failed."""


class Device:
    """One library that runs the twins: its tensors and its two backends."""

    def __init__(self, name, module):
        self.name = name
        self.ffi, self.lib = module.ffi, module.lib
        thnn_h = self.ffi.string(self.lib.THNN_headerText()).decode("ascii")
        thcunn_h = self.ffi.string(self.lib.THCUNN_layersText()).decode("ascii")
        self.functions = _header.twin_functions(thnn_h, thcunn_h)
        self.layers = tuple(_header.twin_layers(thcunn_h))
        self.Cuda = CudaBackend(self, "Float")
        self.CudaDouble = CudaBackend(self, "Double")

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

    def empty(self, shape, dtype):
        """A new contiguous tensor of this device (contents undefined)."""
        real = _REALS.get(np.dtype(dtype))
        if real is None:
            raise TypeError(f"a CUDA tensor holds float32, float64 or int64, got {np.dtype(dtype)}")
        shape = tuple(int(n) for n in shape)
        if any(n < 0 for n in shape) or len(shape) > _binding.MAX_DIM:
            raise ValueError(f"cannot make a CUDA tensor of shape {shape}")
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        state = self.ffi.new("THNNState*")
        storage = getattr(self.lib, f"THC{real}Storage_new")(state, n)
        if storage == self.ffi.NULL:
            self._check(-1, state, "CudaTensor")
        strides, step = [], 1
        for size in reversed(shape):
            strides.append(step)
            step *= max(size, 1)
        return CudaTensor._own(self, real, storage, 0, shape, tuple(reversed(strides)))

    def to_device(self, array):
        """A device copy of a numpy array (float32, float64 or int64)."""
        array = np.asarray(array)
        if array.dtype.kind in "iu" and array.dtype != np.int64:
            array = array.astype(np.int64)
        host = np.ascontiguousarray(array)
        t = self.empty(host.shape, host.dtype)
        state = self.ffi.new("THNNState*")
        src = self.ffi.cast(_CTYPES[t.real] + "*", host.ctypes.data)
        self._check(getattr(self.lib, f"THC{t.real}Storage_copyFromHost")(state, t._storage, 0, src, host.size),
                    state, "to_device")
        return t


class CudaTensor:
    """A strided array in one device's memory: shape, dtype, strides (in
    elements), like a numpy array; its data reaches the host through
    ``numpy()`` only.  Views (``transpose``, ``narrow``) share the memory."""

    __slots__ = ("device", "real", "shape", "strides", "offset", "_storage", "_owner")

    @classmethod
    def _own(cls, device, real, storage, offset, shape, strides, owner=None):
        t = cls.__new__(cls)
        t.device, t.real = device, real
        t.shape, t.strides, t.offset = tuple(shape), tuple(strides), offset
        t._storage = storage
        if owner is None:  # the first tensor of this storage frees it when collected
            free = getattr(device.lib, f"THC{real}Storage_free")
            owner = device.ffi.gc(storage, free)
        t._owner = owner
        return t

    dtype = property(lambda self: _DTYPES[self.real])
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1)

    def __repr__(self):
        return f"CudaTensor(shape={self.shape}, dtype={self.dtype}, device={self.device.name!r})"

    def is_contiguous(self):
        step = 1
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if n != 1 and s != step:
                return False
            step *= n
        return True

    def _view(self, shape, strides, offset):
        return CudaTensor._own(self.device, self.real, self._storage, offset, shape, strides, self._owner)

    def shares_memory(self, other):
        """True when both tensors are views of one storage."""
        return self.device is other.device and self._storage.data == other._storage.data

    def reshape(self, *shape):
        """A view of a contiguous tensor with another shape of as many elements."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(n) for n in shape)
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if n != self.size or not self.is_contiguous():
            raise ValueError(f"cannot view a {'contiguous' if self.is_contiguous() else 'strided'} tensor of shape "
                             f"{self.shape} as {shape}")
        strides, step = [], 1
        for size in reversed(shape):
            strides.append(step)
            step *= max(size, 1)
        return self._view(shape, tuple(reversed(strides)), self.offset)

    def transpose(self, d0, d1):
        shape, strides = list(self.shape), list(self.strides)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
        return self._view(shape, strides, self.offset)

    def narrow(self, dim, start, length):
        if not (0 <= start and 0 <= length and start + length <= self.shape[dim]):
            raise IndexError(f"narrow({dim}, {start}, {length}) outside size {self.shape[dim]}")
        shape = list(self.shape)
        shape[dim] = length
        return self._view(shape, self.strides, self.offset + start * self.strides[dim])

    def _struct(self, ffi):
        """A TH tensor struct over this memory whose storage C never frees."""
        storage = ffi.new(f"TH{self.real}Storage*")
        storage.data = self._storage.data
        storage.size = self._storage.size
        storage.flag = _STORAGE_DEVICE
        t = ffi.new(f"TH{self.real}Tensor*")
        t.storage = storage
        t.storageOffset = self.offset
        t.nDimension = len(self.shape)
        for d, (n, s) in enumerate(zip(self.shape, self.strides)):
            t.size[d], t.stride[d] = n, s
        return t, storage

    def contiguous(self):
        """This tensor if contiguous, else a contiguous device copy."""
        if self.is_contiguous():
            return self
        out = self.device.empty(self.shape, self.dtype)
        out.copy_(self)
        return out

    def numpy(self):
        """A host copy, as a new C-contiguous numpy array."""
        t = self.contiguous()
        host = np.empty(self.shape, self.dtype)
        ffi, lib = self.device.ffi, self.device.lib
        state = ffi.new("THNNState*")
        dst = ffi.cast(_CTYPES[self.real] + "*", host.ctypes.data)
        self.device._check(getattr(lib, f"THC{self.real}Storage_copyToHost")(state, dst, t._storage, t.offset,
                                                                              host.size), state, "numpy")
        return host

    def _call(self, name, *args):
        ffi = self.device.ffi
        state = ffi.new("THNNState*")
        structs = [a._struct(ffi) if isinstance(a, CudaTensor) else (a, None) for a in (self,) + args]
        status = getattr(self.device.lib, f"THC{self.real}Tensor_{name}")(state, *(s[0] for s in structs))
        self.device._check(status, state, name)
        return self

    def _same(self, other, name):
        if not isinstance(other, CudaTensor) or other.device is not self.device or other.real != self.real:
            raise TypeError(f"{name}: need a {self.dtype} CudaTensor of device {self.device.name!r}, got {other!r}")

    def copy_(self, src):
        """Copy src (same shape and dtype, same device) into this tensor."""
        self._same(src, "copy_")
        return self._call("copy", src)

    def fill_(self, value):
        return self._call("fill", value)

    def fill(self, value):
        """numpy's spelling of fill_ (returns None, as numpy's)."""
        self.fill_(value)

    def item(self):
        """The value of a one-element tensor, on the host."""
        if self.size != 1:
            raise ValueError(f"item() needs a one-element tensor, got shape {self.shape}")
        return self.numpy().reshape(()).item()

    def __getitem__(self, index):
        """t[i] of a 1D tensor: one element, copied to the host."""
        if self.ndim != 1 or not isinstance(index, (int, np.integer)):
            raise TypeError("a CudaTensor only takes t[i] on a 1D tensor; use numpy() for the rest")
        if not -self.shape[0] <= index < self.shape[0]:
            raise IndexError(f"index {index} is out of range for size {self.shape[0]}")
        return self.narrow(0, int(index) % self.shape[0], 1).item()

    def zero_(self):
        return self.fill_(0)

    def add_(self, other, alpha=1):
        """self += alpha * other (both contiguous, same shape)."""
        self._same(other, "add_")
        return self._call("axpy", alpha, other)

    def clone(self):
        return self.device.empty(self.shape, self.dtype).copy_(self)


class CudaKernel:
    """One twin for one type (``thnn.cuda.Cuda.Sigmoid_updateOutput``)."""

    def __init__(self, device, function, real):
        self.device, self.function, self.real = device, function, real
        self.dtype = _DTYPES[real]
        prefix = "Cuda" if real == "Float" else "CudaDouble"
        self._c = getattr(device.lib, f"THNN_{prefix}{function.name}")
        self._args = function.args[1:]
        self.__name__ = function.name
        self.__doc__ = f"THNN_{prefix}{function.name}(" + ", ".join(f"{a.name}: {a.doc}" for a in self._args) + ")"

    def _error(self, message, kind=CudaError):
        return kind(f"{self.function.name}: {message}")

    _scalar = _binding.Kernel._scalar   # the same rules for scalar arguments as the CPU kernels

    def _tensor(self, arg, value):
        want = "Long" if arg.is_index else self.real
        if not isinstance(value, CudaTensor):
            raise self._error(f"{arg.name} must be a CudaTensor, got {type(value).__name__}", TypeError)
        if value.device is not self.device:
            raise self._error(f"{arg.name} is on device {value.device.name!r}, the kernel on {self.device.name!r}",
                              TypeError)
        if value.real != want:
            raise self._error(f"{arg.name} must be {_DTYPES[want]}, got {value.dtype}", TypeError)
        if not 1 <= value.ndim <= _binding.MAX_DIM:
            raise self._error(f"{arg.name} must have 1 to {_binding.MAX_DIM} dimensions, got {value.ndim}")
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
            if value is None:
                if not produced and "OPTIONAL" not in arg.tags:
                    raise self._error(f"{arg.name} is required, got None", TypeError)
                t = ffi.new(f"TH{'Long' if arg.is_index else self.real}Tensor*") if produced else ffi.NULL
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
                        getattr(self.device.lib, f"THC{'Long' if arg.is_index else self.real}Storage_free")(
                            t.storage)
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
        real = "Long" if arg.is_index else self.real
        return CudaTensor._own(self.device, real, ffi.cast(f"TH{real}Storage*", t.storage), t.storageOffset,
                               shape, strides)


class CudaBackend:
    """Every twin for one type: ``device.Cuda`` (float32), ``device.CudaDouble``."""

    def __init__(self, device, real):
        self.device, self.real, self.dtype = device, real, _DTYPES[real]
        for f in device.functions:
            setattr(self, f.name, CudaKernel(device, f, real))

    def __getattr__(self, name):   # only reached for a kernel that is not there
        raise AttributeError(f"{name} has no CUDA twin (thcunn_cu/THCUNN.h lists the layers that have one)")

    def __repr__(self):
        return f"<thnn CUDA backend {'Cuda' if self.real == 'Float' else 'CudaDouble'} on {self.device.name!r}>"


_devices = {}


def emulator():
    """The CPU emulation of the twins (always available)."""
    if "emulator" not in _devices:
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
    """True when a GPU (and the nvcc build) can run the twins."""
    return gpu_unavailable_reason() is None


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


def status_table():
    """The README's table: every layer of THNN.h with the CUDA status of its twin."""
    from ._thnn import ffi, lib
    layers = []
    for f in _header.parse(ffi.string(lib.THNN_headerText()).decode("ascii")):
        if f.layer not in layers:
            layers.append(f.layer)
    twins = set(emulator().layers)
    rows = ["| layer | CUDA twin |", "|---|---|"]
    rows += [f"| {layer} | {'yes' if layer in twins else 'no'} |" for layer in layers]
    rows.append(f"\n{len(twins)} of {len(layers)} layers have a CUDA twin.")
    return "\n".join(rows)


def __getattr__(name):
    if name in ("Cuda", "CudaDouble"):
        return getattr(default(), name)
    raise AttributeError(f"module 'thnn.cuda' has no attribute {name!r}")


__all__ = ["CudaTensor", "CudaError", "Device", "CudaKernel", "CudaBackend", "emulator", "gpu", "default",
           "is_available", "gpu_unavailable_reason", "to_device", "Cuda", "CudaDouble"]
