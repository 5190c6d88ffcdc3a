"""numpy arrays <-> TH tensors, and one Python wrapper per kernel of THNN.h.

A wrapper takes the kernel's arguments without the state, in the header's
order.  Tensors are numpy arrays (or None where the header allows it),
wrapped without a copy; scalars are Python numbers.  It returns the arrays of
the [OUT] and [BUFFER] arguments, in order (one array alone, None if there
are none): the array that was passed in when the kernel kept it, else a new
one.  A kernel error raises THNNError naming the kernel.
"""
import numbers

import numpy as np

from . import _header
from ._thnn import ffi, lib

MAX_DIM = len(ffi.new("THFloatTensor*").size)
_REAL = {"Float": np.dtype(np.float32), "Double": np.dtype(np.float64)}
_INDEX = np.dtype(np.int64)
# scalar argument types of THNN.h: what Python value each takes
_SCALARS = {"bool": bool, "int": int, "int64_t": int, "accreal": float, "real": float,
            "double": float, "float": float}
_INT_RANGE = {"int": (-2**31, 2**31 - 1), "int64_t": (-2**63, 2**63 - 1)}


class THNNError(ValueError):
    """A kernel refused its arguments: the message names kernel, argument, and sizes."""


def _describe(a):
    return f"{a.ndim}D of size [{', '.join(map(str, a.shape))}]"


class _Tensor:
    """The TH tensor struct of one numpy array (or of no array yet)."""

    __slots__ = ("real", "array", "storage", "tensor", "adopted")

    def __init__(self, real, ctype, array):
        self.real = real      # 'Float', 'Double' or 'Long' (index tensors)
        self.array = array
        self.adopted = False  # a storage the kernel allocated now belongs to a numpy array
        self.tensor = ffi.new(f"TH{real}Tensor*")
        if array is None:
            self.storage = ffi.NULL
            return
        self.storage = ffi.new(f"TH{real}Storage*")
        # the same address either way; the buffer protocol is ~1.5 us faster
        # per array than .ctypes, and takes C-contiguous arrays only
        if array.flags.c_contiguous:
            self.storage.data = ffi.from_buffer(ctype + "[]", array)
        else:
            self.storage.data = ffi.cast(ctype + "*", array.ctypes.data)
        self.storage.size = array.size
        t = self.tensor
        t.storage = self.storage
        t.nDimension = array.ndim
        itemsize = array.itemsize
        for d, (n, s) in enumerate(zip(array.shape, array.strides)):
            t.size[d] = n
            t.stride[d] = s // itemsize

    def result(self, others):
        """The array this tensor holds after the kernel ran."""
        t = self.tensor
        if t.storage == self.storage:
            return self.array
        for other in others:  # an in-place kernel made it a view of another argument
            if other.storage != ffi.NULL and t.storage == other.storage:
                return other.array
        if t.storage == ffi.NULL:
            return None
        return _adopt(self, t)


def _adopt(wrapped, t):
    """Wrap a storage the kernel allocated as a numpy array that frees it."""
    real = wrapped.real
    dtype = _REAL.get(real, _INDEX)
    shape = tuple(t.size[d] for d in range(t.nDimension))
    storage = ffi.cast(f"TH{real}Storage*", t.storage)
    free = getattr(lib, f"TH{real}Storage_free")
    data = ffi.cast("char*", storage.data)
    # From the flag on, the owner frees the storage, not _release: no call
    # (where a KeyboardInterrupt could land) comes between the two, and one
    # landing after ffi.gc drops the owner, which frees it.
    wrapped.adopted = True
    owner = ffi.gc(data, lambda _, s=storage: free(s))
    n = int(np.prod(shape, dtype=np.int64)) if shape else 0
    return np.frombuffer(ffi.buffer(owner, n * dtype.itemsize), dtype=dtype).reshape(shape)


def _release(tensors):
    """After a failed or interrupted call: free what the kernel allocated
    for [OUT]/[BUFFER] and no numpy array owns yet."""
    for wrapped in tensors:
        t = wrapped.tensor
        if (not wrapped.adopted and t.storage != ffi.NULL and t.storage != wrapped.storage
                and t.storage.flag & 1):
            getattr(lib, f"TH{wrapped.real}Storage_free")(t.storage)
            t.storage = ffi.NULL


