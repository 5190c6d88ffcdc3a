"""DLPack in: another library's array (or a ``dltensor`` capsule) as a
CudaTensor viewing its memory, for ``thnn.cuda.from_dlpack``.  The capsule
structures and the way out (``CudaTensor.__dlpack__``) are in _dlpack.py,
which sits below _cuda_tensor.py; this module builds CudaTensors, so it
sits above both."""
import ctypes

import numpy as np

from ._cuda_tensor import STORAGE_DEVICE, CudaTensor, contiguous_strides
from ._dlpack import (_NAMES, _REALS, K_DL_CPU, K_DL_CUDA, DLManagedTensor, DLManagedTensorVersioned, _api, _Imported,
                      device_of)


def from_dlpack(device, x):
    """A CudaTensor of device viewing the memory of x (an object with
    ``__dlpack__``, or a ``dltensor`` capsule)."""
    want = device_of(device)
    if hasattr(x, "__dlpack_device__"):
        have = tuple(int(v) for v in x.__dlpack_device__())
        if have[0] != want[0]:
            where = {K_DL_CPU: "host (CPU) memory", K_DL_CUDA: "CUDA memory"}.get(have[0], f"device type {have[0]}")
            raise TypeError(f"from_dlpack: the array is in {where}, the {device.name} device takes "
                            f"{'host' if want[0] == K_DL_CPU else 'CUDA'} memory (DLPack device {want})")
    capsule = x
    if hasattr(x, "__dlpack__"):
        try:
            capsule = x.__dlpack__(max_version=(1, 0))
        except TypeError:   # (a producer older than DLPack 1.0)
            capsule = x.__dlpack__()
    versioned = next((v for v, (name, _) in _NAMES.items() if _api.PyCapsule_IsValid(capsule, name)), None)
    if versioned is None:
        raise TypeError(f"from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got "
                        f"{type(x).__name__}")
    name, used = _NAMES[versioned]
    kind = DLManagedTensorVersioned if versioned else DLManagedTensor
    managed = ctypes.cast(_api.PyCapsule_GetPointer(capsule, name), ctypes.POINTER(kind))
    _api.PyCapsule_SetName(capsule, used)   # consumed: ours to release now
    owner = None
    try:
        dl = managed.contents.dl_tensor
        if (dl.device.device_type, dl.device.device_id) != want:
            raise TypeError(f"from_dlpack: the array is on DLPack device "
                            f"{(dl.device.device_type, dl.device.device_id)}, {device.name} is {want}")
        if versioned and managed.contents.version.major > 1:
            raise TypeError(f"from_dlpack: DLPack version {managed.contents.version.major} is newer than 1")
        real = _REALS.get((dl.dtype.code, dl.dtype.bits)) if dl.dtype.lanes == 1 else None
        if real is None:
            raise TypeError(f"from_dlpack: a CudaTensor holds float32, float64 or int64, got DLPack type code "
                            f"{dl.dtype.code} of {dl.dtype.bits} bits (x{dl.dtype.lanes})")
        shape = tuple(dl.shape[d] for d in range(dl.ndim))
        strides = tuple(dl.strides[d] for d in range(dl.ndim)) if dl.strides else None
        if strides is None:
            strides = contiguous_strides(shape)
        itemsize = dl.dtype.bits // 8
        base = (dl.data or 0) + dl.byte_offset
        low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0 and n > 0)
        high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0 and n > 0)
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        ffi = device.ffi
        storage = ffi.new(f"TH{real}Storage*")
        storage.data = ffi.cast(f"{'float' if real == 'Float' else 'double' if real == 'Double' else 'int64_t'}*",
                                base + low * itemsize)
        storage.size = (high - low + 1) if n else 0
        storage.flag = STORAGE_DEVICE   # (not owned: the producer frees it, through its deleter)
        owner = _Imported(managed, storage)
        return CudaTensor._own(device, real, storage, -low, shape, strides, owner)
    finally:
        if owner is None and managed.contents.deleter:   # refused: give it back now
            managed.contents.deleter(managed)
