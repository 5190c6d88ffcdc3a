"""numpy arrays <-> TH tensors, and one Python wrapper per kernel of THNN.h.

A wrapper takes the kernel's arguments without the state, in the header's
order, positionally or by keyword (every argument must be given).  Tensors
are numpy arrays (or None where the header allows it), wrapped without a
copy; scalars are Python numbers.  It returns the arrays of the [OUT] and
[BUFFER] arguments, in order (one array alone, a tuple of several, None if
there are none): the array that was passed in when the kernel kept it, else
a new one.  A kernel error raises THNNError naming the kernel.  Each
wrapper's ``__doc__`` lists its arguments and what it returns.

[OUT] and [BUFFER] arrays: one that fits is written in place and returned;
one that does not is REPLACED, never refused and never written: the kernel
allocates a new array, returned instead.  Fitting means the result's dtype
and shape, C-contiguous, writeable, aligned, and no memory shared with an
array the kernel reads or with an earlier [OUT] argument.  (Anything but a
numpy array or None is a TypeError.)  Arrays the kernel reads may be
strided; one in another integer type (indices) or in non-native byte order
is read from a converted copy.  [INOUT] arrays, and [INPLACE] ones in
place, are written where they are: they must be writeable, aligned and of
the kernel's dtype in native byte order, or the call is refused.

The ordinary call runs in C (thnn/_call.c: Caller, which Kernel extends);
every other call (keywords, conversions, errors) runs Kernel._call here,
with the same results.
"""
import numbers

import numpy as np

from . import _call, _header
from ._thnn import ffi, lib

MAX_DIM = len(ffi.new("THFloatTensor*").size)
_REAL = {"Float": np.dtype(np.float32), "Double": np.dtype(np.float64)}
_INDEX = np.dtype(np.int64)
# scalar argument types of THNN.h: what Python value each takes
_SCALARS = {"bool": bool, "int": int, "int64_t": int, "accreal": float, "real": float,
            "double": float, "float": float}
_INT_RANGE = {"int": (-2**31, 2**31 - 1), "int64_t": (-2**63, 2**63 - 1)}
_PRODUCED = frozenset({"OUT", "BUFFER"})
_MISSING = object()   # an argument not given (Kernel._bind)


class THNNError(ValueError):
    """A kernel refused its arguments: the message names kernel, argument, and sizes."""


_call.configure(THNNError, *(int(ffi.cast("uintptr_t", ffi.addressof(lib, f"TH{real}Storage_free")))
                             for real in ("Float", "Double", "Long")))


def _describe(a):
    return f"{a.ndim}D of size [{', '.join(map(str, a.shape))}]"


class _Types:
    """The cffi types of one TH tensor type ('Float', 'Double', 'Long'), looked
    up once: ffi.new and ffi.from_buffer take them without parsing a string."""

    def __init__(self, real):
        ctype = {"Float": "float", "Double": "double", "Long": "int64_t"}[real]
        self.real = real
        self.tensor = ffi.typeof(f"TH{real}Tensor*")
        self.storage = ffi.typeof(f"TH{real}Storage*")
        self.buffer = ffi.typeof(f"{ctype}[]")      # for ffi.from_buffer
        self.pointer = ffi.typeof(f"{ctype}*")      # for ffi.cast
        self.free = getattr(lib, f"TH{real}Storage_free")
        self.wrap = getattr(lib, f"TH{real}Tensor_wrap")


_TYPES = {real: _Types(real) for real in ("Float", "Double", "Long")}
_STATE = ffi.typeof("THNNState*")


