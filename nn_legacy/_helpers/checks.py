"""Argument checks shared by module constructors and table-input modules."""
import functools
import inspect
import math
import os

import numpy as np


def check_positive(layer, **sizes):
    """ValueError naming the layer and every size unless all are positive integers."""
    for v in sizes.values():   # (a plain int first, in a loop: Sequencer sets its rho at every forward)
        if (type(v) is int or isinstance(v, (int, np.integer)) and not isinstance(v, bool)) and v > 0:
            continue
        raise ValueError(f"{layer}: {', '.join(sizes)} must be positive integers, got "
                         + ", ".join(f"{k}={v!r}" for k, v in sizes.items()))


def check_table(layer, what, value, names):
    """value as a list of len(names) entries, or a TypeError naming the layer and the layout."""
    if isinstance(value, (list, tuple)) and len(value) == len(names):
        return list(value)
    got = f"a {type(value).__name__} of {len(value)}" if isinstance(value, (list, tuple)) else type(value).__name__
    raise TypeError(f"{layer}: {what} must be a list [{', '.join(names)}], got {got}")


def check_pointwise_target(layer, input_shape, target_shape):
    """The target of a pointwise criterion (MSE, Abs, BCE, ...) has the
    input's shape, or the same shape once the size-1 dims of both are
    dropped (``[N, 1]`` against ``[N]``, common in Torch7 code); anything
    else is a ValueError with both shapes.  (Torch7 only compared the
    numbers of elements, so ``[2, 3]`` against ``[3, 2]`` gave a number.)"""
    if tuple(input_shape) == tuple(target_shape):
        return
    if [n for n in input_shape if n != 1] == [n for n in target_shape if n != 1]:
        return
    raise ValueError(f"{layer}: target must have the shape of input {_shape(input_shape)} (size-1 dims aside), "
                     f"got {_shape(target_shape)}")


