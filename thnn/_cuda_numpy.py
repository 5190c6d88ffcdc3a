"""numpy's namespace on a CUDA device: the shared array interface.

``device.numpy`` (also ``t.__array_namespace__()`` of any CudaTensor t, and
``nn_legacy.array_namespace(t)``) has numpy's functions, under numpy's
names and with numpy's arguments, for CudaTensors of that device:

    xp = nn_legacy.array_namespace(x)       # numpy for a numpy array, this for a CudaTensor
    y = xp.exp(xp.maximum(x, 0))            # the same line runs on the host and on the device
    xp.multiply(y, 2, out=y)

So a module written against ``xp`` instead of ``np`` serves both.  What is
here is what the modules use; each function follows numpy's semantics
(broadcasting, type promotion as numpy 2 does it, ``out=``, ``axis=``,
``keepdims=``, NaN propagation, errors) except where its docstring says.
The differences from numpy, all of this namespace:

- Element types: float32, float64, int64 and bool.  Operations on int64
  that numpy computes in other integer types are computed in int64.
- Reductions over all elements return 0D CudaTensors (as CuPy), not host
  scalars; ``float(t)``, ``int(t)``, ``bool(t)`` and ``t.item()`` bring one
  to the host.  ``count_nonzero`` without an axis returns a Python int.
- Results that numpy computes element by element in a fixed order (sums)
  may differ in the last bits: the device sums in double precision.
- Floating-point errors give inf and NaN silently (``np.errstate`` has no
  effect on the device).
- A host numpy array among the operands of a function is refused with a
  TypeError saying how to move it (``asarray``, ``array`` and the creation
  functions upload host data, explicitly, and so does an assignment
  ``t[...] = array``, as in CuPy and PyTorch); host integer arrays and lists
  are accepted as indices.

Every operation is one or more kernels of thcunn_cu/generic/THCTensorMath.cu
(device.math(...)); the index arithmetic and shapes are worked out here.
"""
import contextlib
import math
import numbers
import string
import types

import numpy as np

from ._cuda_tensor import DTYPES, REALS, CudaError, CudaTensor, _axis, c_real, contiguous_strides

_F32, _F64, _I64, _BOOL = (np.dtype(t) for t in (np.float32, np.float64, np.int64, np.bool_))
_FLOATS = (_F32, _F64)


def _is_scalar(x):
    return isinstance(x, (numbers.Number, np.generic)) and not isinstance(x, complex)


def _weak_kind(x):
    """The kind of a Python scalar ('b', 'i', 'f'), which numpy 2 lets the
    other operand's dtype decide (NEP 50); None for a numpy scalar."""
    if isinstance(x, np.generic):
        return None
    if isinstance(x, bool):
        return "b"
    if isinstance(x, numbers.Integral):
        return "i"
    return "f"