class _Tensor:
    """The TH tensor struct of one numpy array (or of no array yet).

    structs, if given, is a (tensor, storage) pair of C structs to fill
    instead of allocating two (see Kernel._spare); only for an array."""

    __slots__ = ("types", "array", "storage", "tensor", "adopted")

    def __init__(self, real, ctype, array, structs=None):
        # ctype ('float', 'double', 'int64_t') follows from real; the
        # argument stays for callers that name both
        types = self.types = real if isinstance(real, _Types) else _TYPES[real]
        self.array = array
        self.adopted = False  # a storage the kernel allocated now belongs to a numpy array
        if array is None:
            self.tensor = ffi.new(types.tensor)
            self.storage = ffi.NULL
            return
        if structs is None:
            self.tensor, self.storage = ffi.new(types.tensor), ffi.new(types.storage)
        else:
            self.tensor, self.storage = structs
        # the same address either way; the buffer protocol is ~1 us faster
        # per array than .ctypes, and takes C-contiguous arrays only
        if array.flags.c_contiguous:
            data = ffi.from_buffer(types.buffer, array)
        else:
            data = ffi.cast(types.pointer, array.ctypes.data)
        types.wrap(self.tensor, self.storage, data, array.size, array.ndim, array.shape, array.strides)

    @property
    def real(self):
        return self.types.real

    def result(self, others):
        """The array this tensor holds after the kernel ran."""
        storage = self.tensor.storage
        if storage == self.storage:
            return self.array
        for other in others:  # an in-place kernel made it a view of another argument
            if other.storage != ffi.NULL and storage == other.storage:
                return other.array
        if storage == ffi.NULL:
            return None
        return _adopt(self)


def _forward_first(name):
    """The hint for a backward kernel called without forward's output (its argument named output)."""
    return ": backward needs the output of forward: call forward first" if name == "output" else ""


def _adopt(wrapped):
    """Wrap a storage the kernel allocated as a numpy array that frees it."""
    types, t = wrapped.types, wrapped.tensor
    dtype = _REAL.get(types.real, _INDEX)
    shape = tuple(t.size[0:t.nDimension])
    storage = ffi.cast(types.storage, t.storage)
    data = ffi.cast("char*", storage.data)
    # From the flag on, the owner frees the storage, not _release: no call
    # (where a KeyboardInterrupt could land) comes between the two, and one
    # landing after ffi.gc drops the owner, which frees it.
    wrapped.adopted = True
    owner = ffi.gc(data, lambda _, s=storage, free=types.free: free(s))
    n = int(np.prod(shape, dtype=np.int64)) if shape else 0
    return np.frombuffer(ffi.buffer(owner, n * dtype.itemsize), dtype=dtype).reshape(shape)


def _release(tensors):
    """After a failed or interrupted call: free what the kernel allocated
    for [OUT]/[BUFFER] and no numpy array owns yet."""
    for wrapped in tensors:
        t = wrapped.tensor
        if (not wrapped.adopted and t.storage != ffi.NULL and t.storage != wrapped.storage
                and t.storage.flag & 1):
            wrapped.types.free(t.storage)
            t.storage = ffi.NULL


_may_share_memory = np.may_share_memory


def _whole_elements(strides, itemsize):
    """Whether every stride is a whole number of elements."""
    for s in strides:
        if s % itemsize:
            return False
    return True


class _TensorArg:
    """What a call does with one tensor argument, worked out once per kernel
    from its declaration in THNN.h."""

    __slots__ = ("position", "name", "produced", "written", "inplace_written", "optional",
                 "is_index", "types", "dtype")

    def __init__(self, position, arg, real):
        self.position = position       # among the kernel's arguments (the state not counted)
        self.name = arg.name
        self.produced = bool(arg.tags & _PRODUCED)       # [OUT] or [BUFFER]: the kernel fills it
        self.written = "INOUT" in arg.tags               # written in place, always
        self.inplace_written = "INPLACE" in arg.tags     # written in place when inplace is true
        self.optional = "OPTIONAL" in arg.tags
        self.is_index = arg.is_index
        self.types = _TYPES["Long" if arg.is_index else real]
        self.dtype = _INDEX if arg.is_index else _REAL[real]

    @property
    def kind(self):
        """This argument's byte of the plan thnn/_call.c reads."""
        return (0x80 | self.produced | self.written << 1 | self.inplace_written << 2 | self.optional << 3
                | self.is_index << 4)


# the plan bytes of scalar arguments (thnn/_call.c); other types never take the C path
_SCALAR_KINDS = {"bool": ord("b"), "int": ord("i"), "int64_t": ord("l"), "accreal": ord("d"), "real": ord("d"),
                 "double": ord("d"), "float": ord("d")}

