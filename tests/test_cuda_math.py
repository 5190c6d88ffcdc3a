"""The device tensor math (thcunn_cu/generic/THCTensorMath.cu) through its
numpy namespace (thnn/_cuda_numpy.py), op by op against numpy itself.

Every case is one function of ``xp`` run twice on the same data: with
``xp = numpy`` on host arrays and with the device namespace on their
device copies; results must have numpy's shape and dtype and its values
(exactly for what is exact, within a few ulps otherwise).  Operands come in
several layouts made by the same view on both sides (contiguous, transposed,
every other row, reversed, broadcast), and zero-size ones."""
import numpy as np
import pytest

import thnn.cuda as cuda


# layouts: the same view taken of a (6, 4) array on both sides
LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "strided": lambda a: a[::2, 1:],
    "reversed": lambda a: a[::-1, ::-1],
    "empty": lambda a: a[:0],
}


def _host(shape, dtype, rng, low=-2.0, high=2.0):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "i":
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def _both(dev, fn, *hosts):
    """fn(np, *hosts) and fn(device namespace, *device copies), the second brought back."""
    want = fn(np, *hosts)
    got = fn(dev.numpy, *[dev.to_device(h) if isinstance(h, np.ndarray) else h for h in hosts])
    return want, got


def _same(want, got, tol=None):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for w, g in zip(want, got):
            _same(w, g, tol)
        return
    want = np.asarray(want)
    assert isinstance(got, cuda.CudaTensor), f"got a {type(got).__name__}, not a CudaTensor"
    g = got.numpy()
    assert g.shape == want.shape, f"shape {g.shape}, numpy {want.shape}"
    assert g.dtype == want.dtype, f"dtype {g.dtype}, numpy {want.dtype}"
    if tol is None:
        tol = 0 if want.dtype.kind in "biu" else (1e-6 if want.dtype == np.float32 else 1e-13)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


UNARY = ["negative", "abs", "sign", "square", "exp", "log", "log1p", "expm1", "sqrt", "floor", "ceil", "rint",
         "trunc", "tanh", "sin", "cos", "reciprocal", "logical_not", "isnan", "isinf", "isfinite"]
POSITIVE = {"log", "sqrt", "log1p"}


TYPES = [np.float32, np.float64, np.int64, np.bool_]


def _unary_applies(name, dtype):
    """numpy refuses negative and sign on bools; the device refuses integer reciprocals."""
    kind = np.dtype(dtype).kind
    return not (kind == "b" and name in ("negative", "sign") or kind in "bi" and name == "reciprocal")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name,dtype", [pytest.param(n, t, id=f"{n}-{np.dtype(t).name}") for n in UNARY for t in TYPES
                                        if _unary_applies(n, t)])
def test_unary(dev, name, dtype, layout):
    rng = np.random.default_rng(1)
    low = 0.1 if name in POSITIVE else -2.0
    h = LAYOUTS[layout](_host((6, 4), dtype, rng, low))
    with np.errstate(all="ignore"):
        want, got = _both(dev, lambda xp, a: getattr(xp, name)(a), h)
        # (numpy gives float16 for a bool operand, int8 for a bool squared: the device float64 and int64)
        if want.dtype == np.float16:
            want = getattr(np, name)(h.astype(np.float64))
        if want.dtype == np.int8:
            want = want.astype(np.int64)
    _same(want, got)


def test_unary_special_values(dev):
    h = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, -3.5, 2.5, 0.5, -0.5])
    for name in ("negative", "abs", "sign", "exp", "expm1", "floor", "ceil", "rint", "trunc", "tanh", "isnan",
                 "isinf", "isfinite", "logical_not"):
        with np.errstate(all="ignore"):
            want, got = _both(dev, lambda xp, a: getattr(xp, name)(a), h)
        _same(want, got)


BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum", "minimum",
          "logaddexp", "arctan2", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "logical_and", "logical_or", "logical_xor"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_binary(dev, name, dtype, layout):
    rng = np.random.default_rng(2)
    a = LAYOUTS[layout](_host((6, 4), dtype, rng))
    b = LAYOUTS[layout](_host((6, 4), dtype, rng))
    if name in ("floor_divide", "remainder") and np.dtype(dtype).kind == "i":
        b[b == 0] = 3   # (numpy warns and gives 0: tested in test_integer_division_by_zero)
    if name == "power":
        a, b = np.abs(a) + (np.dtype(dtype).kind == "f"), np.abs(b) % 4
    with np.errstate(all="ignore"):
        want, got = _both(dev, lambda xp, x, y: getattr(xp, name)(x, y), a, b)
    _same(want, got)


def test_integer_division_by_zero(dev):
    a = np.array([7, -7, 0, np.iinfo(np.int64).min], np.int64)
    for b in (np.zeros(4, np.int64), np.full(4, -1, np.int64)):
        with np.errstate(all="ignore"):
            for name in ("floor_divide", "remainder"):
                want, got = _both(dev, lambda xp, x, y: getattr(xp, name)(x, y), a, b)
                _same(want, got)


def test_float_floor_divide_and_remainder_follow_numpy(dev):
    a = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 1.0, np.inf, 5.0])
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0, 2.0, np.inf])
    with np.errstate(all="ignore"):
        for name in ("floor_divide", "remainder"):
            want, got = _both(dev, lambda xp, x, y: getattr(xp, name)(x, y), a, b)
            _same(want, got)


def test_nan_propagation_of_maximum_minimum(dev):
    a = np.array([1.0, np.nan, 3.0, np.nan])
    b = np.array([np.nan, 2.0, 1.0, np.nan])
    for name in ("maximum", "minimum"):
        _same(*_both(dev, lambda xp, x, y: getattr(xp, name)(x, y), a, b))


@pytest.mark.parametrize("shapes", [((6, 4), (4,)), ((6, 1), (1, 4)), ((3, 1, 4), (5, 1)), ((6, 4), ()),
                                    ((0, 4), (1, 4))], ids=str)
def test_broadcasting(dev, shapes):
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(-2, 2, s) for s in shapes)
    for name in ("add", "multiply", "maximum", "less"):
        _same(*_both(dev, lambda xp, x, y: getattr(xp, name)(x, y), a, b))


@pytest.mark.parametrize("scalar", [2, 2.5, True, np.float32(1.5), np.float64(-0.5), np.int64(3)], ids=repr)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_], ids=str)
def test_scalar_operands_promote_as_numpy(dev, dtype, scalar):
    """Python scalars are weak (the array's dtype wins), numpy scalars are not (NEP 50)."""
    a = _host((3, 4), dtype, np.random.default_rng(4))
    for f in (lambda xp, x: x * scalar, lambda xp, x: scalar + x, lambda xp, x: xp.maximum(x, scalar),
              lambda xp, x: x > scalar, lambda xp, x: xp.where(x > 0, x, scalar) if x.dtype != bool else x):
        if np.dtype(dtype) == np.bool_ and isinstance(scalar, (bool,)) and f(np, a).dtype == np.bool_:
            pass
        _same(*_both(dev, f, a))


def test_mixed_dtypes_promote_as_numpy(dev):
    rng = np.random.default_rng(5)
    arrays = {d: _host((2, 3), d, rng) for d in (np.float32, np.float64, np.int64, np.bool_)}
    for x in arrays.values():
        for y in arrays.values():
            if x.dtype == y.dtype == np.bool_:
                continue
            _same(*_both(dev, lambda xp, a, b: a + b, x, y))
            _same(*_both(dev, lambda xp, a, b: a * b, x, y))
            _same(*_both(dev, lambda xp, a, b: a == b, x, y))


def test_bool_arithmetic(dev):
    a, b = np.array([True, False, True]), np.array([True, True, False])
    for f in (lambda xp, x, y: x + y, lambda xp, x, y: x * y, lambda xp, x, y: x & y, lambda xp, x, y: x | y,
              lambda xp, x, y: x ^ y, lambda xp, x, y: ~x, lambda xp, x, y: xp.maximum(x, y), lambda xp, x, y: x.sum(),
              lambda xp, x, y: x.any(), lambda xp, x, y: x.all(), lambda xp, x, y: x.astype(np.float32)):
        _same(*_both(dev, f, a, b))
    with pytest.raises(TypeError):
        dev.numpy.subtract(dev.to_device(a), dev.to_device(b))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed"])
