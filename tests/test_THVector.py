"""thnn_c/THVector.c: the rows of exponentials under SoftMax and LogSoftMax.

Float rows have two bodies, the AVX-512 loops with their own exp and the
portable loops over the C library's exp; ``thnn.allow_avx512`` picks one
(on a CPU without AVX-512 both settings run the portable loops).  Every test
runs both.

The exp itself is read through LogSoftMax's backward, gradInput = gradOutput
- exp(output) * sum(gradOutput): with gradOutput [-1, 0, 0, ...] a row's
gradInput is exactly exp(output) after its first element, in either body."""
import os
import re
import sys

import numpy as np
import pytest

import thnn
from thnn._thnn import lib

PATHS = [True, False]
PATH_IDS = ["avx512", "portable"]


@pytest.fixture(params=PATHS, ids=PATH_IDS)
def path(request):
    before = thnn.allow_avx512(request.param)
    yield request.param
    thnn.allow_avx512(before)


def exp_bound():
    """The ulp bound of the exp in use: 1 for ours (THVector_exp16); 4 for
    the portable loops, glibc's libmvec, which promises no better (its
    AVX-512 expf is 2.6 ulp off near x = 3.81)."""
    return 1.0 if lib.THUseAVX512() else 4.0


def kernel_exp(v):
    """exp of every float32 in the 1D array v, as the float kernels compute it."""
    n = 1000
    rows = -(-v.size // (n - 1))
    out = np.zeros((rows, n), np.float32)
    out[:, 1:].flat[:v.size] = v
    go = np.zeros((rows, n), np.float32)
    go[:, 0] = -1
    gi = thnn.Float.LogSoftMax_updateGradInput(out, go, None, out)
    return gi[:, 1:].ravel()[:v.size]


def ulp_error(y, x):
    """|y - exp(x)| in units in the last place of float32 at exp(x) (for a
    subnormal exp, of the subnormals), exp(x) exact in float64; for the x
    whose exp overflows float32, 0 where y is +inf and inf elsewhere."""
    exact = np.exp(x.astype(np.float64))
    _, e = np.frexp(exact)
    ulp = np.ldexp(1.0, np.maximum(e - 24, -149))
    err = np.abs(y.astype(np.float64) - exact) / ulp
    over = exact >= 2.0 ** 128 - 2.0 ** 103   # rounds to +inf: FLT_MAX + half its ulp and up
    err[over] = np.where(y[over] == np.inf, 0, np.inf)
    return err


def floats_between(lo, hi, step):
    """Every step-th float32 in [lo, hi] (lo < 0 < hi), by bit pattern."""
    neg = np.arange(0x80000000, np.float32(lo).view(np.uint32) + 1, step, dtype=np.uint64)
    pos = np.arange(0, np.float32(hi).view(np.uint32) + 1, step, dtype=np.uint64)
    return np.concatenate([neg, pos]).astype(np.uint32).view(np.float32)


def test_exp_within_its_bound_on_a_dense_sample(path):
    # one float in 1009 of the range where exp is neither 0 nor inf, and
    # every float around the ends of that range and around 0
    x = np.concatenate([floats_between(-104.0, 89.0, 1009),
                        np.linspace(-104, -86, 200001, dtype=np.float32),
                        np.linspace(87, 89, 200001, dtype=np.float32),
                        np.linspace(-1e-3, 1e-3, 200001, dtype=np.float32)])
    err = ulp_error(kernel_exp(x), x)
    worst = int(np.argmax(err))
    assert err[worst] <= exp_bound(), f"exp({x[worst]!r}) is {err[worst]:.3f} ulp off"


def test_exp_special_values(path):
    x = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72283, 88.72284, 89.0, 1e30, -1e30,
                  -87.33655, -103.97208, -103.97209, -104.0, -200.0, 1e-45, -1e-45], np.float32)
    y = kernel_exp(x)
    assert np.isnan(y[:2]).all()
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(y[2:], np.exp(x[2:].astype(np.float64)).astype(np.float32))


def test_exp_ulp_error_measure_is_sharp():
    # the measure itself: exact values pass, a value one float off reads 1
    x = np.array([1.0, -90.0, 100.0], np.float32)
    with np.errstate(over="ignore"):
        exact = np.exp(x.astype(np.float64)).astype(np.float32)
    assert (ulp_error(exact, x) <= 0.5).all()
    off = np.nextafter(exact[:2], np.float32(np.inf))
    assert (ulp_error(off, x[:2]) > 0.5).all()
    assert ulp_error(np.float32([3e38]), x[2:]) == np.inf


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 31, 33, 127, 128, 129, 255, 257, 1000])
@pytest.mark.parametrize("kernel", ["SoftMax", "LogSoftMax"])
def test_row_lengths(path, kernel, n):
    # every tail of a 16-lane vector and of a 128-element block
    rng = np.random.default_rng(n)
    x = rng.normal(0, 4, (3, n))
    g = rng.normal(0, 1, (3, n))
    shifted = x - x.max(axis=1, keepdims=True)
    if kernel == "SoftMax":
        y = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
        gi = y * (g - (g * y).sum(axis=1, keepdims=True))
    else:
        y = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        gi = g - np.exp(y) * g.sum(axis=1, keepdims=True)
    forward = getattr(thnn.Float, f"{kernel}_updateOutput")
    backward = getattr(thnn.Float, f"{kernel}_updateGradInput")
    x32, g32 = x.astype(np.float32), g.astype(np.float32)
    out = forward(x32, None)
    np.testing.assert_allclose(out, y, rtol=4e-7, atol=4e-7 * np.abs(y).max())
    gin = backward(x32, g32, None, out)
    np.testing.assert_allclose(gin, gi, rtol=1e-6, atol=1e-6 * np.abs(gi).max())