OUT_POLICY = ("[OUT]/[BUFFER] arrays: pass None, or an array to reuse.  One of the result's dtype and shape, "
              "C-contiguous, writeable, aligned and sharing no memory with an input (or an earlier [OUT]) is "
              "written and returned; any other is replaced: left untouched, and a new array is returned.")


def _type_text(arg, real):
    if arg.is_index:
        return "int64 array (other integer types are converted)"
    if arg.is_tensor:
        return f"{_REAL[real].name} array"
    return {"bool": "bool", "int": "int (32-bit)", "int64_t": "int"}.get(arg.ctype, "float")

class Kernel(_call.Caller):
    """One kernel of THNN.h for one type (`thnn.Float.Linear_updateOutput`).

    trampoline: the position of the kernel's trampoline in the extension
    (thnn/_header.py, trampolines): Float kernels first, then Double, in the
    header's order."""

    def __init__(self, function, real, trampoline):
        self.function = function
        self.real = real
        self.dtype = _REAL[real]
        self._ctype = "float" if real == "Float" else "double"
        self._c = getattr(lib, f"THNN_{real}{function.name}")
        self._args = function.args[1:]
        self._inplace = next((i for i, a in enumerate(self._args) if a.name == "inplace"), None)
        # the per-call plan: (position, arg, Python type wanted, integer
        # range or None) of each scalar with a rule, and what to do with each
        # tensor, in order
        self._scalars = [(i, a, _SCALARS[a.ctype], _INT_RANGE.get(a.ctype)) for i, a in enumerate(self._args)
                         if not a.is_tensor and a.ctype in _SCALARS]
        self._tensors = [_TensorArg(i, a, real) for i, a in enumerate(self._args) if a.is_tensor]
        self._reads = [t.position for t in self._tensors if not t.produced]
        # C structs for a call (a THNNState, and a tensor and a storage per
        # tensor argument), reused from call to call: a call takes a set off
        # this list and puts it back when the kernel returned without error,
        # so calls from several threads at once each have their own (pop and
        # append are atomic).  They hold addresses only, never an array.
        self._spare = []
        self._names = {a.name: i for i, a in enumerate(self._args)}
        self.__name__ = function.name
        self.__doc__ = self._doc()
        tensors = {t.position: t for t in self._tensors}
        kinds = bytes(tensors[i].kind if i in tensors else _SCALAR_KINDS.get(a.ctype, ord("?"))
                      for i, a in enumerate(self._args))
        super().__init__(function.name, kinds, -1 if self._inplace is None else self._inplace,
                         lib.THNN_trampoline(trampoline), real == "Double", self._call)

    def _doc(self):
        """The wrapper's __doc__: the call, each argument on a line, what it returns."""
        names = [a.name for a in self._args]
        produced = [a.name for a in self._args if a.tags & _PRODUCED]
        returns = "None" if not produced else produced[0] if len(produced) == 1 else f"({', '.join(produced)})"
        lines = [f"{self.function.name}({', '.join(names)}) -> {returns}", "",
                 f"THNN_{self.real}{self.function.name} ({self.dtype.name}).  Arguments, positional or by "
                 "keyword, all required:"]
        for a in self._args:
            tags = "".join(f" [{t}]" for t in _header.TAGS if t in a.tags)
            lines.append(f"    {a.name}: {_type_text(a, self.real)}{tags} - {a.doc}")
        lines.append(f"Returns {returns}" + (" (the [OUT]/[BUFFER] arrays)." if produced else "."))
        if produced:
            lines.append(OUT_POLICY)
        return "\n".join(lines)

    def _bind(self, values, keywords):
        """The arguments in the header's order, from positional values and keywords."""
        name = self.function.name
        if len(values) > len(self._args):
            raise self._count_error(len(values) + len(keywords))
        bound = list(values) + [_MISSING] * (len(self._args) - len(values))
        for key, value in keywords.items():
            i = self._names.get(key)
            if i is None:
                raise TypeError(f"{name}: no argument named {key!r}; the arguments are "
                                f"({', '.join(a.name for a in self._args)})")
            if bound[i] is not _MISSING:
                raise TypeError(f"{name}: {key} given twice (by position and by keyword)")
            bound[i] = value
        missing = [a.name for a, v in zip(self._args, bound) if v is _MISSING]
        if missing:
            raise TypeError(f"{name} takes {len(self._args)} arguments ({', '.join(a.name for a in self._args)}), "
                            f"missing {', '.join(missing)}")
        return bound

    def _count_error(self, got):
        return TypeError(f"{self.function.name} takes {len(self._args)} arguments "
                         f"({', '.join(a.name for a in self._args)}), got {got}")

    def _error(self, message, kind=THNNError):
        return kind(f"{self.function.name}: {message}")

    def _check_array(self, plan, a, written):
        """The array the kernel may read (and write, if written) for a tensor argument."""
        if not isinstance(a, np.ndarray):
            raise self._error(f"{plan.name} must be a numpy array, got {type(a).__name__}", TypeError)
        if a.dtype != plan.dtype:
            if plan.is_index and a.dtype.kind in "iu":
                a = a.astype(_INDEX)
            elif plan.is_index:
                raise self._error(f"{plan.name} must be an integer array (class indices), got {a.dtype}",
                                  TypeError)
            elif not a.dtype.isnative and a.dtype.newbyteorder("=") == plan.dtype:
                # big-endian (non-native) data, say from np.fromfile(path, ">f4")
                if written:
                    raise self._error(f"{plan.name} is written in place but the array is in non-native byte "
                                      f"order ({a.dtype.str}); pass a native one: a.astype(np.{plan.dtype.name})",
                                      TypeError)
                a = a.astype(plan.dtype)
            elif a.dtype in _REAL.values():
                raise self._error(f"{plan.name} must be {self.dtype} like the other tensors, got {a.dtype}",
                                  TypeError)
            else:
                raise self._error(f"{plan.name} must be a float32 or float64 array, got {a.dtype}", TypeError)
        if a.ndim == 0 or a.ndim > MAX_DIM:
            raise self._error(f"{plan.name} must have 1 to {MAX_DIM} dimensions, got {a.ndim}")
        flags = a.flags
        if written and not flags.writeable:
            raise self._error(f"{plan.name} is written in place but the array is read-only")
        # C reads elements through a typed pointer and strides counted in
        # elements: a misaligned array, or a stride that is not a whole number
        # of elements, is read from an aligned copy.  One written in place
        # cannot be: the kernel would write into the copy.
        if not flags.aligned or not _whole_elements(a.strides, a.itemsize):
            if written:
                raise self._error(f"{plan.name} is written in place but the array is not aligned to its "
                                  f"element size (strides {a.strides}); pass an aligned array")
            a = np.array(a, order="C", copy=True)
        return a

    def _call(self, *values, **keywords):
        """The Python path of a call (thnn/_call.c takes the ordinary ones)."""
        if keywords:
            values = self._bind(values, keywords)
        elif len(values) != len(self._args):
            raise self._count_error(len(values))
        c_args = list(values)
        for i, arg, kind, bounds in self._scalars:
            value = values[i]
            # a bool, float, or int in range passes as it is (what _scalar returns for it)
            if type(value) is not kind or (bounds is not None and not bounds[0] <= value <= bounds[1]):
                c_args[i] = self._scalar(arg, kind, value)
        inplace = self._inplace is not None and c_args[self._inplace]
        wrapped, outs = [], []
        # arrays the kernel reads (or writes in place): an [OUT] array that
        # overlaps one of them, or an earlier [OUT] array, is not written into
        # (listed when the first [OUT] array is passed in)
        taken = None
        try:
            structs = self._spare.pop()
        except IndexError:
            structs = self._new_structs()
        state, pairs = structs
        for plan, pair in zip(self._tensors, pairs):
            value = values[plan.position]
            if plan.produced:
                if value is not None and not isinstance(value, np.ndarray):
                    if getattr(value, "device", None) is None:   # (a CudaTensor buffer: replaced by a host one)
                        raise self._error(f"{plan.name} must be a numpy array to reuse or None, "
                                          f"got {type(value).__name__}", TypeError)
                    value = None
                if value is not None:
                    if taken is None:
                        taken = [values[i] for i in self._reads if isinstance(values[i], np.ndarray)]
                    value = self._reusable(value, taken, plan.dtype)
                    if value is not None:
                        taken.append(value)
                t = _Tensor(plan.types, None, value, pair)
                outs.append(t)
            elif value is None:
                if not plan.optional:
                    raise self._error(f"{plan.name} is required, got None{_forward_first(plan.name)}", TypeError)
                c_args[plan.position] = ffi.NULL
                continue
            else:
                written = plan.written or (plan.inplace_written and inplace)
                t = _Tensor(plan.types, None, self._check_array(plan, value, written), pair)
            wrapped.append(t)
            c_args[plan.position] = t.tensor
        done = False
        try:
            if self._c(state, *c_args) != 0:   # (the structs are not reused: the state holds the error)
                raise self._error(ffi.string(state.message).decode("utf-8", "replace"))
            if len(outs) == 1:
                result = outs[0].result(wrapped)
            elif not outs:
                result = None
            else:
                result = tuple([t.result(wrapped) for t in outs])
            done = True
        finally:
            if not done:  # an error, or a KeyboardInterrupt right after the kernel returned
                _release(outs)
        self._spare.append(structs)   # only now: result() reads the structs
        return result

    def _new_structs(self):
        """A THNNState and a (tensor, storage) pair per tensor argument."""
        return ffi.new(_STATE), [(ffi.new(p.types.tensor), ffi.new(p.types.storage)) for p in self._tensors]

    def _reusable(self, a, taken, dtype):
        """An [OUT]/[BUFFER] array of dtype the kernel may write into, or None."""
        if a.dtype != dtype or a.ndim == 0 or a.ndim > MAX_DIM:
            return None
        flags = a.flags
        if not (flags.c_contiguous and flags.writeable and flags.aligned):
            return None
        for x in taken:
            if _may_share_memory(a, x):
                return None
        return a

    def _scalar(self, arg, kind, value):
        """A scalar argument as the C type (of Python type kind) wants it, or an error naming it."""
        if kind is bool:
            if value is True or value is False:
                return value
            if isinstance(value, np.bool_) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
                return bool(value)
            raise self._error(f"{arg.name} must be a bool, got {value!r}", TypeError)
        if kind is int:
            if type(value) is not int and not isinstance(value, (int, np.integer)):
                raise self._error(f"{arg.name} must be an integer, got {value!r}", TypeError)
            lo, hi = _INT_RANGE[arg.ctype]
            if not lo <= value <= hi:
                raise self._error(f"{arg.name} must lie in [{lo}, {hi}], got {value}")
            return int(value)
        if type(value) is float:
            return value
        if not isinstance(value, numbers.Real):
            raise self._error(f"{arg.name} must be a real number, got {value!r}", TypeError)
        return float(value)


class Backend:
    """Every kernel for one type: `thnn.Float`, `thnn.Double`."""

    def __init__(self, real, functions):
        self.real = real
        self.dtype = _REAL[real]
        first = {"Float": 0, "Double": len(functions)}[real]   # where its trampolines start
        for i, f in enumerate(functions):
            setattr(self, f.name, Kernel(f, real, first + i))

    def __repr__(self):
        return f"<thnn backend {self.real} ({self.dtype})>"


FUNCTIONS = _header.parse(ffi.string(lib.THNN_headerText()).decode("ascii"))
Float = Backend("Float", FUNCTIONS)
Double = Backend("Double", FUNCTIONS)



def backend(dtype):
    """The backend for float32 or float64; TypeError for anything else."""
    if dtype is Float.dtype:   # an array's dtype is usually numpy's own instance (and hashing one is slow)
        return Float
    if dtype is Double.dtype:
        return Double
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return Float
    if dtype == np.float64:
        return Double
    raise TypeError(f"thnn works in float32 or float64, got {dtype}")
