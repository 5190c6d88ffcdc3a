"""thnn_c/THGemmThin.c, the float product of a wide matrix by a few columns
(a Linear layer's forward at a small batch; AVX2 + FMA, chosen at run
time): called through ctypes and checked against numpy's float64 product
with a tolerance of the sum of the magnitudes, at sizes that leave partial
blocks everywhere (rows in threes, columns in threes, k in steps of 8 and
runs of 512), with leading dimensions wider than the matrices (nothing
outside them read or written), alpha and beta of every kind (beta 0: NaN
in c ignored), NaN and infinities propagating; then through nn.Linear,
whose forward at batches 2-8 takes it (generic/THBlas.c), against the
OpenBLAS path it replaces."""
import ctypes

import numpy as np
import pytest

import thnn
import thnn._thnn

LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THGemm_floatThin.restype = ctypes.c_int
LIB.THGemm_floatThin.argtypes = [ctypes.c_int64] * 3 + [ctypes.c_float] + [ctypes.c_void_p, ctypes.c_int64] * 2 + [
    ctypes.c_float, ctypes.c_void_p, ctypes.c_int64]
LIB.THGemm_floatAvailable.restype = ctypes.c_int
LIB.THGemm_setEnabled.argtypes = [ctypes.c_int]

needs_avx2 = pytest.mark.skipif(not LIB.THGemm_floatAvailable(), reason="the CPU lacks AVX2/FMA: THGemmThin does not run")


def thin(w, x, c, alpha, beta):
    """c[j, i] = alpha * w[i] . x[j] + beta * c[j, i] through THGemm_floatThin
    (column-major: w's rows are a's columns, x's rows b's, c's rows c's),
    on the views given; its return code."""
    m, k = w.shape
    n = x.shape[0]
    ptr = ctypes.c_void_p
    ld = [max(v.strides[0] // 4, 1) for v in (w, x, c)]
    return LIB.THGemm_floatThin(m, n, k, alpha, ptr(w.ctypes.data), ld[0], ptr(x.ctypes.data), ld[1], beta,
                                ptr(c.ctypes.data), ld[2])


def padded(rng, rows, cols, extra=5):
    base = np.full((rows + 2, cols + extra), 777.0, np.float32)
    view = base[1:rows + 1, 2:cols + 2]
    view[:] = rng.standard_normal((rows, cols)).astype(np.float32)
    return base, view


# (m rows of the weight, n columns, k)
SHAPES = [(2, 2, 1), (3, 3, 8), (4, 2, 7), (7, 5, 9), (9, 8, 513), (31, 4, 1030), (6, 7, 2048), (300, 6, 97)]


@needs_avx2
@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("alpha, beta", [(1.0, 0.0), (1.0, 1.0), (-2.0, 0.5)])
def test_matches_numpy(m, n, k, alpha, beta):
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    wb, w = padded(rng, m, k)
    xb, x = padded(rng, n, k)
    cb, c = padded(rng, n, m)
    if beta == 0:
        c[:] = np.nan                                   # not read
    before = c.astype(np.float64)
    wb0, xb0 = wb.copy(), xb.copy()
    assert thin(w, x, c, alpha, beta) == 0
    want = alpha * (x.astype(np.float64) @ w.astype(np.float64).T) + (beta * before if beta else 0)
    scale = abs(alpha) * (np.abs(x).astype(np.float64) @ np.abs(w).astype(np.float64).T) + abs(beta) * np.abs(
        np.nan_to_num(before))
    assert np.all(np.abs(c - want) <= 1e-6 * (scale + 1)), np.abs(c - want).max()
    assert np.array_equal(wb, wb0) and np.array_equal(xb, xb0)          # the factors untouched
    mask = np.ones(cb.shape, bool)
    mask[1:n + 1, 2:m + 2] = False
    assert np.all(cb[mask] == 777.0)                                     # nothing outside c written


@needs_avx2
def test_nan_and_infinity_propagate():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((7, 40)).astype(np.float32)
    x = rng.standard_normal((4, 40)).astype(np.float32)
    w[2, 5] = np.nan              # row 2 of the weight: every sample's output 2
    x[1, 33] = np.inf             # sample 1 (in the last, partial step of 8): its outputs inf or NaN
    c = np.zeros((4, 7), np.float32)
    assert thin(w, x, c, 1.0, 0.0) == 0
    assert np.isnan(c[:, 2]).all()
    assert not np.isfinite(c[1]).any()
    finite = np.ones(c.shape, bool)
    finite[:, 2] = finite[1] = False
    assert np.isfinite(c[finite]).all()


@needs_avx2
def test_disabled_refuses():
    w = np.ones((4, 8), np.float32)
    x = np.ones((2, 8), np.float32)
    c = np.zeros((2, 4), np.float32)
    LIB.THGemm_setEnabled(0)
    try:
        assert thin(w, x, c, 1.0, 0.0) == -1 and not c.any()
    finally:
        LIB.THGemm_setEnabled(1)
    assert thin(w, x, c, 1.0, 0.0) == 0 and np.all(c == 8)


@needs_avx2
@pytest.mark.parametrize("batch", [2, 3, 8, 9])
@pytest.mark.parametrize("threads", [1, 2])
def test_linear_forward_with_and_without_it(batch, threads):
    # batches 2-8 of a Linear of 16384 weights or more take the thin product
    # (9: OpenBLAS either way); both within float rounding of float64
    import nn_legacy as nn
    rng = np.random.default_rng(batch)
    m = nn.Linear(300, 70).float()
    x = rng.standard_normal((batch, 300)).astype(np.float32)
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        y = m.forward(x).copy()
        LIB.THGemm_setEnabled(0)
        y_blas = m.forward(x).copy()
    finally:
        LIB.THGemm_setEnabled(1)
        thnn.set_num_threads(before)
    want = x.astype(np.float64) @ m.weight.T.astype(np.float64) + m.bias
    scale = np.abs(x).astype(np.float64) @ np.abs(m.weight).T.astype(np.float64) + np.abs(m.bias)
    for out in (y, y_blas):
        assert np.all(np.abs(out - want) <= 1e-6 * (scale + 1))
    # the thin product ran where it should: its sums round differently
    assert np.array_equal(y, y_blas) == (batch > 8)