def test_where_and_clip(dev, layout):
    rng = np.random.default_rng(6)
    a, b = (LAYOUTS[layout](rng.uniform(-2, 2, (6, 4))) for _ in range(2))
    _same(*_both(dev, lambda xp, x, y: xp.where(x > y, x, y), a, b))
    _same(*_both(dev, lambda xp, x, y: xp.where(x > 0, x, 0.5), a, b))
    _same(*_both(dev, lambda xp, x, y: xp.where(x > 0, 2, y), a, b))
    _same(*_both(dev, lambda xp, x, y: xp.where(x > 0, x[:1], y[:, :1]), a, b))
    _same(*_both(dev, lambda xp, x, y: xp.clip(x, -0.5, 0.7), a, b))
    _same(*_both(dev, lambda xp, x, y: xp.clip(x, None, 0.7), a, b))
    _same(*_both(dev, lambda xp, x, y: x.clip(min=y), a, b))


REDUCTIONS = ["sum", "prod", "max", "min", "mean", "argmax", "argmin", "any", "all", "std", "var", "cumsum",
              "cumprod"]


def _reduction_applies(name, dtype, axis):
    """numpy takes one axis for the arg- and cumulative forms, and has no std, var or cumprod of bools."""
    return not (isinstance(axis, tuple) and name in ("argmax", "argmin", "cumsum", "cumprod")
                or np.dtype(dtype) == np.bool_ and name in ("std", "var", "cumprod"))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "reversed"])
@pytest.mark.parametrize("name,dtype,axis", [pytest.param(n, t, a, id=f"{n}-{np.dtype(t).name}-{a}") for n in REDUCTIONS
                                             for t in TYPES for a in (None, 0, 1, -1, (0, 1))
                                             if _reduction_applies(n, t, a)])
def test_reductions(dev, name, dtype, axis, layout):
    rng = np.random.default_rng(7)
    h = LAYOUTS[layout](_host((6, 5), dtype, rng, 0.5, 1.5 if name in ("prod", "cumprod") else 2.0))
    want, got = _both(dev, lambda xp, a: getattr(xp, name)(a, axis=axis), h)
    _same(want, got, 1e-5 if np.asarray(want).dtype == np.float32 else None)
    if name not in ("cumsum", "cumprod", "argmax", "argmin") or name in ("argmax", "argmin") and axis is not None:
        _same(*_both(dev, lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=True), h),
              1e-5 if np.asarray(want).dtype == np.float32 else None)


def test_long_reductions_use_many_threads(dev):
    """Lines of 3000 elements (a block per line) and 3000 lines of 3 (a thread per line)."""
    rng = np.random.default_rng(8)
    for shape in ((4, 3000), (3000, 3)):
        h = rng.uniform(-1, 1, shape)
        h[1, 2] = 5.0
        h[2, 1] = 5.0   # (a tie in row 2 of the first shape: the first position wins)
        for name in ("sum", "max", "min", "argmax", "argmin", "mean"):
            for axis in (0, 1):
                _same(*_both(dev, lambda xp, a: getattr(xp, name)(a, axis=axis), h))


def test_extrema_and_nan(dev):
    h = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, 1.0, 0.0], [np.nan, 1.0, 1.0, 1.0]])
    for name in ("max", "min", "argmax", "argmin", "sum"):
        for axis in (None, 0, 1):
            _same(*_both(dev, lambda xp, a: getattr(xp, name)(a, axis=axis), h))