def _shape(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


# ---------------------------------------------------------------- sizes given as floats
#: Constructor arguments that are counts, sizes, dims or indices, by the names
#: Torch7 gave them.  A float holding an integer (``Linear(4.0, 3)``, from Lua's
#: ``/``) is taken as that integer in every constructor that has them; any other
#: float is refused naming the layer and the argument.  A class whose own
#: arguments of other names are integers lists them in ``_integer_arguments``;
#: one that checks an argument of a listed name itself (a real number there, or
#: a float meaning something else) lists it in ``_exact_integer_arguments``.
INTEGER_ARGUMENTS = frozenset("""
    H W adjH adjT adjW dH dT dW depthwiseMultiplier dilationH dilationT dilationW dim dimension hiddenSize
    iH iW ignore_index index inputDimension inputFrameSize inputSize inputSize1 inputSize2 inputsize kH kT
    kW keysOffset length maxoutNumber minK nClasses nFeature nIndex nInputDim nInputDims nInputPlane
    nOutput nOutputDim nOutputPlane ndim numInputDims odepth offset oheight outputDim outputDimension
    outputFrameSize outputSize outputsize owidth pad padH padT padW pad_b pad_l pad_r pad_t paddingValue
    pback pbottom pfront pleft poolSizeH poolSizeT poolSizeW pos pright ptop scale_factor size sizes
    pairs stride upscaleFactor width rho hiddensize
""".split())


def as_integer(layer, name, value):
    """value with every float in it (it may be a list or tuple of them) that
    holds an integer made that int; TypeError naming the layer and the
    argument for any other float.  Values of other types pass unchanged,
    for the layer's own checks."""
    if isinstance(value, (list, tuple)):
        return type(value)(as_integer(layer, name, v) for v in value)
    if isinstance(value, (float, np.floating)):
        if math.isfinite(value) and float(value).is_integer():
            return int(value)
        raise TypeError(f"{layer}: {name} must be an integer, got {value!r}")
    return value


def integral_sizes(cls):
    """Make cls's own constructor take integral floats for its integer
    arguments (see INTEGER_ARGUMENTS); called for every nn_legacy Module and
    Criterion class.  User classes are left as they are."""
    init = cls.__dict__.get("__init__")
    if init is None or not cls.__module__.startswith("nn_legacy") or getattr(init, "_integral_sizes", False):
        return
    signature = inspect.signature(init)
    wanted = (INTEGER_ARGUMENTS | set(getattr(cls, "_integer_arguments", ()))) \
        - set(getattr(cls, "_exact_integer_arguments", ()))
    names = [p.name for p in signature.parameters.values() if p.name in wanted]
    if not names:
        return

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            return init(self, *args, **kwargs)   # Python's own message for a call that does not fit
        for name in names:
            if name in bound.arguments:
                bound.arguments[name] = as_integer(type(self).__name__, name, bound.arguments[name])
        cls = type(self)
        watch = hasattr(cls, "_parameter_names") and not getattr(cls, "_watched", False) \
            and cls.__module__.startswith("nn_legacy")   # (a user's subclass keeps its own class throughout)
        if watch:   # the outermost constructor of this instance: see _watched
            self.__class__ = _watched(cls)
        try:
            return init(*bound.args, **bound.kwargs)
        except TypeError as e:   # Linear('4', 3) fails on a comparison: name the argument (a layer's own message stays)
            text = str(e)
            given = [(name, bound.arguments[name]) for name in names
                     if isinstance(bound.arguments.get(name), (str, bytes))]
            if not given or text.startswith(f"{type(self).__name__}:"):
                raise
            name, value = given[0]
            raise TypeError(f"{type(self).__name__}: {name} must be an integer, got {value!r} "
                            f"({type(value).__name__})") from None
        except (MemoryError, ValueError) as e:   # name the layer (once: a layer may build others)
            text = str(e)
            too_big = isinstance(e, ValueError) and text.startswith("array is too big")   # numpy's, past 2^63 bytes
            if not (isinstance(e, MemoryError) or too_big) or text.split(":")[0].isidentifier():
                raise
            raise MemoryError(f"{type(self).__name__}: {text}") from None
        finally:
            if watch:
                self.__class__ = cls

    __init__._integral_sizes = True
    cls.__init__ = __init__


# ---------------------------------------------------------------- Torch7's type names
#: Torch7 / torch.legacy.nn type names -> (dtype, on a CUDA device)
TORCH_TYPES = {
    "torch.FloatTensor": (np.float32, False), "torch.DoubleTensor": (np.float64, False),
    "torch.CudaTensor": (np.float32, True), "torch.CudaDoubleTensor": (np.float64, True),
    "torch.cuda.FloatTensor": (np.float32, True), "torch.cuda.DoubleTensor": (np.float64, True),
}


def float_dtype(owner, dtype):
    """dtype as float32 or float64 (a numpy dtype or a host Torch7 name),
    or a TypeError naming owner's class."""
    if isinstance(dtype, str) and dtype in TORCH_TYPES and not TORCH_TYPES[dtype][1]:
        dtype = TORCH_TYPES[dtype][0]
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        names = ", ".join(f"'{n}'" for n in TORCH_TYPES)
        raise TypeError(f"{type(owner).__name__}.type: float32 or float64, or a Torch7 type name ({names}), "
                        f"got {dtype!r}") from None
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"{type(owner).__name__}.type: float32 or float64, got {dtype}")
    return dtype


def torch_type_names(method):
    """type(dtype) that also takes Torch7's type names (TORCH_TYPES): the
    host ones as their dtype; the CUDA ones convert to that precision, then
    move the module with cuda()."""
    if getattr(method, "_torch_type_names", False):
        return method

    @functools.wraps(method)
    def type_(self, dtype=None, *args, **kwargs):
        if isinstance(dtype, str) and dtype in TORCH_TYPES:
            dtype, on_device = TORCH_TYPES[dtype]
            if on_device:
                method(self, dtype)
                return self.cuda()
        elif isinstance(dtype, str) and dtype.startswith("torch."):
            float_dtype(self, dtype)   # the TypeError listing the names it takes
        return method(self, dtype, *args, **kwargs)
    type_._torch_type_names = True
    return type_


