"""Array plumbing shared by the modules written in numpy: buffer reuse, the
checks every layer makes on its arguments (with messages naming the layer,
the argument and the sizes), and the Torch7 rules for a parameter that is
added to or multiplied with an input of another shape (Add, CAdd, CMul).
"An array" is a numpy array or a thnn.cuda.CudaTensor throughout (see
_namespace.py)."""
import math
import numpy as np

from thnn.cuda import CudaTensor

from .namespace import _leaves

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
# np.may_share_memory without the __array_function__ dispatch (a third of a microsecond a call), for plain
# numpy arrays only
_may_share_memory = getattr(np.may_share_memory, "_implementation", np.may_share_memory)
ARRAYS = (np.ndarray, CudaTensor)


# quietly(): numpy's floating-point error state set to "ignore" around one call.  np.errstate costs about
# 2 us a use (an object, two Python methods and the state built from keywords each time), as much as a small
# module's whole forward; what it does is to set a context variable to a state object and reset it after, so
# that state is built once here.  Numpy versions without that variable (numpy 1.x) take np.errstate.
try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    _IGNORE_ALL = _make_extobj(all="ignore")
except (ImportError, AttributeError, TypeError):   # pragma: no cover (numpy 1.x)
    _extobj_contextvar = _IGNORE_ALL = None


def quietly(function, *args):
    """function(*args) with floating-point errors ignored (inf and nan as the
    arithmetic gives them, without warnings, as in Torch7): what ``with
    np.errstate(all="ignore")`` does, at a tenth of its cost."""
    if _extobj_contextvar is None:   # pragma: no cover (numpy 1.x)
        with np.errstate(all="ignore"):
            return function(*args)
    if _extobj_contextvar.get() is _IGNORE_ALL:   # inside a verb (thnn/_guard.c sets it), a third of the cost
        return function(*args)
    token = _extobj_contextvar.set(_IGNORE_ALL)
    try:
        return function(*args)
    finally:
        _extobj_contextvar.reset(token)


def is_array(value):
    """A numpy array or a CudaTensor."""
    return isinstance(value, ARRAYS)


def to_host(a):
    """a as a numpy array: a itself, or a CudaTensor's host copy (for the few
    host-side steps, such as a reset that counts a connection table)."""
    return a.numpy() if isinstance(a, CudaTensor) else a


def data_address(a):
    """The address of a's first element (host or device memory)."""
    return a.data_ptr() if isinstance(a, CudaTensor) else a.__array_interface__["data"][0]


def describe(a):
    """``2D of size [4, 3]``: how error messages show an array."""
    return f"{a.ndim}D of size [{', '.join(map(str, a.shape))}]"


def name_of(module):
    return type(module).__name__


def reuse(buffer, shape, dtype, *avoid):
    """``buffer`` if it already has this shape and dtype, else a new
    uninitialised array.

    Modules keep their output and gradInput through it: while shapes stay
    the same a call writes into the array returned by the previous call
    (Torch7's contract); a new shape gets a new array, so an array handed out
    earlier is never resized.  A buffer that overlaps one of ``avoid`` (say
    the module's own output fed back to it as input) is not reused either.
    The buffer lives where the arrays of ``avoid`` (tables are searched) do:
    on their CUDA device when they are CudaTensors, else on the host.
    """
    shape = tuple(shape)
    for a in avoid:   # the usual case first: host arrays only (no table to search, no device to find)
        if a is not None and type(a) is not np.ndarray:
            break
    else:
        if buffer is None:
            return np.empty(shape, dtype)
        if type(buffer) is np.ndarray:
            if buffer.shape == shape and buffer.dtype == dtype and buffer.flags.writeable:
                for a in avoid:
                    if a is not None and _may_share_memory(buffer, a):
                        return np.empty(shape, dtype)
                return buffer
            return np.empty(shape, dtype)
    avoid = tuple(_leaves(avoid))
    device = next((a.device for a in avoid if isinstance(a, CudaTensor)), None)
    if device is not None:   # the arrays live on a CUDA device: so does the buffer
        if (isinstance(buffer, CudaTensor) and buffer.device is device and buffer.shape == shape
                and buffer.dtype == dtype and buffer.is_contiguous()
                and not any(isinstance(a, CudaTensor) and a.shares_memory(buffer) for a in avoid)):
            return buffer
        return device.empty(shape, dtype)
    if (isinstance(buffer, np.ndarray) and buffer.shape == shape and buffer.dtype == dtype
            and buffer.flags.writeable and not any(a is not None and np.may_share_memory(buffer, a)
                                                   for a in avoid)):
        return buffer
    return np.empty(shape, dtype)