def test_reductions_of_empty_tensors(dev):
    h = np.zeros((0, 3))
    for f in (lambda xp, a: a.sum(axis=0), lambda xp, a: a.sum(), lambda xp, a: a.prod(axis=0),
              lambda xp, a: a.any(axis=0), lambda xp, a: a.all(axis=0), lambda xp, a: a.max(axis=1),
              lambda xp, a: a.max(axis=0, initial=-1.0), lambda xp, a: xp.cumsum(a, axis=0),
              lambda xp, a: xp.count_nonzero(a, axis=0)):
        _same(*_both(dev, f, h))
    with pytest.raises(ValueError, match="zero-size array"):
        dev.numpy.max(dev.to_device(h), axis=0)
    with pytest.raises(ValueError, match="empty sequence"):
        dev.numpy.argmax(dev.to_device(h))
    assert dev.numpy.count_nonzero(dev.to_device(h)) == 0


def test_norms_and_count_nonzero(dev):
    h = np.random.default_rng(9).uniform(-2, 2, (5, 7))
    h[1, :3] = 0
    xp = dev.numpy
    d = dev.to_device(h)
    for p in (1, 2, 3.5, np.inf, 0):
        np.testing.assert_allclose(xp.linalg.norm(d, ord=p, axis=1).numpy(), np.linalg.norm(h, ord=p, axis=1),
                                   rtol=1e-13)
    assert xp.count_nonzero(d) == np.count_nonzero(h)
    _same(*_both(dev, lambda xp, a: xp.count_nonzero(a, axis=1), h))


# ---- shapes, views, copies ----

def test_views_share_memory_and_write_through(dev):
    h = np.arange(24.0).reshape(4, 6)
    d = dev.to_device(h)
    for view in (lambda a: a.T, lambda a: a[1:3, ::2], lambda a: a[::-1], lambda a: a[2], lambda a: a[:, None, 1],
                 lambda a: a.reshape(2, 12), lambda a: a.T.reshape(6, 2, 2)[:, 0] if isinstance(a, np.ndarray)
                 else a.T.reshape(6, 2, 2)[:, 0]):
        _same(view(h), view(d))
    v = d[1:3, ::2]
    v[...] = -1.0
    h[1:3, ::2] = -1.0
    _same(h, d)
    assert d.T.shares_memory(d) and d[::2].strides == (12, 1)


def test_reshape_copies_only_when_it_must(dev):
    d = dev.to_device(np.arange(24.0).reshape(4, 6))
    assert d.reshape(3, 8).shares_memory(d)
    assert d[:, :3].reshape(2, 2, 3).shares_memory(d)        # (rows still whole runs: a view)
    t = d.T.reshape(24)                                      # (not a view: a copy, as numpy's)
    assert not t.shares_memory(d)
    np.testing.assert_array_equal(t.numpy(), np.arange(24.0).reshape(4, 6).T.reshape(24))
    with pytest.raises(ValueError):
        d.T.view(24)
    with pytest.raises(ValueError):
        d.reshape(5, 5)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_shape_functions(dev, layout):
    h = LAYOUTS[layout](np.random.default_rng(10).uniform(-2, 2, (6, 4)))
    for f in (lambda xp, a: xp.concatenate([a, a * 2, a[:1]], axis=0) if a.shape[1:] == a[:1].shape[1:] else a,
              lambda xp, a: xp.concatenate([a, a], axis=1), lambda xp, a: xp.stack([a, a + 1], axis=1),
              lambda xp, a: xp.repeat(a, 2, axis=1), lambda xp, a: xp.repeat(a, 3), lambda xp, a: xp.tile(a, (2, 1)),
              lambda xp, a: xp.moveaxis(a[None], 0, 2), lambda xp, a: xp.expand_dims(a, (0, 3)),
              lambda xp, a: xp.flip(a), lambda xp, a: xp.flip(a, 1), lambda xp, a: xp.swapaxes(a, 0, 1),
              lambda xp, a: xp.broadcast_to(a[:1], (3,) + a[:1].shape), lambda xp, a: xp.squeeze(a[:, :1], 1),
              lambda xp, a: xp.pad(a, ((1, 2), (0, 1))), lambda xp, a: xp.ascontiguousarray(a),
              lambda xp, a: a.astype(np.float32), lambda xp, a: a.astype(np.int64), lambda xp, a: a.astype(bool),
              lambda xp, a: a.copy(), lambda xp, a: a.ravel(), lambda xp, a: a.flatten(),
              lambda xp, a: xp.zeros_like(a), lambda xp, a: xp.full_like(a, 3.5), lambda xp, a: xp.ones((2, 0)),
              lambda xp, a: xp.arange(2, 11, 3)):
        _same(*_both(dev, f, h))