class Kernel:
    """One kernel of THNN.h for one type (`thnn.Float.Linear_updateOutput`)."""

    def __init__(self, function, real):
        self.function = function
        self.real = real
        self.dtype = _REAL[real]
        self._ctype = "float" if real == "Float" else "double"
        self._c = getattr(lib, f"THNN_{real}{function.name}")
        self._args = function.args[1:]
        self._inplace = next((i for i, a in enumerate(self._args) if a.name == "inplace"), None)
        self.__name__ = function.name
        self.__doc__ = f"THNN_{real}{function.name}(" + ", ".join(
            f"{a.name}: {a.doc}" for a in self._args) + ")"

    def _error(self, message, kind=THNNError):
        return kind(f"{self.function.name}: {message}")

    def _check_array(self, arg, a, written):
        if not isinstance(a, np.ndarray):
            raise self._error(f"{arg.name} must be a numpy array, got {type(a).__name__}", TypeError)
        if arg.is_index:
            if a.dtype.kind not in "iu":
                raise self._error(f"{arg.name} must be an integer array (class indices), got {a.dtype}",
                                  TypeError)
            if a.dtype != _INDEX:
                a = a.astype(_INDEX)
        elif a.dtype != self.dtype:
            if a.dtype in _REAL.values():
                raise self._error(f"{arg.name} must be {self.dtype} like the other tensors, got {a.dtype}",
                                  TypeError)
            raise self._error(f"{arg.name} must be a float32 or float64 array, got {a.dtype}", TypeError)
        if a.ndim == 0 or a.ndim > MAX_DIM:
            raise self._error(f"{arg.name} must have 1 to {MAX_DIM} dimensions, got {a.ndim}")
        if written and not a.flags.writeable:
            raise self._error(f"{arg.name} is written in place but the array is read-only")
        # C reads elements through a typed pointer and strides counted in
        # elements: a misaligned array, or a stride that is not a whole number
        # of elements, is read from an aligned copy.  One written in place
        # cannot be: the kernel would write into the copy.
        if not a.flags.aligned or any(s % a.itemsize for s in a.strides):
            if written:
                raise self._error(f"{arg.name} is written in place but the array is not aligned to its "
                                  f"element size (strides {a.strides}); pass an aligned array")
            a = np.array(a, order="C", copy=True)
        return a

    def __call__(self, *values):
        if len(values) != len(self._args):
            raise TypeError(f"{self.function.name} takes {len(self._args)} arguments "
                            f"({', '.join(a.name for a in self._args)}), got {len(values)}")
        c_values = [self._scalar(arg, v) if not arg.is_tensor else v for arg, v in zip(self._args, values)]
        inplace = self._inplace is not None and c_values[self._inplace]
        wrapped, outs, c_args = [], [], []
        # arrays the kernel reads (or writes in place): an [OUT] array that
        # overlaps one of them, or an earlier [OUT] array, is not written into
        taken = [v for v, a in zip(values, self._args)
                 if a.is_tensor and isinstance(v, np.ndarray) and not a.tags & {"OUT", "BUFFER"}]
        for arg, value in zip(self._args, c_values):
            if not arg.is_tensor:
                c_args.append(value)
                continue
            produced = bool(arg.tags & {"OUT", "BUFFER"})
            if value is None and not produced:
                if "OPTIONAL" not in arg.tags:
                    raise self._error(f"{arg.name} is required, got None", TypeError)
                c_args.append(ffi.NULL)
                continue
            if produced:
                if value is not None and not isinstance(value, np.ndarray):
                    raise self._error(f"{arg.name} must be a numpy array to reuse or None, "
                                      f"got {type(value).__name__}", TypeError)
                value = self._reusable(value, taken, _INDEX if arg.is_index else self.dtype)
                if value is not None:
                    taken.append(value)
            else:
                written = "INOUT" in arg.tags or ("INPLACE" in arg.tags and inplace)
                value = self._check_array(arg, value, written)
            t = _Tensor("Long" if arg.is_index else self.real,
                        "int64_t" if arg.is_index else self._ctype, value)
            wrapped.append(t)
            if produced:
                outs.append(t)
            c_args.append(t.tensor)
        state = ffi.new("THNNState*")
        done = False
        try:
            if self._c(state, *c_args) != 0:
                raise self._error(ffi.string(state.message).decode("utf-8", "replace"))
            results = [t.result(wrapped) for t in outs]
            done = True
        finally:
            if not done:  # an error, or a KeyboardInterrupt right after the kernel returned
                _release(outs)
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def _reusable(self, a, taken, dtype):
        """An [OUT]/[BUFFER] array of dtype the kernel may write into, or None."""
        if (isinstance(a, np.ndarray) and a.dtype == dtype and a.ndim >= 1
                and a.flags.c_contiguous and a.flags.writeable and a.flags.aligned
                and not any(np.may_share_memory(a, x) for x in taken)):
            return a
        return None

    def _scalar(self, arg, value):
        """A scalar argument as the C type wants it, or an error naming it."""
        kind = _SCALARS.get(arg.ctype)
        if kind is None:  # a type this binding has no rule for: cffi decides
            return value
        if kind is bool:
            if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
                return bool(value)
            raise self._error(f"{arg.name} must be a bool, got {value!r}", TypeError)
        if kind is int:
            if not isinstance(value, (int, np.integer)):
                raise self._error(f"{arg.name} must be an integer, got {value!r}", TypeError)
            lo, hi = _INT_RANGE[arg.ctype]
            if not lo <= value <= hi:
                raise self._error(f"{arg.name} must lie in [{lo}, {hi}], got {value}")
            return int(value)
        if not isinstance(value, numbers.Real):
            raise self._error(f"{arg.name} must be a real number, got {value!r}", TypeError)
        return float(value)


class Backend:
    """Every kernel for one type: `thnn.Float`, `thnn.Double`."""

    def __init__(self, real, functions):
        self.real = real
        self.dtype = _REAL[real]
        for f in functions:
            setattr(self, f.name, Kernel(f, real))

    def __repr__(self):
        return f"<thnn backend {self.real} ({self.dtype})>"


FUNCTIONS = _header.parse(ffi.string(lib.THNN_headerText()).decode("ascii"))
Float = Backend("Float", FUNCTIONS)
Double = Backend("Double", FUNCTIONS)


def backend(dtype):
    """The backend for float32 or float64; TypeError for anything else."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return Float
    if dtype == np.float64:
        return Double
    raise TypeError(f"thnn works in float32 or float64, got {dtype}")