def _dtype_of_supported(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return _F32 if dtype.itemsize <= 4 else _F64
    if dtype.kind in "iu":
        return _I64
    if dtype.kind == "b":
        return _BOOL
    raise TypeError(f"a CudaTensor holds float32, float64, int64 or bool, got {dtype}")


def promote(dtypes, weak=()):
    """numpy 2's result type of arrays of these dtypes and Python scalars of
    these kinds, within float32, float64, int64 and bool."""
    dtypes = [_dtype_of_supported(d) for d in dtypes]
    if not dtypes:
        kinds = set(weak)
        return _F64 if "f" in kinds else _I64 if "i" in kinds else _BOOL
    if _F64 in dtypes or (_F32 in dtypes and _I64 in dtypes):
        d = _F64
    elif _F32 in dtypes:
        d = _F32
    elif _I64 in dtypes:
        d = _I64
    else:
        d = _BOOL
    if "f" in weak and d.kind in "bi":
        return _F64
    if "i" in weak and d == _BOOL:
        return _I64
    return d


def _broadcast_shapes(*shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for d in range(ndim):
        sizes = {s[d - ndim + len(s)] for s in shapes if d - ndim + len(s) >= 0} - {1}
        if len(sizes) > 1:
            raise ValueError(f"operands could not be broadcast together with shapes "
                             f"{' '.join(str(tuple(s)) for s in shapes)}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(sorted({_axis(a, ndim) for a in axes}))
    if len(out) != len(axes):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return out


class Ufunc:
    """One elementwise function of the namespace (``xp.add``): call it as
    numpy's; ``add.at(a, indices, b)`` adds b into a[indices] (repeated
    indices add up), and ``add.reduce``, ``maximum.reduce``, ... reduce."""

    def __init__(self, ns, name, call, reduce=None, at=False):
        self._ns, self.__name__, self._call, self._reduce, self._at = ns, name, call, reduce, at

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __repr__(self):
        return f"<device ufunc {self.__name__!r}>"

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False):
        if self._reduce is None:
            raise NotImplementedError(f"{self.__name__}.reduce has no device version")
        return self._reduce(a, axis=axis, out=out, keepdims=keepdims)

    def at(self, a, indices, b=None):
        if not self._at:
            raise NotImplementedError(f"{self.__name__}.at has no device version (add.at has)")
        self._ns._add_at(a, indices, b)


class DeviceNumpy:
    """numpy's namespace for the CudaTensors of one device (see the module docstring)."""

    newaxis = None
    inf, nan, pi, e = math.inf, math.nan, math.pi, math.e
    float32, float64, int64, bool_, intp = np.float32, np.float64, np.int64, np.bool_, np.int64
    errstate = np.errstate   # (no effect on the device: floating-point errors are silent there)
    dtype = np.dtype
    ndarray = CudaTensor

    def __init__(self, device):
        self.device = device
        self._lib = device.lib
        for name, code, kind in _ELEMENTWISE:
            f = self._elementwise_function(name, getattr(self._lib, f"THC_{code}"), kind)
            reducer = getattr(self, _REDUCERS[name]) if name in _REDUCERS else None
            setattr(self, name, Ufunc(self, name, f, reducer, at=name == "add"))
        for alias, name in _ALIASES.items():
            setattr(self, alias, getattr(self, name))
        self.linalg = types.SimpleNamespace(norm=self.linalg_norm)   # numpy.linalg's norm (of vectors)

    def __repr__(self):
        return f"<numpy namespace of CUDA device {self.device.name!r}>"

    # ---- plumbing ----
    def _math(self, real):
        return self.device.math(c_real(real))

    def _check(self, x, name="an operand"):
        """x as a tensor of this device (a host array: the clear error)."""
        if isinstance(x, CudaTensor):
            if x.device is not self.device:
                raise TypeError(f"{name} is on CUDA device {x.device.name!r}, the operation on {self.device.name!r}")
            return x
        if isinstance(x, np.ndarray):
            raise TypeError(f"{name} is a numpy array but the other operands are on CUDA device "
                            f"{self.device.name!r}; move it with thnn.cuda.to_device(a) (or xp.asarray(a)), or "
                            f"bring the device tensors to the host with .numpy()")
        if isinstance(x, (list, tuple)):
            return self.asarray(x)
        raise TypeError(f"{name} must be a CudaTensor or a number, got {type(x).__name__}")

    def _operand(self, x, name):
        """A scalar as it is, anything else as a tensor of this device."""
        return x if _is_scalar(x) else self._check(x, name)

    def _new(self, shape, dtype):
        return self.device.empty(shape, dtype)

    @staticmethod
    def _scalar(value, real):
        """value as the C kernel of real takes it."""
        if real in ("Long", "Bool"):
            if isinstance(value, (float, np.floating)) and not float(value).is_integer():
                raise TypeError(f"cannot use the float {value} in an integer operation")
            return int(value)
        return float(value)

    def _as(self, t, dtype):
        """t converted to dtype (t itself when it already is)."""
        return t if t.dtype == dtype else self.astype(t, dtype)

    def _as_long(self, t):
        """A bool tensor seen as the int64 tensor it is stored as (no copy)."""
        return CudaTensor._own(t.device, "Long", t._storage, t.offset, t.shape, t.strides, t._owner) \
            if t.real == "Bool" else t

    def _result(self, shape, dtype, out, operands, name):
        """Where an operation writes: out (shape and dtype checked) unless it
        partly overlaps an operand, or needs a cast; else a new tensor.
        Returns (target, out)."""
        if out is None:
            return self._new(shape, dtype), None
        if isinstance(out, tuple):
            out = out[0]
        out = self._check(out, "out")
        if out.shape != tuple(shape):
            raise ValueError(f"{name}: non-broadcastable output operand with shape {out.shape} doesn't match the "
                             f"broadcast shape {tuple(shape)}")
        if out.dtype != dtype:
            if not np.can_cast(dtype, out.dtype, "same_kind"):
                raise TypeError(f"{name}: cannot cast the result from {dtype} to the output's {out.dtype} "
                                f"(casting rule 'same_kind')")
            return self._new(shape, dtype), out
        for t in operands:
            if isinstance(t, CudaTensor) and t.shares_memory(out) and not t._same_view(out):
                return self._new(shape, dtype), out
        return out, out

    def _finish(self, target, out):
        if out is None or out is target:
            return target
        self._assign(out, target)
        return out

    # ---- elementwise ----
    def _elementwise_function(self, name, code, kind):
        nin = 2 if code >= self._lib.THC_ADD and code < self._lib.THC_ISNAN else 1

        def f(*args, out=None, dtype=None, where=True, **unsupported):
            if unsupported:   # (numpy's casting=, order=, ...: refused rather than ignored)
                raise TypeError(f"{name}: the device takes out=, dtype= and where=, not "
                                f"{', '.join(sorted(unsupported))}")
            if len(args) != nin:
                raise TypeError(f"{name} takes {nin} operand{'s' if nin > 1 else ''}, got {len(args)}")
            if where is True:
                return self._elementwise(name, code, kind, args, out, dtype)
            # where=mask: the result where mask holds, out's own values elsewhere (uninitialised without out)
            result = self._elementwise(name, code, kind, args, None, dtype)
            if out is None:
                out = self.empty(result.shape, result.dtype)
            out = out[0] if isinstance(out, tuple) else out
            self._assign(out, self.where(where, result, self._check(out, "out")))
            return out
        f.__name__ = name
        return f

    def _elementwise(self, name, code, kind, args, out, dtype=None):
        ops = [self._operand(a, f"{name}: operand {i}") for i, a in enumerate(args)]
        tensors = [o for o in ops if isinstance(o, CudaTensor)]
        if not tensors and out is None:   # scalars only: numpy's answer
            return getattr(np, name)(*args)
        strong = [o.dtype for o in ops if isinstance(o, CudaTensor)] + \
                 [o.dtype for o in ops if isinstance(o, np.generic)]
        weak = [_weak_kind(o) for o in ops if _is_scalar(o) and not isinstance(o, np.generic)]
        common = promote(strong, weak) if dtype is None else np.dtype(dtype)
        shape = _broadcast_shapes(*(t.shape for t in tensors))
        lib = self._lib
        if kind == "logical":                      # on truth values, to bool
            compute, result = _BOOL, _BOOL
        elif kind == "compare":
            compute, result = common, _BOOL
        elif kind == "float":                      # exp, true_divide...: ints become float64
            if name == "reciprocal" and common not in _FLOATS:
                raise TypeError("reciprocal: the device takes float tensors only (numpy divides integers)")
            compute = result = common if common in _FLOATS else _F64
        elif kind == "round":                      # floor, ceil, trunc: integers stay as they are (numpy 2)
            compute = result = common
            if common not in _FLOATS:
                code = lib.THC_ID
        elif kind == "bitwise":                   # &, |, ^, ~: logical on bools only
            if common != _BOOL:
                raise TypeError(f"{name}: the device has bitwise operations on bool tensors only, got {common}")
            compute, result = _BOOL, _BOOL
            code = {"bitwise_and": lib.THC_LAND, "bitwise_or": lib.THC_LOR, "bitwise_xor": lib.THC_LXOR,
                    "invert": lib.THC_LNOT}[name]
        else:                                      # arithmetic: in the common type
            compute = result = common
            if common == _BOOL:
                bool_code = {"add": lib.THC_LOR, "multiply": lib.THC_LAND, "maximum": lib.THC_LOR,
                             "minimum": lib.THC_LAND, "abs": lib.THC_ID}.get(name)
                if bool_code is None and name in ("subtract", "negative"):
                    raise TypeError(f"{name}: numpy refuses it on bool operands; use logical_xor / logical_not")
                if bool_code is not None:
                    code = bool_code
                else:
                    compute = result = _I64
            if name == "power" and compute == _I64:   # (computed in float64, exact for the values ints hold)
                compute = _F64
        c_ops = []
        for o in ops:
            if isinstance(o, CudaTensor):
                o = self._as(o, compute)
                c_ops.append(o.expand(shape) if o.shape != shape else o)
            else:
                c_ops.append(o.item() if isinstance(o, np.generic) else o)
        target, out = self._result(shape, result, out, c_ops, name)
        real = REALS[compute]
        k = self._math(real)
        a, b = (c_ops + [0])[:2]
        ta = self._as_long(a) if isinstance(a, CudaTensor) else None
        tb = self._as_long(b) if isinstance(b, CudaTensor) else None
        sa = 0 if ta is not None else self._scalar(a, real)
        sb = 0 if tb is not None else self._scalar(b, real)
        if kind == "compare":
            k.compare(code, self._as_long(target), ta, tb, sa, sb)
        elif compute != result:                    # power of int64 tensors: through float64
            tmp = self._new(shape, compute)
            k.map(code, tmp, ta, tb, sa, sb)
            self._assign(target, tmp)
        else:
            k.map(code, self._as_long(target), ta, tb, sa, sb)
        return self._finish(target, out)

    def where(self, condition, x=None, y=None):
        """x where condition holds (is nonzero), else y; with condition alone, nonzero(condition)."""
        if x is None and y is None:
            return self.nonzero(condition)
        cond = self._bool(self._check(condition, "where: condition"))
        x, y = self._operand(x, "where: x"), self._operand(y, "where: y")
        strong = [o.dtype for o in (x, y) if isinstance(o, (CudaTensor, np.generic))]
        weak = [_weak_kind(o) for o in (x, y) if _is_scalar(o) and not isinstance(o, np.generic)]
        dtype = promote(strong, weak)
        shape = _broadcast_shapes(cond.shape, *(o.shape for o in (x, y) if isinstance(o, CudaTensor)))
        real = REALS[dtype]
        args = []
        for o in (x, y):
            if isinstance(o, CudaTensor):
                args.append(self._as_long(self._as(o, dtype).expand(shape)))
            else:
                args.append(o.item() if isinstance(o, np.generic) else o)
        out = self._new(shape, dtype)
        ta, tb = (a if isinstance(a, CudaTensor) else None for a in args)
        sa, sb = (0 if isinstance(a, CudaTensor) else self._scalar(a, real) for a in args)
        self._math(real).where(self._as_long(out), self._as_long(cond.expand(shape)), ta, tb, sa, sb)
        return out

    def clip(self, a, a_min=None, a_max=None, out=None, **kwargs):
        a_min = kwargs.get("min", a_min)
        a_max = kwargs.get("max", a_max)
        a = self._check(a, "clip: a")
        result = a if a_min is None else self.maximum(a, a_min)
        result = result if a_max is None else self.minimum(result, a_max)
        if result is a:
            result = a.copy()
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def round(self, a, decimals=0, out=None):
        if decimals == 0:
            return self.rint(a, out=out)
        scale = 10.0 ** decimals
        return self.divide(self.rint(self.multiply(a, scale)), scale, out=out)

    around = round

    def fix(self, x, out=None):
        return self.trunc(x, out=out)

    def _bool(self, t):
        """t as a bool tensor (t != 0), t itself if it is one."""
        return t if t.real == "Bool" else self.not_equal(t, 0)

    # ---- copies, conversions, creation ----
    def _assign(self, dst, src):
        """dst[...] = src: src (a tensor or a scalar) broadcast to dst's shape and converted to its dtype."""
        if _is_scalar(src):
            return self._fill(dst, src)
        src = self._check(src, "the value assigned")
        if src.shape != dst.shape:
            src = src.expand(dst.shape)
        if src.shares_memory(dst) and not src._same_view(dst):
            src = self.array(src)    # (overlapping views: through a copy)
        if dst.size == 0:
            return
        if dst.real == "Bool":
            if src.real == "Bool":
                self._math("Long").map(self._lib.THC_ID, self._as_long(dst), self._as_long(src), None, 0, 0)
            else:
                self._math(src.real).compare(self._lib.THC_NE, self._as_long(dst), src, None, 0, 0)
            return
        kernels = self._math(dst.real)
        if src.real == dst.real:
            kernels.map(self._lib.THC_ID, dst, src, None, 0, 0)
        else:
            getattr(kernels, f"copy{c_real(src.real)}")(dst, self._as_long(src))

    def _fill(self, t, value):
        if not _is_scalar(value):
            raise TypeError(f"fill: a number, got {type(value).__name__}")
        if t.size:
            real = c_real(t.real)
            value = bool(value) if t.real == "Bool" else value
            if real == "Long" and isinstance(value, (float, np.floating)):
                value = int(value)   # (numpy truncates a float stored into an int array)
            self._math(real).map(self._lib.THC_ID, self._as_long(t), None, None, self._scalar(value, real), 0)

    def astype(self, x, dtype, copy=True):
        x = self._check(x, "astype")
        dtype = _dtype_of_supported(dtype)
        if x.dtype == dtype and not copy:
            return x
        out = self._new(x.shape, dtype)
        self._assign(out, x)
        return out

    def asarray(self, a, dtype=None, copy=None):
        """a as a tensor of this device: a CudaTensor of it as it is (or
        converted to dtype); host data (a numpy array, a list, a number)
        uploaded."""
        if isinstance(a, CudaTensor):
            a = self._check(a, "asarray")
            if dtype is not None and _dtype_of_supported(dtype) != a.dtype:
                return self.astype(a, dtype)
            return self.array(a) if copy else a
        host = np.asarray(a) if dtype is None else np.asarray(a, dtype=_dtype_of_supported(dtype))
        if host.dtype.kind == "f" and host.dtype not in _FLOATS:
            host = host.astype(_dtype_of_supported(host.dtype))
        return self.device.to_device(host)

    def ascontiguousarray(self, a, dtype=None):
        a = self.asarray(a, dtype)
        a = a.contiguous()
        return a.reshape(1) if a.ndim == 0 else a

    def array(self, a, dtype=None, copy=True):
        """A new contiguous tensor holding a (a tensor of this device, or host data)."""
        if not isinstance(a, CudaTensor):
            return self.asarray(a, dtype)
        a = self._check(a, "array")
        if not copy:
            return self.asarray(a, dtype)
        out = self._new(a.shape, a.dtype if dtype is None else _dtype_of_supported(dtype))
        self._assign(out, a)
        return out

    def copy(self, a):
        return self.array(a)

    def empty(self, shape, dtype=float):
        return self._new(_shape(shape), _dtype_of_supported(dtype))

    def full(self, shape, fill_value, dtype=None):
        if dtype is None:
            dtype = promote([], [_weak_kind(fill_value)]) if not isinstance(fill_value, np.generic) \
                else fill_value.dtype
        t = self.empty(shape, dtype)
        self._fill(t, fill_value)
        return t

    def zeros(self, shape, dtype=float):
        return self.full(shape, 0, dtype)

    def ones(self, shape, dtype=float):
        return self.full(shape, 1, dtype)

    def empty_like(self, a, dtype=None, shape=None):
        a = self._check(a, "empty_like")
        return self.empty(a.shape if shape is None else shape, a.dtype if dtype is None else dtype)

    def zeros_like(self, a, dtype=None, shape=None):
        return self.full_like(a, 0, dtype, shape)

    def ones_like(self, a, dtype=None, shape=None):
        return self.full_like(a, 1, dtype, shape)

    def full_like(self, a, fill_value, dtype=None, shape=None):
        a = self._check(a, "full_like")
        return self.full(a.shape if shape is None else shape, fill_value, a.dtype if dtype is None else dtype)

    def arange(self, start, stop=None, step=1, dtype=None):
        """(computed on the host, uploaded)"""
        return self.device.to_device(np.arange(start, stop, step, dtype=dtype) if stop is not None
                                     else np.arange(start, dtype=dtype))

    def random_uniform(self, low, high, shape, dtype, seed):
        """U[low, high) of shape and dtype; element k (row-major) is a
        function of (seed, k) only (not numpy: the device's generator)."""
        t = self.empty(shape, dtype)
        self._math(t.real).random(self._lib.THC_UNIFORM, t, int(seed), float(low), float(high))
        return t

    def random_normal(self, mean, std, shape, dtype, seed):
        """N(mean, std^2), as random_uniform."""
        t = self.empty(shape, dtype)
        self._math(t.real).random(self._lib.THC_NORMAL, t, int(seed), float(mean), float(std))
        return t

    # ---- shapes and views ----
    def reshape(self, a, shape, order="C"):
        return self._check(a, "reshape").reshape(shape, order=order)

    def ravel(self, a):
        return self._check(a, "ravel").ravel()

    def transpose(self, a, axes=None):
        a = self._check(a, "transpose")
        return a.transpose(*(() if axes is None else (tuple(axes),)))

    def swapaxes(self, a, axis1, axis2):
        return self._check(a, "swapaxes").swapaxes(axis1, axis2)

    def moveaxis(self, a, source, destination):
        a = self._check(a, "moveaxis")
        src = [_axis(s, a.ndim) for s in (source if isinstance(source, (tuple, list)) else (source,))]
        dst = [_axis(d, a.ndim) for d in (destination if isinstance(destination, (tuple, list)) else (destination,))]
        order = [d for d in range(a.ndim) if d not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return a.transpose(tuple(order))

    def expand_dims(self, a, axis):
        a = self._check(a, "expand_dims")
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        ndim = a.ndim + len(axes)
        for d in sorted(_axis(x, ndim) for x in axes):
            a = a.unsqueeze(d)
        return a

    def squeeze(self, a, axis=None):
        return self._check(a, "squeeze").squeeze(axis)

    def broadcast_to(self, a, shape):
        return self._check(a, "broadcast_to").expand(_shape(shape))

    def broadcast_arrays(self, *args):
        tensors = [self._check(a, "broadcast_arrays") for a in args]
        shape = _broadcast_shapes(*(t.shape for t in tensors))
        return [t.expand(shape) for t in tensors]

    def atleast_1d(self, a):
        a = self._check(a, "atleast_1d")
        return a.reshape(1) if a.ndim == 0 else a

    def atleast_2d(self, a):
        a = self.atleast_1d(a)
        return a.unsqueeze(0) if a.ndim == 1 else a

    def flip(self, a, axis=None):
        a = self._check(a, "flip")
        offset, strides = a.offset, list(a.strides)
        for d in _axes(axis, a.ndim):
            if a.shape[d] > 0:
                offset += (a.shape[d] - 1) * strides[d]
            strides[d] = -strides[d]
        return a._view(a.shape, strides, offset)

    def concatenate(self, arrays, axis=0, out=None, dtype=None):
        tensors = [self._check(a, f"concatenate: array {i}") for i, a in enumerate(arrays)]
        if not tensors:
            raise ValueError("need at least one array to concatenate")
        if axis is None:
            tensors, axis = [t.ravel() for t in tensors], 0
        first = tensors[0]
        if first.ndim == 0:
            raise ValueError("zero-dimensional arrays cannot be concatenated")
        axis = _axis(axis, first.ndim)
        for i, t in enumerate(tensors):
            if t.ndim != first.ndim or any(n != m for d, (n, m) in enumerate(zip(t.shape, first.shape)) if d != axis):
                raise ValueError(f"all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along an axis array 0 has shape {first.shape} and array {i} has "
                                 f"shape {t.shape}")
        shape = list(first.shape)
        shape[axis] = sum(t.shape[axis] for t in tensors)
        result_dtype = promote([t.dtype for t in tensors]) if dtype is None else _dtype_of_supported(dtype)
        target, out = self._result(tuple(shape), result_dtype, out, tensors, "concatenate")
        start = 0
        for t in tensors:
            self._assign(target.narrow(axis, start, t.shape[axis]), t)
            start += t.shape[axis]
        return self._finish(target, out)

    concat = concatenate

    def stack(self, arrays, axis=0, out=None):
        tensors = [self._check(a, f"stack: array {i}") for i, a in enumerate(arrays)]
        if not tensors:
            raise ValueError("need at least one array to stack")
        if any(t.shape != tensors[0].shape for t in tensors):
            raise ValueError("all input arrays must have the same shape")
        axis = _axis(axis, tensors[0].ndim + 1)
        return self.concatenate([t.unsqueeze(axis) for t in tensors], axis, out=out)

    def repeat(self, a, repeats, axis=None):
        """Every element repeats times (an int) along axis (flattened when None)."""
        a = self._check(a, "repeat")
        if not isinstance(repeats, (int, np.integer)) or repeats < 0:
            raise NotImplementedError("repeat: the device repeats every element the same (non-negative) number "
                                      "of times")
        if axis is None:
            a, axis = a.ravel(), 0
        axis = _axis(axis, a.ndim)
        wide = a.unsqueeze(axis + 1)
        shape = list(wide.shape)
        shape[axis + 1] = int(repeats)
        out_shape = list(a.shape)
        out_shape[axis] *= int(repeats)
        return self.array(wide.expand(shape)).reshape(out_shape)

    def tile(self, a, reps):
        a = self._check(a, "tile")
        reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(reps)
        ndim = max(a.ndim, len(reps))
        reps = (1,) * (ndim - len(reps)) + reps
        a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
        wide = a.reshape(sum(((1, n) for n in a.shape), ()))
        shape = sum(((r, n) for r, n in zip(reps, a.shape)), ())
        return self.array(wide.expand(shape)).reshape([r * n for r, n in zip(reps, a.shape)])

    def pad(self, a, pad_width, mode="constant", constant_values=0):
        if mode != "constant":
            raise NotImplementedError("pad: the device pads with a constant only")
        a = self._check(a, "pad")
        widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (a.ndim, 2))
        out = self.full([n + lo + hi for n, (lo, hi) in zip(a.shape, widths)], constant_values, a.dtype)
        inner = out
        for d, (lo, _) in enumerate(widths):
            inner = inner.narrow(d, int(lo), a.shape[d])
        self._assign(inner, a)
        return out

    # ---- reductions ----
    def _reduce_dims(self, code, x, axes, indices=False, p=0.0):
        """x reduced along each of axes (kept, size 1), in x's dtype; with
        indices (one axis), also the positions as int64."""
        real = c_real(x.real)
        k = self._math(real)
        pos = None
        for d in reversed(axes):
            shape = x.shape[:d] + (1,) + x.shape[d + 1:]
            out = self._new(shape, DTYPES[real])
            pos = self._new(shape, _I64) if indices else None
            k.reduce(code, out, pos, self._as_long(x) if real == "Long" else x, d, p)
            x = out
        return (x, pos) if indices else x

    def _reduction(self, name, code, a, axis, dtype, out, keepdims, initial=None, p=0.0):
        lib = self._lib
        a = self._check(a, name)
        if dtype is not None:
            a = self._as(a, _dtype_of_supported(dtype))
        elif a.real == "Bool" and code in (lib.THC_SUM, lib.THC_PROD):
            a = self._as(a, _I64)
        axes = _axes(axis, a.ndim)
        ndim = a.ndim
        if ndim == 0:
            a, axes = a.reshape(1), (0,)
        if any(a.shape[d] == 0 for d in axes) and code in (lib.THC_MAX, lib.THC_MIN):
            if initial is None:
                raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
            result = self.full(tuple(1 if d in axes else n for d, n in enumerate(a.shape)), initial, a.dtype)
        else:
            result = self._reduce_dims(code, self._as_long(a), axes, p=p)
            if a.real == "Bool":   # (max and min of truth values: any and all)
                result = CudaTensor._own(result.device, "Bool", result._storage, result.offset, result.shape,
                                         result.strides, result._owner)
            if initial is not None and code in (lib.THC_MAX, lib.THC_MIN):
                result = (self.maximum if code == lib.THC_MAX else self.minimum)(result, initial)
        if ndim == 0:
            result = result.reshape(())
        elif not keepdims:
            result = result.reshape(tuple(n for d, n in enumerate(result.shape) if d not in axes))
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def sum(self, a, axis=None, dtype=None, out=None, keepdims=False, initial=None):
        r = self._reduction("sum", self._lib.THC_SUM, a, axis, dtype, out, keepdims)
        return r if initial is None else self.add(r, initial, out=out)

    def prod(self, a, axis=None, dtype=None, out=None, keepdims=False):
        return self._reduction("prod", self._lib.THC_PROD, a, axis, dtype, out, keepdims)

    def max(self, a, axis=None, out=None, keepdims=False, initial=None):
        return self._reduction("maximum", self._lib.THC_MAX, a, axis, None, out, keepdims, initial)

    def min(self, a, axis=None, out=None, keepdims=False, initial=None):
        return self._reduction("minimum", self._lib.THC_MIN, a, axis, None, out, keepdims, initial)

    amax, amin = max, min

    def mean(self, a, axis=None, dtype=None, out=None, keepdims=False):
        a = self._check(a, "mean")
        if dtype is None and a.dtype not in _FLOATS:
            dtype = _F64
        total = self.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)
        count = int(np.prod([a.shape[d] for d in _axes(axis, a.ndim)], dtype=np.int64))
        return self.true_divide(total, count if count else math.nan, out=out)

    def var(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        a = self._check(a, "var")
        m = self.mean(a, axis=axis, dtype=dtype, keepdims=True)
        d = self.subtract(a, m)
        count = int(np.prod([a.shape[x] for x in _axes(axis, a.ndim)], dtype=np.int64)) - ddof
        return self.true_divide(self.sum(self.multiply(d, d), axis=axis, keepdims=keepdims),
                                count if count > 0 else math.nan, out=out)

    def std(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return self.sqrt(self.var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims), out=out)

    def any(self, a, axis=None, keepdims=False, out=None):
        a = self._bool(self._check(a, "any"))
        return self._reduction("any", self._lib.THC_MAX, a, axis, None, out, keepdims, initial=False)

    def all(self, a, axis=None, keepdims=False, out=None):
        a = self._bool(self._check(a, "all"))
        return self._reduction("all", self._lib.THC_MIN, a, axis, None, out, keepdims, initial=True)

    def count_nonzero(self, a, axis=None, keepdims=False):
        """The number of nonzero elements: a Python int without axis (as numpy), else int64 tensors."""
        counts = self.sum(self._bool(self._check(a, "count_nonzero")), axis=axis, keepdims=keepdims)
        return int(counts.item()) if axis is None and not keepdims else counts

    def _arg(self, name, code, a, axis, out, keepdims):
        a = self._check(a, name)
        if axis is None:
            flat = a.reshape(-1)
            if flat.size == 0:
                raise ValueError(f"attempt to get {name} of an empty sequence")
            _, pos = self._reduce_dims(code, self._as_long(flat) if flat.real == "Bool" else flat, (0,), True)
            pos = pos.reshape((1,) * a.ndim if keepdims else ())
        else:
            d = _axis(axis, a.ndim)
            if a.shape[d] == 0:
                raise ValueError(f"attempt to get {name} of an empty sequence")
            _, pos = self._reduce_dims(code, self._as_long(a) if a.real == "Bool" else a, (d,), True)
            if not keepdims:
                pos = pos.squeeze(d)
        if out is not None:
            self._assign(self._check(out, "out"), pos)
            return out
        return pos

    def argmax(self, a, axis=None, out=None, keepdims=False):
        return self._arg("argmax", self._lib.THC_MAX, a, axis, out, keepdims)

    def argmin(self, a, axis=None, out=None, keepdims=False):
        return self._arg("argmin", self._lib.THC_MIN, a, axis, out, keepdims)

    def _scan(self, name, code, a, axis, dtype, out):
        a = self._check(a, name)
        if axis is None:
            a, axis = a.ravel(), 0
        if dtype is not None:
            a = self._as(a, _dtype_of_supported(dtype))
        elif a.dtype not in _FLOATS:
            a = self._as(a, _I64)
        if a.ndim == 0:
            a = a.reshape(1)
        result = self._new(a.shape, a.dtype)
        self._math(a.real).scan(code, result, a, _axis(axis, a.ndim))
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def cumsum(self, a, axis=None, dtype=None, out=None):
        return self._scan("cumsum", self._lib.THC_SUM, a, axis, dtype, out)

    def cumprod(self, a, axis=None, dtype=None, out=None):
        return self._scan("cumprod", self._lib.THC_PROD, a, axis, dtype, out)

    def linalg_norm(self, x, ord=None, axis=None, keepdims=False):
        """The vector p-norm of x along axis (all elements when None): numpy's
        linalg.norm for vectors (ord: None or 2, 1, inf, 0 or any p > 0)."""
        x = self._check(x, "norm")
        p = 2.0 if ord is None else float(ord)
        if x.dtype not in _FLOATS:
            x = self._as(x, _F64)
        if axis is None:
            x, axis = x.reshape(-1), 0
        return self._reduction("norm", self._lib.THC_NORM, x, axis, None, None, keepdims, p=p)

    # ---- indexing ----
    def _index_tensor(self, value, name="index"):
        """An index given as a CudaTensor, a host integer or bool array, or a list, as a device tensor."""
        if isinstance(value, CudaTensor):
            t = self._check(value, name)
        else:
            host = np.asarray(value)
            if host.dtype.kind not in "iub" and not (host.size == 0 and host.dtype.kind == "f"):
                raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got {host.dtype}")
            t = self.device.to_device(host if host.dtype.kind == "b" else host.astype(np.int64))
        if t.real not in ("Long", "Bool"):
            raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got {t.dtype}")
        return t

    def _basic(self, x, key):
        """x[key] for the basic part of key: (a view of x, [(dim of the view,
        index tensor)] for the advanced indices, kept whole in the view)."""
        if not isinstance(key, tuple):
            key = (key,)
        items = []
        for k in key:
            if k is None or k is Ellipsis or isinstance(k, slice):
                items.append(k)
            elif isinstance(k, (bool, np.bool_)):
                raise IndexError("a bool scalar as an index is not supported on the device")
            elif isinstance(k, (int, np.integer)):
                items.append(int(k))
            elif isinstance(k, CudaTensor) and k.ndim == 0 and k.real == "Long":
                items.append(int(k.item()))
            else:
                items.append(self._index_tensor(k))
        consumed = sum(0 if k is None or k is Ellipsis else k.ndim if isinstance(k, CudaTensor) and
                       k.real == "Bool" else 1 for k in items)
        ellipses = [i for i, k in enumerate(items) if k is Ellipsis]
        if len(ellipses) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if consumed > x.ndim:
            raise IndexError(f"too many indices for a tensor: it is {x.ndim}-dimensional, but {consumed} were indexed")
        if ellipses:
            items[ellipses[0]:ellipses[0] + 1] = [slice(None)] * (x.ndim - consumed)
        else:
            items += [slice(None)] * (x.ndim - consumed)
        shape, strides, offset, d, advanced = [], [], x.offset, 0, []
        for k in items:
            if k is None:
                shape.append(1)
                strides.append(0)
                continue
            if isinstance(k, int):
                n = x.shape[d]
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for axis {d} with size {n}")
                offset += (k % n) * x.strides[d]
                d += 1
            elif isinstance(k, slice):
                start, stop, step = k.indices(x.shape[d])
                n = len(range(start, stop, step))
                offset += start * x.strides[d] if n else 0
                shape.append(n)
                strides.append(x.strides[d] * step)
                d += 1
            else:
                if k.real == "Bool":
                    span = x.shape[d:d + k.ndim]
                    if k.shape != span:
                        raise IndexError(f"boolean index did not match indexed tensor along dims {d}..; dims are "
                                         f"{span} but the boolean index is {k.shape}")
                    advanced.append((len(shape), k))
                    shape.extend(span)
                    strides.extend(x.strides[d:d + k.ndim])
                    d += k.ndim
                else:
                    advanced.append((len(shape), k))
                    shape.append(x.shape[d])
                    strides.append(x.strides[d])
                    d += 1
        return x._view(shape, strides, offset), advanced

    def _positions(self, view, advanced):
        """The row-major positions in view of the elements view[advanced
        indices] selects, shaped as numpy shapes the result."""
        dims = []    # (first dim of the view, number of dims it spans, int index tensor)
        for d, k in advanced:
            if k.real == "Bool":
                coords = self._unravel(self._nonzero_flat(k), k.shape)
                dims.extend((d + i, c) for i, c in enumerate(coords))
            else:
                dims.append((d, k))
        index_shape = _broadcast_shapes(*(k.shape for _, k in dims))
        advanced_dims = [d for d, _ in dims]
        if len(set(advanced_dims)) != len(advanced_dims):
            raise IndexError("an axis indexed twice")
        adjacent = advanced_dims == list(range(advanced_dims[0], advanced_dims[0] + len(dims)))
        rest = [d for d in range(view.ndim) if d not in advanced_dims]
        before = [d for d in rest if d < advanced_dims[0]] if adjacent else []
        after = [d for d in rest if d not in before]
        result_shape = tuple(view.shape[d] for d in before) + index_shape + tuple(view.shape[d] for d in after)
        rowmajor = contiguous_strides(view.shape)
        nb = len(before)
        pos = self.zeros(result_shape, _I64)
        for d, k in dims:   # the advanced indices, checked, negatives wrapped, at their place
            n = view.shape[d]
            k = self._as(k, _I64)
            if k.size:
                bad = self.logical_or(self.less(k, -n), self.greater_equal(k, n))
                if bool(self.any(bad)):
                    value = int(self.take(k, self._nonzero_flat(bad)[:1]).item())
                    raise IndexError(f"index {value} is out of bounds for axis {d} with size {n}")
            k = self.where(self.less(k, 0), self.add(k, n), k)
            k = k.reshape((1,) * nb + (1,) * (len(index_shape) - k.ndim) + k.shape + (1,) * len(after))
            self.add(pos, self.multiply(k, rowmajor[d]), out=pos)
        for i, d in enumerate(before + after):   # the sliced dims: a range each
            at = i if i < nb else i + len(index_shape)
            r = self.arange(view.shape[d], dtype=np.int64).reshape(
                (1,) * at + (view.shape[d],) + (1,) * (len(result_shape) - at - 1))
            self.add(pos, self.multiply(r, rowmajor[d]), out=pos)
        return pos

    def _getitem(self, x, key):
        view, advanced = self._basic(x, key)
        if not advanced:
            return view
        if len(advanced) == 1:
            d, k = advanced[0]
            if k.real == "Bool" and k.ndim == view.ndim:      # x[mask]: the selected elements, in order
                flat = self._nonzero_flat(k)
                out = self._new(flat.shape, view.dtype)
                self._math(view.real).take(self._as_long(out), self._as_long(view), flat)
                return out
            if k.real == "Long" and k.ndim == 1:             # x[..., idx, ...]: index_select along d
                out = self._new(view.shape[:d] + k.shape + view.shape[d + 1:], view.dtype)
                with _index_errors():
                    self._math(view.real).indexSelect(self._as_long(out), self._as_long(view), d, k)
                return out
        pos = self._positions(view, advanced)
        out = self._new(pos.shape, view.dtype)
        self._math(view.real).take(self._as_long(out), self._as_long(view), pos)
        return out

    def _setitem(self, x, key, value):
        if isinstance(value, np.ndarray):   # an explicit copy to the device, as CuPy's and PyTorch's
            value = self.device.to_device(value)
        if not _is_scalar(value):
            value = self._check(value, "the value assigned")
        view, advanced = self._basic(x, key)
        if not advanced:
            return self._assign(view, value)
        pos = self._positions(view, advanced)
        self._put(view, pos, value, accumulate=False)

    def _put(self, view, pos, value, accumulate):
        if _is_scalar(value):
            values = self.full(pos.shape, value, view.dtype)
        else:
            values = self.array(self._as(value, view.dtype).expand(pos.shape))   # (a copy: value may overlap view)
        if pos.size:
            self._math(view.real).put(self._as_long(view), pos, self._as_long(values), accumulate)

    def _add_at(self, a, indices, b):
        a = self._check(a, "add.at")
        view, advanced = self._basic(a, indices)
        if not advanced:
            self.add(view, b, out=view)
            return
        self._put(view, self._positions(view, advanced), b, accumulate=True)

    def _nonzero_flat(self, t):
        """The row-major positions of t's nonzero elements (int64, 1D)."""
        t = self._check(t, "nonzero")
        if t.ndim == 0:
            t = t.reshape(1)
        return self._math(c_real(t.real)).nonzero(None, self._as_long(t))

    def _unravel(self, flat, shape):
        """The coordinates (one int64 tensor per dim) of row-major positions flat in shape."""
        coords = []
        for step in contiguous_strides(shape):
            coords.append(self.floor_divide(flat, step))
            flat = self.remainder(flat, step)
        return coords

    def nonzero(self, a):
        a = self._check(a, "nonzero")
        if a.ndim == 0:
            raise ValueError("calling nonzero on 0d arrays is not allowed")
        return tuple(self._unravel(self._nonzero_flat(a), a.shape))

    def flatnonzero(self, a):
        return self._nonzero_flat(self._check(a, "flatnonzero").ravel())

    def argwhere(self, a):
        a = self._check(a, "argwhere")
        if a.ndim == 0:
            a = a.reshape(1)
            return self.zeros((int(bool(a.item())), 0), _I64)
        return self.stack(self.nonzero(a), axis=1)

    def argsort(self, a, axis=-1, kind=None, order=None):
        """Stable ascending order along axis, NaN last (every kind is the
        stable one on the device; axis None sorts the flattened tensor)."""
        if order is not None:
            raise NotImplementedError("argsort: order= (structured arrays) has no device version")
        a = self._check(a, "argsort")
        if axis is None:
            a, axis = a.ravel(), 0
        if a.ndim == 0:
            return self.zeros((), np.int64)
        out = self._new(a.shape, _I64)
        self._math(a.real).argsort(out, self._as_long(a), _axis(axis, a.ndim))
        return out

    def sort(self, a, axis=-1, kind=None, order=None):
        a = self._check(a, "sort")
        if axis is None:
            a, axis = a.ravel(), 0
        if a.ndim == 0:
            return self.array(a)
        return self.take_along_axis(a, self.argsort(a, axis, kind, order), axis)

    def bincount(self, x, weights=None, minlength=0):
        """How often each value of the non-negative int64 tensor x occurs (or
        the sum of its weights), at least minlength counts."""
        x = self._check(x, "bincount")
        if x.ndim != 1 or x.dtype.kind not in "iub":
            raise ValueError(f"bincount: x must be a 1D tensor of non-negative integers, got {x.dtype} {x.shape}")
        x = self._as(x, _I64)
        if x.size and int(self.min(x)) < 0:
            raise ValueError("bincount: x must not hold negative values")
        n = max(int(minlength), int(self.max(x)) + 1 if x.size else 0)
        w = self.ones(x.shape, _I64) if weights is None else self._as(self._check(weights, "weights"), _F64)
        counts = self.zeros(n, w.dtype)
        if x.size:
            self._math(w.real).put(counts, x, self.array(w), True)
        return counts

    def copyto(self, dst, src, casting="same_kind", where=True):
        """dst[...] = src (broadcast), where where holds."""
        dst = self._check(dst, "copyto: dst")
        if where is True:
            self._assign(dst, src)
        else:
            self._assign(dst, self.where(where, src, dst))

    def take(self, a, indices, axis=None, out=None):
        a = self._check(a, "take")
        idx = self._index_tensor(indices)
        if idx.real == "Bool":
            raise IndexError("take: indices must be integers")
        with _index_errors():
            if axis is None:
                result = self._new(idx.shape, a.dtype)
                self._math(a.real).take(self._as_long(result), self._as_long(a), idx)
            else:
                d = _axis(axis, a.ndim)
                flat = idx.reshape(-1)
                picked = self._new(a.shape[:d] + flat.shape + a.shape[d + 1:], a.dtype)
                self._math(a.real).indexSelect(self._as_long(picked), self._as_long(a), d, flat)
                result = picked.reshape(a.shape[:d] + idx.shape + a.shape[d + 1:])
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def _along(self, name, arr, indices, axis):
        arr = self._check(arr, name)
        idx = self._index_tensor(indices)
        if axis is None:
            arr, axis = arr.ravel(), 0
        d = _axis(axis, arr.ndim)
        if idx.ndim != arr.ndim:
            raise ValueError(f"{name}: `indices` and `arr` must have the same number of dimensions")
        shape = list(_broadcast_shapes(tuple(n for i, n in enumerate(arr.shape) if i != d),
                                       tuple(n for i, n in enumerate(idx.shape) if i != d)))
        shape.insert(d, idx.shape[d])
        return arr, idx.expand(shape), d

    def take_along_axis(self, arr, indices, axis):
        arr, idx, d = self._along("take_along_axis", arr, indices, axis)
        src_shape = list(idx.shape)
        src_shape[d] = arr.shape[d]
        src = arr.expand(src_shape)
        out = self._new(idx.shape, arr.dtype)
        with _index_errors():
            self._math(arr.real).gather(self._as_long(out), self._as_long(src), d, idx)
        return out

    def put_along_axis(self, arr, indices, values, axis):
        arr, idx, d = self._along("put_along_axis", arr, indices, axis)
        if idx.shape[:d] + idx.shape[d + 1:] != arr.shape[:d] + arr.shape[d + 1:]:
            raise ValueError(f"put_along_axis: indices {idx.shape} do not fit the tensor {arr.shape} along axis {d}")
        vals = self.full(idx.shape, values, arr.dtype) if _is_scalar(values) else \
            self.array(self._as(self._check(values, "values"), arr.dtype).expand(idx.shape))
        with _index_errors():
            self._math(arr.real).scatter(self._as_long(arr), d, idx, self._as_long(vals), False)

    # ---- linear algebra ----
    def matmul(self, a, b, out=None):
        a, b = self._check(a, "matmul: operand 0"), self._check(b, "matmul: operand 1")
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError("matmul: Input operand does not have enough dimensions")
        dtype = promote([a.dtype, b.dtype])
        compute = dtype if dtype in _FLOATS else _F64
        a2 = a.unsqueeze(0) if a.ndim == 1 else a
        b2 = b.unsqueeze(1) if b.ndim == 1 else b
        (m, k), (k2, n) = a2.shape[-2:], b2.shape[-2:]
        if k != k2:
            raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                             f"signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})")
        batch = _broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
        nb = int(np.prod(batch, dtype=np.int64))
        a3 = self._as(a2, compute).expand(batch + (m, k)).reshape((nb, m, k))
        b3 = self._as(b2, compute).expand(batch + (k, n)).reshape((nb, k, n))
        c3 = self._new((a3.shape[0], m, n), compute)
        if c3.size:
            self._math(REALS[compute]).addmm(c3, 0.0, 1.0, a3, b3)
        shape = batch + ((m,) if a.ndim > 1 else ()) + ((n,) if b.ndim > 1 else ())
        result = c3.reshape(shape)
        if compute != dtype:
            result = self.astype(result, dtype)
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def dot(self, a, b, out=None):
        if _is_scalar(a) or _is_scalar(b):
            return self.multiply(a, b, out=out)
        a, b = self._check(a, "dot: a"), self._check(b, "dot: b")
        if a.ndim == 0 or b.ndim == 0:
            return self.multiply(a, b, out=out)
        if a.ndim > 2 or b.ndim > 2:
            return self.tensordot(a, b, axes=([a.ndim - 1], [max(b.ndim - 2, 0)]))
        return self.matmul(a, b, out=out)

    def vdot(self, a, b):
        return self.matmul(self._check(a, "vdot: a").ravel(), self._check(b, "vdot: b").ravel())

    def inner(self, a, b):
        a, b = self._check(a, "inner: a"), self._check(b, "inner: b")
        return self.tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))

    def outer(self, a, b, out=None):
        a, b = self._check(a, "outer: a").ravel(), self._check(b, "outer: b").ravel()
        return self.multiply(a.unsqueeze(1), b.unsqueeze(0), out=out)

    def tensordot(self, a, b, axes=2):
        a, b = self._check(a, "tensordot: a"), self._check(b, "tensordot: b")
        if isinstance(axes, (int, np.integer)):
            axes = (list(range(a.ndim - axes, a.ndim)), list(range(axes)))
        ax, bx = ([_axis(d, t.ndim) for d in (x if isinstance(x, (list, tuple)) else [x])]
                  for x, t in zip(axes, (a, b)))
        letters = iter(string.ascii_letters)
        la = [next(letters) for _ in range(a.ndim)]
        lb = [next(letters) for _ in range(b.ndim)]
        for i, j in zip(ax, bx):
            lb[j] = la[i]
        lo = [c for i, c in enumerate(la) if i not in ax] + [c for j, c in enumerate(lb) if j not in bx]
        return self.einsum(f"{''.join(la)},{''.join(lb)}->{''.join(lo)}", a, b)

    def einsum(self, subscripts, *operands, optimize=None, out=None):
        """numpy's einsum for explicit or implicit subscripts without
        ellipses or repeated letters within one operand; operands are
        contracted left to right, two at a time, each pair as one batched
        matrix product."""
        tensors = [self._check(o, f"einsum: operand {i}") for i, o in enumerate(operands)]
        subscripts = subscripts.replace(" ", "")
        if "." in subscripts:
            raise NotImplementedError("einsum: ellipses are not supported on the device")
        inputs, _, output = subscripts.partition("->")
        inputs = inputs.split(",")
        if len(inputs) != len(tensors):
            raise ValueError(f"einsum: {len(inputs)} operands in the subscripts, {len(tensors)} given")
        if "->" not in subscripts:
            counts = {c: "".join(inputs).count(c) for c in "".join(inputs)}
            output = "".join(sorted(c for c, n in counts.items() if n == 1))
        sizes = {}
        for letters, t in zip(inputs, tensors):
            if len(letters) != t.ndim or len(set(letters)) != len(letters):
                raise ValueError(f"einsum: subscripts {letters!r} do not fit an operand of shape {t.shape} "
                                 f"(repeated letters in one operand are not supported on the device)")
            for c, n in zip(letters, t.shape):
                if sizes.setdefault(c, n) != n:
                    raise ValueError(f"einsum: size of label {c!r} is {sizes[c]} in one operand and {n} in another")
        acc, acc_letters = tensors[0], inputs[0]
        for i in range(1, len(tensors)):
            later = set("".join(inputs[i + 1:])) | set(output)
            keep = "".join(c for c in dict.fromkeys(acc_letters + inputs[i]) if c in later)
            acc = self._contract(acc, acc_letters, tensors[i], inputs[i], keep, sizes)
            acc_letters = keep
        result = self._reduce_letters(acc, acc_letters, output)
        if out is not None:
            self._assign(self._check(out, "out"), result)
            return out
        return result

    def _reduce_letters(self, t, letters, output):
        """t (subscripts letters) summed over the letters not in output and
        transposed to output's order."""
        gone = tuple(i for i, c in enumerate(letters) if c not in output)
        if gone:
            t = self.sum(t, axis=gone)
            letters = "".join(c for c in letters if c in output)
        return t.transpose(tuple(letters.index(c) for c in output)) if letters != output else t

    def _contract(self, a, la, b, lb, lo, sizes):
        """einsum(f'{la},{lb}->{lo}', a, b) as one batched matrix product."""
        a = self._reduce_letters(a, la, "".join(c for c in la if c in lb or c in lo))
        la = "".join(c for c in la if c in lb or c in lo)
        b = self._reduce_letters(b, lb, "".join(c for c in lb if c in la or c in lo))
        lb = "".join(c for c in lb if c in la or c in lo)
        batch = [c for c in la if c in lb and c in lo]
        summed = [c for c in la if c in lb and c not in lo]
        free_a = [c for c in la if c not in lb]
        free_b = [c for c in lb if c not in la]

        def prod(cs):
            return int(np.prod([sizes[c] for c in cs], dtype=np.int64))
        a3 = a.transpose(tuple(la.index(c) for c in batch + free_a + summed)) \
            .reshape((prod(batch), prod(free_a), prod(summed)))
        b3 = b.transpose(tuple(lb.index(c) for c in batch + summed + free_b)) \
            .reshape((prod(batch), prod(summed), prod(free_b)))
        c = self.matmul(a3, b3).reshape(tuple(sizes[x] for x in batch + free_a + free_b))
        got = "".join(batch + free_a + free_b)
        return c.transpose(tuple(got.index(x) for x in lo)) if got != lo else c

    # ---- misc ----
    def result_type(self, *args):
        strong = [a.dtype if isinstance(a, (CudaTensor, np.ndarray, np.generic)) else np.dtype(a)
                  for a in args if not (_is_scalar(a) and not isinstance(a, np.generic))]
        weak = [_weak_kind(a) for a in args if _is_scalar(a) and not isinstance(a, np.generic)]
        return promote(strong, weak)

    def shape(self, a):
        return self._check(a, "shape").shape

    def ndim(self, a):
        return self._check(a, "ndim").ndim

    def size(self, a):
        return self._check(a, "size").size

    def may_share_memory(self, a, b):
        return isinstance(a, CudaTensor) and isinstance(b, CudaTensor) and a.shares_memory(b)

    shares_memory = may_share_memory

    def isscalar(self, x):
        return np.isscalar(x)

    def array_equal(self, a, b):
        a, b = self._check(a, "array_equal"), self._check(b, "array_equal")
        return a.shape == b.shape and bool(self.all(self.equal(a, b)))

    def allclose(self, a, b, rtol=1e-05, atol=1e-08):
        a, b = self._check(a, "allclose"), self._operand(b, "allclose")
        return bool(self.all(self.less_equal(self.abs(self.subtract(a, b)), self.add(atol, self.multiply(
            rtol, self.abs(b))))))