def test_astype_to_int_truncates_and_saturates_as_numpy(dev):
    h = np.array([1.7, -1.7, 0.5, -0.5, 1e20, -1e20, np.nan, np.inf])
    with np.errstate(invalid="ignore"):
        want = h.astype(np.int64)   # (x86-64: INT64_MIN for what does not fit)
    got = dev.to_device(h).astype(np.int64).numpy()
    np.testing.assert_array_equal(got[:4], want[:4])
    assert (got[4:] == np.iinfo(np.int64).min).all()


# ---- indexing ----

INDEXES = [
    (2, ...), (slice(1, 5, 2), [0, 2]), ([3, 0, 3],), ([[1, 2], [0, -1]],), (slice(None), [2, -1, 0]),
    ([0, 2], [1, 3]), ([[0], [2]], [1, 3]), (np.array([True, False, True, False, True, True]),),
    (slice(None), np.array([True, False, True, True])), (Ellipsis, 1), (None, 1, slice(None, None, -1)),
    ([1, 2], slice(None), None),
]


@pytest.mark.parametrize("key", INDEXES, ids=lambda k: repr(k)[:40])
def test_getitem_and_setitem(dev, key):
    rng = np.random.default_rng(11)
    h = rng.uniform(-2, 2, (6, 4))
    d = dev.to_device(h)
    want = h[key]
    got = d[key]
    _same(want, got)
    h2 = h.copy()
    h2[key] = -7.0
    d[key] = -7.0
    _same(h2, d)
    values = rng.uniform(-1, 1, np.shape(h[key]))
    h2[key] = values
    d[key] = dev.to_device(values)
    _same(h2, d)


def test_mask_indexing_and_bad_indices(dev):
    h = np.random.default_rng(12).uniform(-2, 2, (5, 3))
    d = dev.to_device(h)
    _same(h[h > 0], d[d > 0])
    h[h > 0] = 0.0
    d[d > 0] = 0.0
    _same(h, d)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        d[[0, 5]]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 3"):
        d[[0, 1], [1, -4]]
    with pytest.raises(IndexError):
        d[7]
    with pytest.raises(IndexError, match="too many indices"):
        d[0, 0, 0]


def test_take_put_along_axis_and_add_at(dev):
    rng = np.random.default_rng(13)
    h = rng.uniform(-2, 2, (4, 5))
    idx = rng.integers(0, 5, (4, 3))
    _same(*_both(dev, lambda xp, a, i: xp.take_along_axis(a, i, axis=1), h, idx))
    _same(*_both(dev, lambda xp, a, i: xp.take_along_axis(a, i[:1], axis=1), h, idx))   # (broadcast)
    _same(*_both(dev, lambda xp, a: xp.take_along_axis(a, xp.argmax(a, axis=0)[None], axis=0), h))
    _same(*_both(dev, lambda xp, a, i: xp.take(a, i), h, idx))
    _same(*_both(dev, lambda xp, a, i: xp.take(a, i[0], axis=1), h, idx))

    def put(xp, a, i):
        a = a.copy()
        xp.put_along_axis(a, i[:, :1], -3.0, axis=1)
        return a
    _same(*_both(dev, put, h, idx))

    def add_at(xp, a, i):
        a = a.copy()
        xp.add.at(a, (i[:, 0], i[:, 1]), 1.5)     # (repeated positions add up)
        xp.add.at(a, [0, 0, 3], a[:3] * 0 + 1.0)
        return a
    idx[1] = idx[0]
    _same(*_both(dev, add_at, h, idx))


