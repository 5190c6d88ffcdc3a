"""Valid calls of the device tensor math (thcunn_cu/generic/THCTensorMath.h),
for the kernel fuzzer (tests/fuzz_kernels.py, device mode "math"): the same
Case interface as tests/kernel_cases.py, with numpy arrays that the fuzzer
uploads, in float32, float64 and int64 (the math's Long expansion).

A case's builder gets (dtype, rng, n) and returns {argument name: value};
n scales the sizes, so one case makes calls of many shapes.
"""
import dataclasses

import numpy as np

from cuda_devices import any_device

DEVICE = any_device()   # (for its header's functions and constants; the fuzzer picks where calls run)
LIB = DEVICE.lib
HEADER = {f.name: f for f in DEVICE.math_functions}
DTYPES = (np.float32, np.float64, np.int64)

_INT_MAP_OPS = ("ID", "NEG", "ABS", "SIGN", "SQUARE", "LNOT", "ADD", "SUB", "MUL", "FLOORDIV", "MOD", "MAXIMUM",
                "MINIMUM", "LAND", "LOR", "LXOR")
_FLOAT_MAP_OPS = _INT_MAP_OPS + ("EXP", "LOG", "LOG1P", "EXPM1", "SQRT", "FLOOR", "CEIL", "RINT", "TRUNC", "TANH",
                                 "SIGMOID", "SIN", "COS", "RECIPROCAL", "DIV", "POW", "LOGADDEXP", "ATAN2")
_COMPARE_OPS = ("EQ", "NE", "LT", "LE", "GT", "GE", "ISNAN", "ISINF", "ISFINITE")


def _op(name):
    return getattr(LIB, f"THC_{name}")


def _values(rng, shape, dtype):
    if np.dtype(dtype).kind == "i":
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


def _scalar(dtype, value):
    return int(value) if np.dtype(dtype).kind == "i" else float(value)


def _map(dtype, rng, n):
    ops = _INT_MAP_OPS if np.dtype(dtype).kind == "i" else _FLOAT_MAP_OPS
    shape = (n, 3)
    return {"op": _op(rng.choice(ops)), "out": np.zeros(shape, dtype), "a": _values(rng, shape, dtype),
            "b": _values(rng, shape, dtype) if rng.random() < 0.7 else None, "s": _scalar(dtype, 2),
            "t": _scalar(dtype, 3)}


def _compare(dtype, rng, n):
    shape = (n, 2)
    return {"op": _op(rng.choice(_COMPARE_OPS)), "out": np.zeros(shape, np.int64), "a": _values(rng, shape, dtype),
            "b": None if rng.random() < 0.3 else _values(rng, shape, dtype), "s": _scalar(dtype, 1),
            "t": _scalar(dtype, 0)}


def _where(dtype, rng, n):
    shape = (2, n)
    return {"out": np.zeros(shape, dtype), "cond": rng.integers(0, 2, shape), "a": _values(rng, shape, dtype),
            "b": _values(rng, shape, dtype), "s": _scalar(dtype, 1), "t": _scalar(dtype, -1)}


def _copy(src_dtype):
    def build(dtype, rng, n):
        return {"dst": np.zeros((n, 2), dtype), "src": _values(rng, (n, 2), src_dtype)}
    return build


def _reduce(dtype, rng, n):
    ops = ("SUM", "PROD", "MAX", "MIN") + (("NORM",) if np.dtype(dtype).kind == "f" else ())
    op = rng.choice(ops)
    src = _values(rng, (n, 4, 3), dtype)
    dim = int(rng.integers(0, 3))
    shape = list(src.shape)
    shape[dim] = 1
    indices = np.zeros(shape, np.int64) if op in ("MAX", "MIN") else None
    return {"op": _op(op), "out": np.zeros(shape, dtype), "indices": indices, "src": src, "dim": dim, "p": 2.0}


def _scan(dtype, rng, n):
    src = _values(rng, (n, 5), dtype)
    return {"op": _op(rng.choice(("SUM", "PROD"))), "out": np.zeros_like(src), "src": src,
            "dim": int(rng.integers(0, 2))}


def _index_select(dtype, rng, n):
    src = _values(rng, (4, n), dtype)
    index = rng.integers(-4, 4, 3)
    return {"out": np.zeros((3, n), dtype), "src": src, "dim": 0, "index": index}


def _index_add(dtype, rng, n):
    return {"dst": _values(rng, (n, 5), dtype), "dim": 1, "index": rng.integers(0, 5, 7),
            "src": _values(rng, (n, 7), dtype)}


def _gather(dtype, rng, n):
    src = _values(rng, (n, 4), dtype)
    return {"out": np.zeros((n, 6), dtype), "src": src, "dim": 1, "index": rng.integers(0, 4, (n, 6))}


def _scatter(dtype, rng, n):
    return {"dst": _values(rng, (n, 4), dtype), "dim": 1, "index": rng.integers(0, 4, (n, 3)),
            "src": _values(rng, (n, 3), dtype), "accumulate": bool(rng.random() < 0.5)}


def _take(dtype, rng, n):
    src = _values(rng, (n, 3), dtype)
    return {"out": np.zeros(5, dtype), "src": src, "index": rng.integers(-3 * n, 3 * n, 5)}


def _put(dtype, rng, n):
    return {"dst": _values(rng, (n, 3), dtype), "index": rng.integers(0, 3 * n, 4), "src": _values(rng, 4, dtype),
            "accumulate": bool(rng.random() < 0.5)}


def _argsort(dtype, rng, n):
    src = _values(rng, (n, 5), dtype)
    return {"out": np.zeros(src.shape, np.int64), "src": src, "dim": int(rng.integers(0, 2))}


def _nonzero(dtype, rng, n):
    return {"out": None, "src": _values(rng, (n, 4), dtype) * (rng.random((n, 4)) < 0.5)}


def _addmm(dtype, rng, n):
    batch = (2,) if rng.random() < 0.5 else ()
    a, b = _values(rng, batch + (n, 4), dtype), _values(rng, batch + (4, 3), dtype)
    return {"out": np.zeros(batch + (n, 3), dtype), "beta": _scalar(dtype, 0), "alpha": _scalar(dtype, 1),
            "a": a, "b": b}


def _random(dtype, rng, n):
    return {"op": _op(rng.choice(("UNIFORM", "NORMAL"))), "t": np.zeros((n, 3), dtype),
            "seed": int(rng.integers(2 ** 62)), "a": 0.0, "b": 1.0}


@dataclasses.dataclass(frozen=True)
class MathCase:
    id: str
    function: str
    builder: object

    @property
    def params(self):
        """The header's arguments without the state."""
        return HEADER[self.function].args[1:]

    def kwargs(self, dtype, n=3, seed=0):
        kw = self.builder(np.dtype(dtype), np.random.default_rng(seed), n)
        missing = [a.name for a in self.params if a.name not in kw]
        assert not missing, f"case {self.id} gives no value for {missing}"
        return {a.name: kw[a.name] for a in self.params}


CASES = [MathCase(name, name, builder) for name, builder in (
    ("map", _map), ("compare", _compare), ("where", _where), ("copyFloat", _copy(np.float32)),
    ("copyDouble", _copy(np.float64)), ("copyLong", _copy(np.int64)), ("reduce", _reduce), ("scan", _scan),
    ("indexSelect", _index_select), ("indexAdd", _index_add), ("gather", _gather), ("scatter", _scatter),
    ("take", _take), ("put", _put), ("argsort", _argsort), ("nonzero", _nonzero), ("addmm", _addmm), ("random", _random))]
