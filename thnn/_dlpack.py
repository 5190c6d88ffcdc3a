"""DLPack and ``__cuda_array_interface__`` for CudaTensors: device memory
handed to and taken from other libraries (CuPy, PyTorch, JAX, numpy)
without a copy.

- ``CudaTensor.__dlpack__()`` / ``__dlpack_device__()``: the DLPack
  protocol (a ``dltensor`` capsule of a DLManagedTensor), so
  ``torch.from_dlpack(t)`` or ``cupy.from_dlpack(t)`` view the tensor's
  memory.  The tensor's memory stays alive until the consumer is done.
- ``thnn.cuda.from_dlpack(x)``: a CudaTensor viewing the memory of any
  object with ``__dlpack__`` (or a ``dltensor`` capsule); it keeps the
  producer's memory alive and releases it when the last view is gone.
  That direction builds CudaTensors, so it is in ``_dlpack_import.py``,
  above ``_cuda_tensor.py``; this module is below it (CudaTensor's dunder
  methods call it) and imports nothing of thnn.
- ``CudaTensor.__cuda_array_interface__`` (version 3) on a GPU.

The GPU library's memory is CUDA memory (DLPack device kCUDA).  The
emulator's "device memory" is host memory, so there it is honestly kCPU:
``np.from_dlpack(t)`` views an emulator tensor and ``from_dlpack(numpy
array)`` makes an emulator tensor of a numpy array, both without a copy;
an emulator tensor has no ``__cuda_array_interface__`` (it is not CUDA
memory).  Element types: float32, float64 and int64 (a bool tensor, stored
as int64, must be converted first: ``t.astype(np.int64)``).
"""
import ctypes


K_DL_CPU, K_DL_CUDA = 1, 2
_CODES = {"Float": (2, 32), "Double": (2, 64), "Long": (0, 64)}   # real -> (DLPack type code, bits)
_REALS = {code_bits: real for real, code_bits in _CODES.items()}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


_DELETER_VERSIONED = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                                     ("deleter", _DELETER_VERSIONED), ("flags", ctypes.c_uint64),
                                     ("dl_tensor", DLTensor)]
_NAMES = {False: (b"dltensor", b"used_dltensor"), True: (b"dltensor_versioned", b"used_dltensor_versioned")}

_api = ctypes.pythonapi
# (a capsule's destructor gets the dying capsule: a raw pointer, never a py_object, whose
# reference counting would revive it)
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

# what a capsule handed out keeps alive (the tensor, its shape and strides),
# by the address of its DLManagedTensor, until the consumer calls the deleter
_exported = {}


@_DELETER
def _delete(managed):
    _exported.pop(ctypes.addressof(managed.contents), None)


@_DELETER_VERSIONED
def _delete_versioned(managed):
    _exported.pop(ctypes.addressof(managed.contents), None)


@_CAPSULE_DESTRUCTOR
def _capsule_destructor(capsule):
    # a capsule nobody consumed (still named "dltensor[_versioned]") releases its tensor
    for name, _ in _NAMES.values():
        if _raw_is_valid(capsule, name):
            _exported.pop(_raw_get_pointer(capsule, name), None)


def device_of(device):
    """(DLPack device type, id) of a thnn.cuda Device (the GPU library runs on CUDA device 0)."""
    return (K_DL_CPU, 0) if device.name == "emulator" else (K_DL_CUDA, 0)


def to_dlpack(t, versioned=False):
    """A capsule viewing CudaTensor t: ``dltensor_versioned`` (DLPack 1.0,
    writable) when versioned, else the older ``dltensor``."""
    if t.real not in _CODES:
        raise TypeError(f"__dlpack__: a {t.dtype} CudaTensor is stored as int64; convert it first "
                        f"(t.astype(np.int64))")
    managed = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    shape = (ctypes.c_int64 * max(t.ndim, 1))(*t.shape)
    strides = (ctypes.c_int64 * max(t.ndim, 1))(*t.strides)
    dl = managed.dl_tensor
    dl.data = t.data_ptr()
    dl.device = DLDevice(*device_of(t.device))
    dl.ndim = t.ndim
    code, bits = _CODES[t.real]
    dl.dtype = DLDataType(code, bits, 1)
    dl.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    dl.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    dl.byte_offset = 0
    managed.manager_ctx = None
    if versioned:
        managed.version = DLPackVersion(1, 0)
        managed.flags = 0
        managed.deleter = _delete_versioned
    else:
        managed.deleter = _delete
    address = ctypes.addressof(managed)
    _exported[address] = (t, managed, shape, strides)
    return _api.PyCapsule_New(address, _NAMES[versioned][0], _capsule_destructor)


class _Imported:
    """The owner of memory taken from a DLPack producer: it holds the
    storage struct the views share and calls the producer's deleter when
    the last view is gone."""

    def __init__(self, managed, storage):
        self.managed, self.storage = managed, storage

    def __del__(self):
        try:
            deleter = self.managed.contents.deleter
            if deleter:
                deleter(self.managed)
        except Exception:   # (at interpreter exit the producer may be gone already)
            pass


def cuda_array_interface(t):
    """The ``__cuda_array_interface__`` (version 3) of a GPU tensor."""
    if t.device.name == "emulator":
        raise AttributeError("__cuda_array_interface__: the emulator's memory is host memory, not CUDA memory; "
                             "hand it over with DLPack (np.from_dlpack(t), torch.from_dlpack(t))")
    if t.real not in _CODES:
        raise AttributeError(f"__cuda_array_interface__: a {t.dtype} CudaTensor is stored as int64; convert it "
                             f"first (t.astype(np.int64))")
    return {"shape": t.shape, "typestr": t.dtype.str, "data": (t.data_ptr(), False), "version": 3,
            "strides": None if t.is_contiguous() else tuple(s * t.itemsize for s in t.strides),
            "stream": None}