def test_nonzero_argwhere(dev):
    h = np.random.default_rng(14).uniform(-1, 1, (30, 40)) > 0.3   # (more elements than a block has threads)
    for f in (lambda xp, a: xp.nonzero(a), lambda xp, a: xp.argwhere(a), lambda xp, a: xp.flatnonzero(a),
              lambda xp, a: xp.nonzero(a.T), lambda xp, a: xp.nonzero(a[:0])):
        _same(*_both(dev, f, h))


# ---- products ----

@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_matmul_and_friends(dev, dtype):
    rng = np.random.default_rng(15)
    a, b = rng.uniform(-1, 1, (2, 5, 3)).astype(dtype), rng.uniform(-1, 1, (3, 4)).astype(dtype)
    v, w = rng.uniform(-1, 1, 3).astype(dtype), rng.uniform(-1, 1, 5).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-13
    for f in (lambda xp, a, b, v, w: a @ b, lambda xp, a, b, v, w: xp.matmul(a[0].T, a[1]),
              lambda xp, a, b, v, w: a[0] @ v, lambda xp, a, b, v, w: v @ b, lambda xp, a, b, v, w: w @ a,
              lambda xp, a, b, v, w: v @ v, lambda xp, a, b, v, w: a[:, ::2] @ b[:, ::-1],
              lambda xp, a, b, v, w: xp.dot(a[0], b), lambda xp, a, b, v, w: xp.vdot(a, a),
              lambda xp, a, b, v, w: xp.outer(v, w), lambda xp, a, b, v, w: xp.matmul(a[:, :0], b),
              lambda xp, a, b, v, w: a[:, :, :0] @ b[:0], lambda xp, a, b, v, w: xp.inner(a, v),
              lambda xp, a, b, v, w: xp.tensordot(a, b, axes=1)):
        _same(*_both(dev, f, a, b, v, w), tol)


@pytest.mark.parametrize("spec", ["bi,kij,bj->bk", "bk,kij,bj->bi", "bk,bi,bj->kij", "bi,bi->b", "bij,bij->bj",
                                  "bj,bij->bi", "bj,bij->ij", "io,io->i", "ij->ji", "ij->", "ij,jk", "bij,bjk->bik"])
def test_einsum(dev, spec):
    rng = np.random.default_rng(16)
    sizes = dict(b=3, i=4, j=5, k=2, o=6)
    shapes = [tuple(sizes[c] for c in part) for part in spec.split("->")[0].split(",")]
    hosts = [rng.uniform(-1, 1, s) for s in shapes]
    _same(*_both(dev, lambda xp, *ops: xp.einsum(spec, *ops), *hosts))


# ---- random fills ----

def test_random_fills_are_reproducible_and_distributed(dev):
    xp = dev.numpy
    for dtype in (np.float32, np.float64):
        u = xp.random_uniform(-1.0, 3.0, (400, 50), dtype, seed=7).numpy()
        assert u.dtype == dtype and u.min() >= -1 and u.max() < 3
        assert abs(u.mean() - 1.0) < 0.02 and abs(u.std() - 4 / 12 ** 0.5) < 0.02
        np.testing.assert_array_equal(u, xp.random_uniform(-1.0, 3.0, (400, 50), dtype, seed=7).numpy())
        assert not np.array_equal(u, xp.random_uniform(-1.0, 3.0, (400, 50), dtype, seed=8).numpy())
        n = xp.random_normal(2.0, 0.5, (400, 50), dtype, seed=3).numpy()
        assert abs(n.mean() - 2.0) < 0.01 and abs(n.std() - 0.5) < 0.01
    # a strided fill takes element k of the stream at row-major position k
    t = xp.zeros((6, 4))
    dev.math("Double").random(dev.lib.THC_UNIFORM, t[::2], 5, 0.0, 1.0)
    whole = xp.random_uniform(0.0, 1.0, (3, 4), np.float64, seed=5).numpy()
    np.testing.assert_array_equal(t.numpy()[::2], whole)
    assert not t.numpy()[1::2].any()


# ---- the namespace's contract ----