def host_plan(module, input, state, build):
    """What ``build(input)`` derives from a C-contiguous host input's shape
    and dtype and the module's ``state`` (a tuple of the fields it reads),
    kept as ``module._plan`` while the three stay the same; None for any
    other input (the caller takes its general path).  ``build`` runs the
    module's checks, so bad input raises as before and is never kept; the
    plan holds sizes only, no arrays (a clone or a pickle of the module
    carries no stale view).  Modules that use it list ``_plan`` in their
    ``_cache_names``."""
    if type(input) is not np.ndarray or not input.flags.c_contiguous:
        return None
    key = (input.shape, input.dtype, state)
    plan = module.__dict__.get("_plan")
    if plan is not None and plan[0] == key:
        return plan[1]
    value = build(input)
    module._plan = (key, value)
    return value


def check_float_array(module, value, name, dtype=None):
    """value must be a float32/float64 array (of ``dtype`` when given)."""
    if not isinstance(value, ARRAYS):
        raise TypeError(f"{name_of(module)}: {name} must be a numpy array, got {type(value).__name__}")
    if value.dtype not in _FLOATS:
        raise TypeError(f"{name_of(module)}: {name} must be float32 or float64, got {value.dtype}")
    if dtype is not None and value.dtype != dtype:
        raise TypeError(f"{name_of(module)}: {name} is {value.dtype} but the input is {np.dtype(dtype)}")


def check_shape(module, value, name, shape, dtype, what):
    """value must be a float array of this shape and dtype (``what`` says
    whose shape it is, e.g. "the output")."""
    check_float_array(module, value, name, dtype)
    if value.shape != tuple(shape):
        raise ValueError(f"{name_of(module)}: {name} must be of size [{', '.join(map(str, shape))}] "
                         f"like {what}, got {describe(value)}")


def check_like(module, value, name, like, what):
    """value must have the shape and dtype of the array ``like``."""
    check_shape(module, value, name, like.shape, like.dtype, what)


def check_features(module, input, n, name="input"):
    """input must be ``[n]`` (one sample) or ``[batch, n]``."""
    if input.ndim not in (1, 2) or input.shape[-1] != n:
        raise ValueError(f"{name_of(module)}: {name} must be 1D [{n}] or 2D [batch, {n}], got {describe(input)}")


def check_writeable(module, array, name):
    """In-place modes write into the caller's array: it must allow that."""
    if not array.flags.writeable:
        raise ValueError(f"{name_of(module)}: in-place mode writes into {name}, but it is read-only")


def broadcast_parameter(module, param, name, input):
    """A view of ``param`` that broadcasts against ``input`` by Torch7's
    CAdd/CMul rules, tried in this order:

    1. the same number of elements: element by element, in memory order
       (``param`` is reshaped to the input's shape);
    2. the same number of dims, each of the parameter's sizes 1 or the
       input's: the parameter is expanded along its size-1 dims;
    3. a batch: ``input`` is ``[batch, ...]`` with as many elements per
       sample as the parameter has; every sample gets the whole parameter.
    """
    if param.size == input.size:
        return param.reshape(input.shape)
    if param.ndim == input.ndim and all(p in (1, n) for p, n in zip(param.shape, input.shape)):
        return param
    if input.ndim >= 2 and int(math.prod(input.shape[1:])) == param.size:
        return param.reshape((1,) + input.shape[1:])
    raise ValueError(f"{name_of(module)}: input must have {param.size} elements, or {param.size} per sample of "
                     f"a batch, or a shape that {name} [{', '.join(map(str, param.shape))}] expands to; "
                     f"got {describe(input)}")


def reduce_to(values, view, param_shape):
    """The sum of ``values`` (input-shaped) over the dims along which the
    broadcast ``view`` of a parameter was expanded, shaped as the parameter:
    the parameter's gradient from the per-element one."""
    axes = tuple(i for i, (v, n) in enumerate(zip(view.shape, values.shape)) if v == 1 and n != 1)
    return values.sum(axis=axes, keepdims=True).reshape(param_shape)


def parameter_shape(module, size):
    """A parameter shape given Torch7-style as sizes (``CMul(3, 4)``) or as
    one tuple (``CMul((3, 4))``): a tuple of positive ints."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not size or not all(isinstance(n, (int, np.integer)) and n > 0 for n in size):
        raise ValueError(f"{name_of(module)}: size must be one or more positive integers, got {size}")
    return tuple(int(n) for n in size)