# ---------------------------------------------------------------- memory
def available_memory():
    """Bytes of memory this process can still take (the system's available
    memory, and what the cgroup limit leaves), or None when unknown."""
    limits = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    limits.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read())
        if limit != "max":
            limits.append(max(int(limit) - used, 0))
    except (OSError, ValueError):
        pass
    if not limits:
        try:
            limits.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (OSError, ValueError, AttributeError):
            return None
    return min(limits)


#: parameters of at least this many bytes are checked against the available memory
BIG = 1 << 26
_WATCHED = {}   # class -> the subclass its instances have while their constructor runs


def _watched(cls):
    """cls, with parameters checked against the available memory as they are
    set: the class an nn_legacy module has while its constructor runs (the
    instance gets its own class back after), so the check costs nothing
    once the module is built.  numpy reserves a new array of zeros lazily:
    a new parameter is checked before the layer touches its memory (its
    gradient, zeros_like, and reset's draw do), so a huge layer
    (``Linear(2**31 + 8, 1)``) is refused with a MemoryError instead of
    getting the process killed by the system."""
    if cls not in _WATCHED:
        def __setattr__(self, name, value):
            if type(value) is np.ndarray and value.base is None and value.nbytes >= BIG \
                    and any(name == p for p, _ in cls._parameter_names):
                _check(value.shape, value.dtype, 3 * value.dtype.itemsize + 8, "with its gradient and initialisation")
            object.__setattr__(self, name, value)
        _WATCHED[cls] = type(cls.__name__, (cls,), {"__setattr__": __setattr__, "_watched": True,
                                                     "__module__": cls.__module__, "__qualname__": cls.__qualname__})
    return _WATCHED[cls]


def check_memory(shape, dtype):
    """A MemoryError before drawing values for a parameter of this shape
    (a float64 draw and its copy in dtype) when they cannot fit in memory."""
    if math.prod(int(n) for n in shape) * 8 >= BIG:
        _check(shape, dtype, 8 + np.dtype(dtype).itemsize, "to draw its initial values")


def _check(shape, dtype, per_element, why):
    count = math.prod(int(n) for n in shape)
    needed = count * per_element
    available = available_memory()
    if available is not None and needed > available:
        size = _gib(count * np.dtype(dtype).itemsize)
        raise MemoryError(f"a parameter of size [{', '.join(map(str, shape))}] ({size} as {np.dtype(dtype)}) needs "
                          f"about {_gib(needed)} {why}, and {_gib(available)} of memory is available")


def _gib(nbytes):
    return f"{nbytes / 2**30:.3g} GiB"


# ---------------------------------------------------------------- Torch7's order against torch.legacy.nn's
def torch7_order_error(layer, call, torch7, legacy, fix):
    """The TypeError for a call that reads as torch.legacy.nn's order
    (``legacy``) where the arguments follow Torch7's (``torch7``)."""
    return TypeError(f"{layer}: {call} reads as torch.legacy.nn's {legacy}, but the arguments follow Torch7's "
                     f"{torch7}; name the argument: {fix}")


def torch7_arguments(module, torch7, legacy, positional, **named):
    """The optional arguments after the first of a constructor whose
    positional order differs between Torch7 (``torch7``) and
    torch.legacy.nn (``legacy``): ``positional`` in Torch7's order, the
    others by name (``named``: None when not given), False by default.  A
    single positional value that is true could be meant in either order and
    is refused, naming both orders."""
    layer, names = type(module).__name__, list(named)
    if len(positional) > len(names):
        raise TypeError(f"{layer}: takes at most {len(names) + 1} positional arguments, {torch7}; "
                        f"got {len(positional) + 1}")
    if len(positional) == 1 and positional[0]:
        raise TypeError(f"{layer}: a second positional argument ({positional[0]!r}) is ambiguous: Torch7's order is "
                        f"{torch7}, torch.legacy.nn's was {legacy}; give it by name")
    values = dict(zip(names, positional))
    for name, value in named.items():
        if value is not None:
            if name in values:
                raise TypeError(f"{layer}: {name} given twice, by position and by name")
            values[name] = value
    return [values.get(name, False) for name in names]