def test_out_arguments(dev):
    xp = dev.numpy
    h = np.random.default_rng(17).uniform(-2, 2, (4, 5))
    d = dev.to_device(h)
    out = xp.empty((4, 5))
    assert xp.multiply(d, 2, out=out) is out
    np.testing.assert_array_equal(out.numpy(), h * 2)
    xp.add(d, d[:, :1], out=d)                       # in place, one operand overlapping out
    np.testing.assert_array_equal(d.numpy(), h + h[:, :1])
    e = dev.to_device(h)
    xp.add(e[:, 1:], e[:, :-1], out=e[:, 1:])        # partly overlapping: numpy reads before writing
    h2 = h.copy()
    np.add(h2[:, 1:], h2[:, :-1], out=h2[:, 1:])
    np.testing.assert_array_equal(e.numpy(), h2)
    f32 = xp.empty((4, 5), np.float32)
    xp.multiply(d, 0.5, out=f32)                     # a same-kind cast into out
    np.testing.assert_allclose(f32.numpy(), (h + h[:, :1]) * 0.5, rtol=1e-6)
    with pytest.raises(TypeError, match="same_kind"):
        xp.multiply(d, 0.5, out=xp.empty((4, 5), np.int64))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        xp.add(d, 1, out=xp.empty((5, 4)))
    masked = xp.full((4, 5), -9.0)                   # where=: out keeps its values where the mask is false
    xp.divide(d, d - 1, out=masked, where=d > 1)
    want = np.full((4, 5), -9.0)
    np.divide(d.numpy(), d.numpy() - 1, out=want, where=d.numpy() > 1)
    np.testing.assert_array_equal(masked.numpy(), want)
    with pytest.raises(TypeError, match="not casting"):
        xp.add(d, 1, casting="unsafe")
    d += 1
    d *= d
    h3 = (h + h[:, :1] + 1) ** 2
    np.testing.assert_allclose(d.numpy(), h3, rtol=1e-13)


def test_host_and_device_arrays_do_not_mix(dev):
    xp = dev.numpy
    d, h = dev.to_device(np.ones((2, 3))), np.ones((2, 3))
    with pytest.raises(TypeError, match="numpy array but the other operands are on CUDA device"):
        d + h
    with pytest.raises(TypeError, match="a numpy array and a CudaTensor in one operation"):
        h + d
    with pytest.raises(TypeError, match="numpy cannot read it"):
        np.asarray(d)
    with pytest.raises(TypeError, match="numpy array but the other operands"):
        xp.concatenate([d, h])
    # numpy's functions and scalars run on the device when every array is a CudaTensor
    np.testing.assert_array_equal(np.exp(d).numpy(), np.exp(h))
    np.testing.assert_array_equal((np.float64(2) * d).numpy(), 2 * h)
    np.testing.assert_array_equal(np.where(d > 0, d, 0).numpy(), h)
    assert d.__array_namespace__() is xp
    d[0] = h[0] * 3                      # (an assignment copies a host array to the device)
    np.testing.assert_array_equal(d.numpy()[0], h[0] * 3)


def test_zero_dimensional_results(dev):
    xp = dev.numpy
    d = dev.to_device(np.arange(6.0).reshape(2, 3))
    s = d.sum()
    assert isinstance(s, cuda.CudaTensor) and s.shape == () and float(s) == 15.0
    assert (d.max() + 1).item() == 6.0 and int(xp.argmax(d)) == 5
    assert bool(d[1, 2] == 5.0) and d[1, 2].shape == ()
    assert xp.sum(d[0] * d[1]).shape == ()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(d > 1)