@contextlib.contextmanager
def _index_errors():
    """An index out of range, found by a kernel, as numpy's IndexError."""
    try:
        yield
    except CudaError as e:
        if "out of bounds" not in str(e):
            raise
        raise IndexError(str(e).split(": ", 1)[-1]) from None


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)


# The elementwise functions, each a Ufunc of the namespace: (numpy's name,
# the THC_* operation code, kind).  kind: "arith" (computed in the operands'
# common type), "float" (int and bool operands become float64), "compare"
# (a bool result), "logical" (on truth values, a bool result), "round" (floor,
# ceil, trunc: integers as they are), "bitwise"
# (bool operands only: numpy's &, |, ^, ~ on masks).
_ELEMENTWISE = [
    ("negative", "NEG", "arith"), ("abs", "ABS", "arith"), ("sign", "SIGN", "arith"), ("square", "SQUARE", "arith"),
    ("exp", "EXP", "float"), ("log", "LOG", "float"), ("log1p", "LOG1P", "float"), ("expm1", "EXPM1", "float"),
    ("sqrt", "SQRT", "float"), ("floor", "FLOOR", "round"), ("ceil", "CEIL", "round"), ("rint", "RINT", "float"),
    ("trunc", "TRUNC", "round"), ("tanh", "TANH", "float"), ("sin", "SIN", "float"), ("cos", "COS", "float"),
    ("reciprocal", "RECIPROCAL", "float"),
    ("add", "ADD", "arith"), ("subtract", "SUB", "arith"), ("multiply", "MUL", "arith"),
    ("floor_divide", "FLOORDIV", "arith"), ("remainder", "MOD", "arith"), ("power", "POW", "arith"),
    ("maximum", "MAXIMUM", "arith"), ("minimum", "MINIMUM", "arith"),
    ("divide", "DIV", "float"), ("logaddexp", "LOGADDEXP", "float"), ("arctan2", "ATAN2", "float"),
    ("logical_not", "LNOT", "logical"), ("logical_and", "LAND", "logical"), ("logical_or", "LOR", "logical"),
    ("logical_xor", "LXOR", "logical"),
    ("invert", "LNOT", "bitwise"), ("bitwise_and", "LAND", "bitwise"), ("bitwise_or", "LOR", "bitwise"),
    ("bitwise_xor", "LXOR", "bitwise"),
    ("equal", "EQ", "compare"), ("not_equal", "NE", "compare"), ("less", "LT", "compare"),
    ("less_equal", "LE", "compare"), ("greater", "GT", "compare"), ("greater_equal", "GE", "compare"),
    ("isnan", "ISNAN", "compare"), ("isinf", "ISINF", "compare"), ("isfinite", "ISFINITE", "compare"),
]
# ufunc.reduce: the reduction each elementwise function has
_REDUCERS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_or": "any",
             "logical_and": "all"}
_ALIASES = {"absolute": "abs", "true_divide": "divide", "mod": "remainder", "pow": "power",
            "bitwise_not": "invert"}