def test_long_row_sum_does_not_drift(path):
    # 2^24 features: the sum of a row's exponentials accumulated in float in
    # each of 16 lanes would put every output off by about 1.3e-5 (7 ulp);
    # accumulated in double, each is within half an ulp of exact
    x = np.random.default_rng(0).normal(0, 1, (1, 1 << 24)).astype(np.float32)
    x64 = x.astype(np.float64)
    exact = x64 - (x64.max() + np.log(np.exp(x64 - x64.max()).sum()))
    y = thnn.Float.LogSoftMax_updateOutput(x, None)
    ulp = np.spacing(np.float32(16))   # |y| lies in [16, 32) here
    assert 16 <= np.abs(y).max() < 32
    assert np.abs(y - exact).max() <= ulp


def test_nan_in_a_row_spreads_to_the_whole_row(path):
    x = np.zeros((2, 40), np.float32)
    x[0, 37] = np.nan
    for kernel in ("SoftMax", "LogSoftMax"):
        y = getattr(thnn.Float, f"{kernel}_updateOutput")(x, None)
        assert np.isnan(y[0]).all() and not np.isnan(y[1]).any(), kernel


def test_both_paths_agree_closely():
    x = np.random.default_rng(1).normal(0, 3, (64, 300)).astype(np.float32)
    results = []
    for allow in PATHS:
        before = thnn.allow_avx512(allow)
        try:
            y = thnn.Float.LogSoftMax_updateOutput(x, None)
            results.append((y, thnn.Float.LogSoftMax_updateGradInput(x, np.ones_like(x), None, y)))
        finally:
            thnn.allow_avx512(before)
    (y1, g1), (y2, g2) = results
    np.testing.assert_allclose(y1, y2, rtol=2e-7, atol=2e-7)
    np.testing.assert_allclose(g1, g2, rtol=1e-6, atol=1e-6)


def test_allow_avx512_returns_the_setting_before():
    before = thnn.allow_avx512(False)
    try:
        assert thnn.allow_avx512(False) is False
        assert thnn.allow_avx512(True) is False
        assert thnn.allow_avx512(True) is True
    finally:
        thnn.allow_avx512(before)


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_polynomial_is_the_fit_of_tools_fit_expf():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "thnn_c", "THVector.c")) as f:
        source = f.read()
    body = source[source.index("__m512 p = "):source.index("return _mm512_scalef_ps")]
    in_c = [float.fromhex(c) for c in re.findall(r"set1_ps\((0x[0-9a-f.]+p[+-]?\d+)f\)", body)]
    sys.path.insert(0, os.path.join(root, "tools"))
    try:
        import fit_expf
    finally:
        sys.path.pop(0)
    fitted, _ = fit_expf.fit()
    # highest degree first in C (Horner)
    assert in_c[::-1] == [float(c) for c in fitted.astype(np.float32)]


@pytest.mark.slow
def test_exp_within_one_ulp_for_every_float():
    # ours (the C library's own tests cover the portable loops' exp), on all
    # 2^32 bit patterns: rows of a pivot and 1024 patterns, 4096 rows at a
    # time into buffers allocated once.  Bit patterns of one sign count
    # floats in order: a result more than one float from the correctly
    # rounded one fails at once, and one float away is measured exactly.
    if not lib.THUseAVX512():
        pytest.skip("this CPU has no AVX-512: the float rows use the C library's exp")
    rows, cols = 4096, 1024
    chunk = rows * cols
    out = np.zeros((rows, cols + 1), np.float32)
    go = np.zeros_like(out)
    go[:, 0] = -1
    gi = np.empty_like(out)
    exact = np.empty((rows, cols))
    rounded = np.empty((rows, cols), np.float32)
    bits = out[:, 1:].view(np.uint32)
    pattern = np.arange(chunk, dtype=np.uint32).reshape(rows, cols)
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, 1 << 32, chunk):
            np.add(pattern, np.uint32(start), out=bits)
            gi = thnn.Float.LogSoftMax_updateGradInput(out, go, gi, out)
            np.exp(out[:, 1:], out=exact, dtype=np.float64)
            np.copyto(rounded, exact, casting="unsafe")
            apart = np.abs(gi[:, 1:].view(np.int32) - rounded.view(np.int32))
            nan = np.isnan(rounded)
            apart[nan] = np.where(np.isnan(gi[:, 1:][nan]), 0, 2)
            apart[np.isinf(gi[:, 1:]) != np.isinf(rounded)] = 2
            near = apart == 1
            err = np.zeros(apart.shape)
            err[near] = ulp_error(gi[:, 1:][near], out[:, 1:][near])
            err[apart > 1] = np.inf
            if err.max() > 1:
                worst = np.unravel_index(np.argmax(err), err.shape)
                pytest.fail(f"exp({out[:, 1:][worst]!r}) = {gi[:, 1:][worst]!r}, not within 1 ulp "
                            f"(correctly rounded: {rounded[worst]!r})")