def test_copies_and_pickles(dev):
    import copy
    import pickle
    d = dev.to_device(np.arange(6.0).reshape(2, 3))
    for c in (copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert isinstance(c, cuda.CudaTensor) and c.device is d.device and not c.shares_memory(d)
        np.testing.assert_array_equal(c.numpy(), d.numpy())


def test_the_math_binding_reads_every_argument(dev):
    """The arguments parsed from generic/THCTensorMath.h are those of the
    compiled functions (a comment holding ');' once cut a declaration short)."""
    for f in dev.math_functions:
        for real in ("Float", "Double", "Long"):
            c = dev.ffi.typeof(getattr(dev.lib, f"THC{real}Tensor_{f.name}"))
            assert len(c.args) == len(f.args), f.name


def test_math_errors_name_the_argument(dev):
    m = dev.math("Double")
    t = dev.to_device(np.ones((2, 3)))
    with pytest.raises(cuda.CudaError, match=r"map: a must be 2D of size \[3, 2\]"):
        m.map(dev.lib.THC_ADD, dev.to_device(np.ones((3, 2))), t, None, 0, 0)
    with pytest.raises(cuda.CudaError, match="not an elementwise operation of int64"):
        dev.math("Long").map(dev.lib.THC_EXP, dev.to_device(np.ones(3, np.int64)), None, None, 0, 0)
    with pytest.raises(cuda.CudaError, match="index 9 is out of bounds for axis 1 with size 3"):
        m.indexSelect(dev.to_device(np.ones((2, 1))), t, 1, dev.to_device(np.array([9])))
    with pytest.raises(cuda.CudaError, match="dim 2 is out of range"):
        m.reduce(dev.lib.THC_SUM, t, None, t, 2, 0.0)
    with pytest.raises(cuda.CudaError, match="int64"):
        dev.math("Long").addmm(*[dev.to_device(np.ones((2, 2), np.int64))] * 1, 0, 1,
                               *[dev.to_device(np.ones((2, 2), np.int64))] * 2)


def test_an_index_that_is_also_the_result_never_writes_out_of_bounds(dev):
    """scatter / put into the index tensor itself: values written by the
    kernel can send later reads of the index out of range (after the
    check made before the launch); the kernel checks again, so nothing
    beyond the tensor is touched (a guard band after it stays as it was)."""
    m = dev.math("Long")
    whole = dev.to_device(np.full(64, 12345, np.int64))
    index = whole[:32].reshape(4, 8)
    index[...] = dev.to_device(np.tile(np.roll(np.arange(8), -1), (4, 1)))   # (each writes where the next reads)
    src = dev.to_device(np.full((4, 8), 9, np.int64))   # out of range, written into the index: row 3 would reach the band
    m.scatter(index, 1, index, src, False)
    flat = whole[:32]
    flat[...] = dev.to_device(np.arange(32)[::-1].copy())
    m.put(flat, flat, dev.to_device(np.full(32, 32, np.int64)), True)   # indices pushed into the band
    assert (whole.numpy()[32:] == 12345).all()


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed"])
def test_sorting(dev, layout):
    rng = np.random.default_rng(18)
    h = LAYOUTS[layout](rng.integers(-3, 4, (6, 5)).astype(np.float64))   # (many ties: the order must be stable)
    h[1, 2] = np.nan
    for f in (lambda xp, a: xp.argsort(a, axis=1, kind="stable"), lambda xp, a: xp.argsort(a, axis=0, kind="stable"),
              lambda xp, a: xp.argsort(-a, axis=-1, kind="stable"), lambda xp, a: xp.sort(a, axis=0),
              lambda xp, a: xp.argsort(a, axis=None, kind="stable"), lambda xp, a: xp.sort(a[:0])):
        _same(*_both(dev, f, h))
    _same(*_both(dev, lambda xp, a: xp.argsort(a, kind="stable"), rng.integers(0, 3, 300)))   # a long line


def test_bincount_and_copyto(dev):
    rng = np.random.default_rng(19)
    x, w = rng.integers(0, 5, 40), rng.uniform(0, 1, 40)
    _same(*_both(dev, lambda xp, a: xp.bincount(a), x))
    _same(*_both(dev, lambda xp, a: xp.bincount(a, minlength=9), x))
    _same(*_both(dev, lambda xp, a, b: xp.bincount(a, weights=b), x, w))
    _same(*_both(dev, lambda xp, a: xp.bincount(a[:0], minlength=2), x))

    def copy(xp, a, b):
        a = a.copy()
        xp.copyto(a, b[:1])
        xp.copyto(a, -b, where=b > 0.5)
        return a
    _same(*_both(dev, copy, rng.uniform(-1, 1, (4, 3)), rng.uniform(0, 1, (4, 3))))
