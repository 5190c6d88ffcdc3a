"""CudaTensor: a strided array in one CUDA device's memory.

It has numpy's array interface, the part the modules use: ``shape``,
``dtype``, ``ndim``, ``size``, views without a copy (``reshape`` when the
memory allows, ``transpose``, ``T``, ``swapaxes``, basic slicing
``t[1:, ::2, None]``, ``narrow``, ``select``, ``squeeze``, ``unsqueeze``),
indexing with integer and boolean arrays (a copy, as numpy's), assignment
into any of these, the arithmetic operators, comparisons (giving bool
tensors), reductions (``sum``, ``max``, ``argmax``, ...) and ``astype``.
The math runs as device kernels (thcunn_cu/generic/THCTensorMath.cu)
through the device's namespace (``t.__array_namespace__()``, see
thnn/_cuda_numpy.py), which has numpy's functions under numpy's names.

Element types: float32, float64, int64 and bool (stored as int64 0 or 1).
Strides count elements, not bytes.  Data reaches the host only through
``numpy()`` (or DLPack, ``__cuda_array_interface__``); numpy itself refuses
a CudaTensor (``np.asarray(t)``, ``np.exp(t)``, ``array + t`` raise a
TypeError that says what to do), so host and device arrays never mix
silently.
"""
import numpy as np

from . import _binding

# element type names (as in the C library) and their numpy dtypes; Bool is
# stored as the C library's int64 ("Long") tensors, holding 0 or 1
DTYPES = {"Float": np.dtype(np.float32), "Double": np.dtype(np.float64), "Long": np.dtype(np.int64),
          "Bool": np.dtype(np.bool_)}
REALS = {dtype: real for real, dtype in DTYPES.items()}
CTYPES = {"Float": "float", "Double": "double", "Long": "int64_t"}
STORAGE_DEVICE = 2  # TH_STORAGE_DEVICE of thcunn_cu/THC.h


class CudaError(_binding.THNNError):
    """A CUDA twin refused its arguments, or a device operation failed."""
    __module__ = "thnn.cuda"   # its public name (thnn/cuda.py re-exports it); defined here, below the code that raises it


def c_real(real):
    """The C library's element type of real (Bool tensors are Long ones)."""
    return "Long" if real == "Bool" else real


def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


class _Flags:
    """The numpy flags the modules read."""
    __slots__ = ("c_contiguous",)
    writeable = aligned = True

    def __init__(self, c_contiguous):
        self.c_contiguous = c_contiguous


def _mixed(what):
    return TypeError(f"{what}: a CudaTensor lives on a CUDA device and numpy cannot read it; bring it to the host "
                     f"with t.numpy() (a copy), or run the operation on the device with the tensor's namespace, "
                     f"xp = nn_legacy.array_namespace(t) (or t.__array_namespace__()), as xp.<function>")


