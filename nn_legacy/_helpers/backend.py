"""What Module and Criterion share to find their kernels and move their
arrays between dtypes and devices (so neither needs to import the other)."""
import numpy as np

from thnn.cuda import CudaTensor

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
CONVERTED = FLOATS + (np.dtype(np.float16),)   # type() converts half arrays too (a CudaHalf Torch7 file's)


class Layer:
    """The base of Module and Criterion: the helpers below recognise both by it."""


def check_float(owner, array, name):
    """TypeError naming owner (a module or criterion) unless array is float32 or
    float64 in native byte order; big-endian data gets its own message."""
    dtype = array.dtype
    if dtype in FLOATS:
        return
    if dtype.kind == "f" and not dtype.isnative and dtype.newbyteorder("=") in FLOATS:
        native = dtype.newbyteorder("=").name
        raise TypeError(f"{type(owner).__name__}: {name} is {native} in non-native (big-endian) byte order "
                        f"({dtype.str}); convert it first: {name}.astype(np.{native})")
    raise TypeError(f"{type(owner).__name__}: {name} must be float32 or float64, got {dtype}")


def device_kernels(module, input, name):
    """The CUDA backend of input's device and dtype, for a module on that device."""
    if input.dtype not in FLOATS:
        raise TypeError(f"{type(module).__name__}: {name} must be float32 or float64, got {input.dtype}")
    params = module.parameters()[0] if hasattr(module, "parameters") else []   # a criterion has none
    if params and not (isinstance(params[0], CudaTensor) and params[0].device is input.device):
        raise TypeError(f"{type(module).__name__}: {name} is on CUDA device {input.device.name!r} but the module "
                        f"is not; call module.cuda() first")
    if params and params[0].dtype != input.dtype:
        raise TypeError(f"{type(module).__name__}: {name} is {input.dtype} but the module is {params[0].dtype}")
    return input.device.backend(input.dtype)


def move(value, device, memo):
    """value with every array moved to device (see Module.cuda); memo as in _convert."""
    if isinstance(value, Layer):
        if id(value) in memo:
            return memo[id(value)][1]
        if type(value)._cuda_unsupported:
            raise TypeError(f"{type(value).__name__} does not run on a CUDA device: "
                            f"{type(value)._cuda_unsupported}")
        memo[id(value)] = (value, value)
        caches = getattr(type(value), "_cache_names", ())   # (see Module._cache_names)
        for key, v in list(vars(value).items()):
            setattr(value, key, None if key in caches else move(v, device, memo))
        return value
    if isinstance(value, (np.ndarray, CudaTensor)):
        if isinstance(value, CudaTensor) and value.device is device:
            return value
        if id(value) not in memo:
            host = value.numpy() if isinstance(value, CudaTensor) else value
            memo[id(value)] = (value, device.to_device(host))
        return memo[id(value)][1]
    if isinstance(value, list):
        return [move(v, device, memo) for v in value]
    return value


def convert(value, dtype, memo):
    """value with its float arrays converted; memo maps id(original) to
    (original, converted), holding the original so its id stays unique.
    Arrays on a CUDA device come back to the host."""
    if isinstance(value, CudaTensor):
        if id(value) not in memo:
            host = value.numpy()
            memo[id(value)] = (value, host.astype(dtype) if host.dtype in FLOATS else host)
        return memo[id(value)][1]
    if isinstance(value, np.ndarray) and value.dtype in CONVERTED:
        if value.dtype == dtype:  # kept, so views (flattenParameters) and references stay live
            return value
        if id(value) not in memo:  # the original is kept too, so its id cannot be reused meanwhile
            memo[id(value)] = (value, value.astype(dtype))
        return memo[id(value)][1]
    if isinstance(value, Layer):  # a criterion may hold others (CrossEntropy's nll)
        if id(value) in memo:  # reached before (MapTable's module, a module in two places): done
            return memo[id(value)][1]
        memo[id(value)] = (value, value)
        return value.type(dtype, memo)
    if isinstance(value, list):
        return [convert(v, dtype, memo) for v in value]
    return value