class CudaTensor:
    """A strided array in one device's memory (see the module docstring)."""

    __slots__ = ("device", "real", "shape", "strides", "offset", "_storage", "_owner", "__weakref__")
    # numpy yields to a CudaTensor in binary operators (array + t calls t.__radd__, which refuses a host array)
    __array_priority__ = 1000

    @classmethod
    def _own(cls, device, real, storage, offset, shape, strides, owner=None):
        t = cls.__new__(cls)
        t.device, t.real = device, real
        t.shape, t.strides, t.offset = tuple(shape), tuple(strides), offset
        t._storage = storage
        if owner is None:  # the first tensor of this storage frees it when collected
            free = getattr(device.lib, f"THC{c_real(real)}Storage_free")
            owner = device.ffi.gc(storage, free)
        t._owner = owner
        return t

    # ---- what it is ----
    dtype = property(lambda self: DTYPES[self.real])
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1)
    itemsize = property(lambda self: 8 if self.real != "Float" else 4)
    nbytes = property(lambda self: self.size * self.itemsize)
    flags = property(lambda self: _Flags(self.is_contiguous()))
    T = property(lambda self: self.transpose())
    xp = property(lambda self: self.device.numpy)

    def __array_namespace__(self, api_version=None):
        """The namespace of numpy functions that run on this tensor's device."""
        return self.device.numpy

    def __repr__(self):
        return f"CudaTensor(shape={self.shape}, dtype={self.dtype}, device={self.device.name!r})"

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0D CudaTensor")
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def is_contiguous(self):
        step = 1
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if n != 1 and s != step:
                return False
            step *= n
        return True

    def shares_memory(self, other):
        """True when both tensors are views of one storage (and hold elements)."""
        return (isinstance(other, CudaTensor) and self.device is other.device and self.size > 0 and other.size > 0
                and self._storage.data == other._storage.data)

    # ---- views ----
    def _view(self, shape, strides, offset):
        return CudaTensor._own(self.device, self.real, self._storage, offset, shape, strides, self._owner)

    def _same_view(self, other):
        """other is this very view (same memory, offset, shape and strides)."""
        return (self.shares_memory(other) and self.offset == other.offset and self.shape == other.shape
                and self.strides == other.strides)

    def reshape(self, *shape, order="C"):
        """The elements in row-major order with another shape (one size may
        be -1): a view when the strides allow it (always for a contiguous
        tensor), else a contiguous copy, as numpy's reshape."""
        if order != "C":
            raise NotImplementedError("a CudaTensor reshapes in C order only")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = _infer(tuple(int(n) for n in shape), self.size, self.shape)
        strides = _view_strides(self.shape, self.strides, shape)
        if strides is None:
            return self.copy().reshape(shape)
        return self._view(shape, strides, self.offset)

    def view(self, *shape):
        """Torch7's view: like reshape, but never a copy (ValueError instead)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = _infer(tuple(int(n) for n in shape), self.size, self.shape)
        strides = _view_strides(self.shape, self.strides, shape)
        if strides is None:
            raise ValueError(f"cannot view a strided tensor of shape {self.shape} (strides {self.strides}) "
                             f"as {shape} without a copy")
        return self._view(shape, strides, self.offset)

    def ravel(self):
        return self.reshape(-1)

    def flatten(self):
        return self.copy().reshape(-1)

    def transpose(self, *axes):
        """Dims permuted as numpy's transpose (reversed without axes); Torch7's
        transpose(d0, d1), two dims swapped, is swapaxes(d0, d1)."""
        if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        axes = tuple(_axis(a, self.ndim) for a in axes)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"axes {axes} don't match a tensor of {self.ndim} dims")
        return self._view([self.shape[a] for a in axes], [self.strides[a] for a in axes], self.offset)

    def swapaxes(self, d0, d1):
        d0, d1 = _axis(d0, self.ndim), _axis(d1, self.ndim)
        shape, strides = list(self.shape), list(self.strides)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
        return self._view(shape, strides, self.offset)

    def narrow(self, dim, start, length):
        """Torch7's narrow: a view of ``length`` elements along dim from start."""
        dim = _axis(dim, self.ndim)
        if not (0 <= start and 0 <= length and start + length <= self.shape[dim]):
            raise IndexError(f"narrow({dim}, {start}, {length}) outside size {self.shape[dim]}")
        shape = list(self.shape)
        shape[dim] = length
        return self._view(shape, self.strides, self.offset + start * self.strides[dim])

    def select(self, dim, index):
        """Torch7's select: the view at ``index`` along dim, that dim removed."""
        dim = _axis(dim, self.ndim)
        n = self.shape[dim]
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for axis {dim} with size {n}")
        index %= n
        return self._view(self.shape[:dim] + self.shape[dim + 1:], self.strides[:dim] + self.strides[dim + 1:],
                          self.offset + index * self.strides[dim])

    def squeeze(self, axis=None):
        if axis is None:
            axes = [d for d, n in enumerate(self.shape) if n == 1]
        else:
            axes = [_axis(a, self.ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
            for a in axes:
                if self.shape[a] != 1:
                    raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one "
                                     f"(axis {a} of shape {self.shape})")
        keep = [d for d in range(self.ndim) if d not in axes]
        return self._view([self.shape[d] for d in keep], [self.strides[d] for d in keep], self.offset)

    def unsqueeze(self, dim):
        """A new dim of size 1 at dim (0 .. ndim)."""
        dim = _axis(dim, self.ndim + 1)
        step = self.strides[dim] * self.shape[dim] if dim < self.ndim else 1
        return self._view(self.shape[:dim] + (1,) + self.shape[dim:], self.strides[:dim] + (step,) + self.strides[dim:],
                          self.offset)

    def expand(self, shape):
        """A view repeating dims of size 1 (stride 0) up to shape (numpy's broadcast_to)."""
        shape = tuple(int(n) for n in shape)
        lead = len(shape) - self.ndim
        if lead < 0:
            raise ValueError(f"cannot broadcast a tensor of shape {self.shape} to {shape}")
        strides = [0] * lead
        for n, m, s in zip(self.shape, shape[lead:], self.strides):
            if n == m:
                strides.append(s)
            elif n == 1:
                strides.append(0)
            else:
                raise ValueError(f"operands could not be broadcast together: shape {self.shape} to {shape}")
        return self._view(shape, strides, self.offset)

    # ---- the C struct ----
    def _struct(self, ffi):
        """A TH tensor struct over this memory whose storage C never frees (a
        0D tensor is passed as 1D of one element)."""
        real = c_real(self.real)
        storage = ffi.new(f"TH{real}Storage*")
        storage.data = self._storage.data
        storage.size = self._storage.size
        storage.flag = STORAGE_DEVICE
        t = ffi.new(f"TH{real}Tensor*")
        t.storage = storage
        t.storageOffset = self.offset
        shape, strides = (self.shape, self.strides) if self.shape else ((1,), (1,))
        t.nDimension = len(shape)
        for d, (n, s) in enumerate(zip(shape, strides)):
            t.size[d], t.stride[d] = n, s
        return t, storage

    def data_ptr(self):
        """The address of element (0, ..., 0) in device memory (Torch's data_ptr)."""
        ffi = self.device.ffi
        return int(ffi.cast("uintptr_t", self._storage.data)) + self.offset * self.itemsize

    # ---- host transfers ----
    def numpy(self):
        """A host copy, as a new C-contiguous numpy array."""
        t = self.contiguous()
        real = c_real(self.real)
        host = np.empty(self.shape, DTYPES[real])
        ffi, lib = self.device.ffi, self.device.lib
        state = ffi.new("THNNState*")
        dst = ffi.cast(CTYPES[real] + "*", host.ctypes.data)
        self.device._check(getattr(lib, f"THC{real}Storage_copyToHost")(state, dst, t._storage, t.offset, host.size),
                           state, "numpy")
        return host.astype(np.bool_) if self.real == "Bool" else host

    def get(self):
        """CuPy's spelling of numpy()."""
        return self.numpy()

    def tolist(self):
        return self.numpy().tolist()

    def item(self, *index):
        """The value of a one-element tensor (or of element ``index``), on the host."""
        if index:
            return self[index if len(index) > 1 else index[0]].item()
        if self.size != 1:
            raise ValueError(f"can only convert a CudaTensor of one element to a Python scalar, got shape {self.shape}")
        return self.numpy().reshape(()).item()

    def __bool__(self):
        if self.size != 1:
            raise ValueError(f"the truth value of a CudaTensor of {self.size} elements is ambiguous; use .any() "
                             f"or .all()")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.real not in ("Long", "Bool") or self.size != 1:
            raise TypeError("only an integer CudaTensor of one element can be used as an index")
        return int(self.item())

    # numpy must not read a CudaTensor as an object, or run its functions on one
    def __array__(self, dtype=None, copy=None):
        raise _mixed("np.asarray(CudaTensor)")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """np.exp(t), np.float64(2) * t, np.add.at(t, ...): run on the
        device by the namespace's function of that name; with a host array
        among the operands, a TypeError saying how to move one of them."""
        if _has_host_array(inputs) or _has_host_array(kwargs.get("out")):
            raise _mixed_operands(f"np.{ufunc.__name__}")
        f = getattr(self.device.numpy, ufunc.__name__, None)
        if f is None:
            raise _mixed(f"np.{ufunc.__name__} (no device version)")
        out = kwargs.get("out")
        if isinstance(out, tuple):
            kwargs["out"] = out[0] if len(out) == 1 else out
        return f(*inputs, **kwargs) if method == "__call__" else getattr(f, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """np.where(t > 0, t, 0) and the like: the namespace's function of
        that name runs on the device (a TypeError for a host array among
        the arguments, or a function the device does not have)."""
        if _has_host_array(args) or _has_host_array(kwargs):
            raise _mixed_operands(f"np.{func.__name__}")
        f = getattr(self.device.numpy, func.__name__, None)
        if f is None:
            raise _mixed(f"np.{func.__name__} (no device version)")
        return f(*args, **kwargs)

    # ---- other libraries: DLPack and __cuda_array_interface__ (thnn/_dlpack.py) ----
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule viewing this tensor (a copy's with copy=True).
        The library runs on the default stream, which ``stream`` (the
        consumer's) needs no synchronisation with."""
        from . import _dlpack
        if dl_device is not None and tuple(dl_device) != _dlpack.device_of(self.device):
            raise BufferError(f"__dlpack__: the tensor is on DLPack device {_dlpack.device_of(self.device)}, "
                              f"not {tuple(dl_device)}")
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        return _dlpack.to_dlpack(self.copy() if copy else self, versioned)

    def __dlpack_device__(self):
        from . import _dlpack
        return _dlpack.device_of(self.device)

    @property
    def __cuda_array_interface__(self):
        from . import _dlpack
        return _dlpack.cuda_array_interface(self)

    # ---- copies ----
    def contiguous(self):
        """This tensor if contiguous, else a contiguous device copy."""
        return self if self.is_contiguous() else self.copy()

    def copy(self):
        """A contiguous device copy."""
        return self.device.numpy.array(self)

    clone = copy

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        """Pickled as its host data and its device (which pickles as thnn.cuda.gpu or .emulator), where
        unpickling puts it back."""
        return _unpickle, (self.numpy(), self.device)

    def astype(self, dtype, copy=True):
        return self.device.numpy.astype(self, dtype, copy=copy)

    def copy_(self, src):
        """Copy src, a CudaTensor of this shape (any dtype: converted), into
        this tensor; returns self.  (``t[...] = src`` also broadcasts.)"""
        if not isinstance(src, CudaTensor) or src.shape != self.shape:
            got = f"shape {src.shape}" if isinstance(src, CudaTensor) else type(src).__name__
            raise ValueError(f"copy_: src must be a CudaTensor of shape {self.shape}, got {got}")
        self[...] = src
        return self

    def fill(self, value):
        """Every element set to value (numpy's fill: returns None)."""
        self.device.numpy._fill(self, value)

    def fill_(self, value):
        self.device.numpy._fill(self, value)
        return self

    def zero_(self):
        return self.fill_(0)

    def add_(self, other, alpha=1):
        """self += alpha * other; returns self."""
        xp = self.device.numpy
        xp.add(self, other if alpha == 1 else xp.multiply(other, alpha), out=self)
        return self

    # ---- indexing ----
    def __getitem__(self, key):
        return self.device.numpy._getitem(self, key)

    def __setitem__(self, key, value):
        self.device.numpy._setitem(self, key, value)

    # ---- methods numpy arrays have ----
    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self.device.numpy.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self.device.numpy.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return self.device.numpy.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return self.device.numpy.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return self.device.numpy.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False, initial=None):
        return self.device.numpy.max(self, axis=axis, out=out, keepdims=keepdims, initial=initial)

    def min(self, axis=None, out=None, keepdims=False, initial=None):
        return self.device.numpy.min(self, axis=axis, out=out, keepdims=keepdims, initial=initial)

    def argmax(self, axis=None, out=None, keepdims=False):
        return self.device.numpy.argmax(self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, keepdims=False):
        return self.device.numpy.argmin(self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        return self.device.numpy.any(self, axis=axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        return self.device.numpy.all(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None):
        return self.device.numpy.cumsum(self, axis=axis)

    def cumprod(self, axis=None):
        return self.device.numpy.cumprod(self, axis=axis)

    def clip(self, min=None, max=None, out=None):
        return self.device.numpy.clip(self, min, max, out=out)

    def round(self, decimals=0, out=None):
        return self.device.numpy.round(self, decimals, out=out)

    def take(self, indices, axis=None):
        return self.device.numpy.take(self, indices, axis=axis)

    def repeat(self, repeats, axis=None):
        return self.device.numpy.repeat(self, repeats, axis=axis)

    def nonzero(self):
        return self.device.numpy.nonzero(self)

    def dot(self, other):
        return self.device.numpy.dot(self, other)

    # ---- operators (numpy's meaning; a host array as an operand is refused) ----
    def __neg__(self):
        return self.device.numpy.negative(self)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self.device.numpy.abs(self)

    def __invert__(self):
        return self.device.numpy.invert(self)

    def __matmul__(self, other):
        return self.device.numpy.matmul(self, other)

    def __rmatmul__(self, other):
        return self.device.numpy.matmul(other, self)

    def __imatmul__(self, other):
        return self.device.numpy.matmul(self, other, out=self)

    __hash__ = None   # (== gives a tensor, as numpy's)


def _operator(name, reflected=False, inplace=False):
    def op(self, other):
        f = getattr(self.device.numpy, name)
        if inplace:
            return f(self, other, out=self)
        return f(other, self) if reflected else f(self, other)
    op.__name__ = name
    return op


for _dunder, _name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                       ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"),
                       ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor")):
    setattr(CudaTensor, f"__{_dunder}__", _operator(_name))
    setattr(CudaTensor, f"__r{_dunder}__", _operator(_name, reflected=True))
    setattr(CudaTensor, f"__i{_dunder}__", _operator(_name, inplace=True))
for _dunder, _name in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"),
                       ("gt", "greater"), ("ge", "greater_equal")):
    setattr(CudaTensor, f"__{_dunder}__", _operator(_name))


def _has_host_array(value):
    if isinstance(value, np.ndarray):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_host_array(v) for v in value)
    if isinstance(value, dict):
        return any(_has_host_array(v) for v in value.values())
    return False


def _mixed_operands(what):
    return TypeError(f"{what}: a numpy array and a CudaTensor in one operation; move the array to the device "
                     f"(thnn.cuda.to_device(a), or xp.asarray(a) with the tensor's namespace xp) or the tensor "
                     f"to the host (t.numpy())")


def _unpickle(host, device):
    if isinstance(device, str):
        raise TypeError(f"this CudaTensor was pickled by an older thnn, with its device's name ({device!r}); "
                        f"unpickle it with that version and pickle t.numpy() (the host array) instead")
    return device.to_device(host)


def _axis(axis, ndim):
    """A dim given numpy's way (negative from the end) as 0 .. ndim-1."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"an axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(int(axis), ndim)
    return int(axis) % ndim


def _infer(shape, size, old):
    """shape with its one -1 filled in so it holds size elements."""
    if shape.count(-1) > 1 or any(n < -1 for n in shape):
        raise ValueError(f"cannot reshape a tensor of shape {old} into {shape}")
    if -1 in shape:
        known = int(np.prod([n for n in shape if n != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape a tensor of size {size} into shape {shape}")
        shape = tuple(size // known if n == -1 else n for n in shape)
    if int(np.prod(shape, dtype=np.int64)) != size:
        raise ValueError(f"cannot reshape a tensor of size {size} into shape {shape}")
    return shape


def _view_strides(shape, strides, new_shape):
    """Strides that view memory laid out as (shape, strides) with new_shape
    in the same row-major order, or None when no view can (numpy's rule,
    _attempt_nocopy_reshape: each run of old dims that new dims regroup
    must be contiguous within itself)."""
    if int(np.prod(shape, dtype=np.int64)) == 0 or not new_shape:
        return contiguous_strides(new_shape)
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    dims, strd = [n for n, _ in old], [s for _, s in old]
    new = list(new_shape)
    out = [0] * len(new)
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < len(new) and oi < len(dims):
        np_, op = new[ni], dims[oi]
        while np_ != op:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= dims[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if strd[ok] != dims[ok + 1] * strd[ok + 1]:
                return None
        out[nj - 1] = strd[oj - 1]
        for nk in range(nj - 1, ni, -1):
            out[nk - 1] = out[nk] * new[nk]
        ni, nj, oi, oj = nj, nj + 1, oj, oj + 1
    last = out[ni - 1] if ni > 0 else 1
    for nk in range(ni, len(new)):   # trailing dims of size 1
        out[nk] = last
    return tuple(out)


MAX_DIM = _binding.MAX_DIM
