"""thnn_c/THGemm.c, the library's own float product of the forward
convolution (AVX2 + FMA, chosen at run time): called directly through ctypes
and checked against numpy's float64 product, at sizes that leave partial
tiles (6 rows x 16 columns) and partial blocks (K in blocks of 256, rows in
blocks of 96, columns in blocks of 256) on every side, with row strides
wider than the matrices (nothing outside them may be read or written), beta
0 (C not read: NaN there is ignored), 1 and other, and NaN/infinity in
either factor propagating as in any product.  The convolutions that use it
are checked against their references in tests/test_SpatialConvolution*.py
and tests/test_SpatialDilatedConvolution.py, with the product on and off
(THGemm_setEnabled), and the panels packed straight from the image
(THGemm_setImagePacking, the default) against the column matrix they
replace: the same values, so exactly the same outputs."""
import ctypes

import numpy as np
import pytest

import thnn._thnn

LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THGemm_float.restype = ctypes.c_int
LIB.THGemm_float.argtypes = [ctypes.c_int64] * 3 + [ctypes.c_void_p, ctypes.c_int64] * 2 + [
    ctypes.c_float, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
LIB.THGemm_floatAvailable.restype = ctypes.c_int
LIB.THGemm_floatTransposedA.restype = ctypes.c_int
LIB.THGemm_floatTransposedA.argtypes = [ctypes.c_int64] * 3 + [ctypes.c_void_p, ctypes.c_int64] * 2 + [
    ctypes.c_float, ctypes.c_void_p, ctypes.c_int64]
LIB.THUseAVX512.restype = ctypes.c_int
LIB.THGemm_setEnabled.argtypes = [ctypes.c_int]
LIB.THGemm_setImagePacking.argtypes = [ctypes.c_int]
LIB.THGemm_imagePacking.restype = ctypes.c_int
LIB.THGemm_packedProducts.restype = ctypes.c_int64
LIB.THGemmConv_setMode.argtypes = [ctypes.c_int]
LIB.THConvLoops_setMode.argtypes = [ctypes.c_int]

needs_avx2 = pytest.mark.skipif(not LIB.THGemm_floatAvailable(), reason="the CPU lacks AVX2/FMA: THGemm does not run")


def gemm(a, b, c, beta, bias=None):
    """c[:] = a @ b + beta * c (+ bias[:, None]) through THGemm_float, on the
    views given (their strides passed as the leading dimensions); its return
    code."""
    m, k = a.shape
    n = b.shape[1]
    for x in (a, b, c):
        assert x.dtype == np.float32 and (x.strides[1] == 4 or x.size == 0)
    ptr = ctypes.c_void_p
    ld = [max(x.strides[0] // 4, 1) for x in (a, b, c)]
    bias_ptr = None if bias is None else ptr(bias.ctypes.data)
    bias_stride = 0 if bias is None else bias.strides[0] // 4
    return LIB.THGemm_float(m, n, k, ptr(a.ctypes.data), ld[0], ptr(b.ctypes.data), ld[1], beta, ptr(c.ctypes.data),
                            ld[2], bias_ptr, bias_stride)


def padded(rng, rows, cols, extra=5):
    """A [rows, cols] view into a larger array whose margin holds a sentinel
    (to see that nothing outside the view is written)."""
    base = np.full((rows + 2, cols + extra), 777.0, np.float32)
    view = base[1:rows + 1, 2:cols + 2]
    view[:] = rng.standard_normal((rows, cols)).astype(np.float32)
    return base, view


SHAPES = [(1, 1, 1), (6, 16, 1), (5, 15, 7), (7, 17, 3), (2, 300, 75), (16, 33, 257), (32, 49, 513),
          (97, 18, 256), (64, 2050, 27), (13, 40, 600), (100, 100, 100)]


@needs_avx2
@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("beta", [0.0, 1.0, 0.5])
def test_matches_numpy(m, n, k, beta):
    rng = np.random.default_rng(m * 1000 + n + k)
    _, a = padded(rng, m, k)
    _, b = padded(rng, k, n)
    cbase, c = padded(rng, m, n)
    before, margin = c.astype(np.float64), cbase.copy()
    if beta == 0:
        c[:] = np.nan      # must be ignored, not read
    expected = a.astype(np.float64) @ b.astype(np.float64) + (beta * before if beta else 0)
    assert gemm(a, b, c, beta) == 0
    scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64) + abs(beta) * np.abs(before)
    assert np.all(np.abs(c - expected) <= 1e-6 * scale * max(k, 1) ** 0.5 + 1e-30)
    # the margin around c is untouched
    c[:] = 777.0
    margin[1:m + 1, 2:n + 2] = 777.0
    np.testing.assert_array_equal(cbase, margin)


@needs_avx2
@pytest.mark.skipif(not LIB.THUseAVX512(), reason="the CPU lacks AVX-512F: only the AVX2 tile runs")
@pytest.mark.parametrize("m, n, k", SHAPES + [(64, 3136, 576), (31, 95, 5)])
def test_avx512_tile_gives_the_avx2_bits(m, n, k):
    """On AVX-512 the product runs a tile of 6 rows x 32 columns (two B
    panels in zmm registers; one panel of 16 at the edge) with the same
    FMAs in the same order as the AVX2 tile of 6 x 16: the same bits, for
    every beta, with a bias, NaN and infinity included, and nothing outside
    c written (its masked edge columns, rows not stored)."""
    import thnn
    rng = np.random.default_rng(m + 7 * n + 13 * k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    a[m // 2, k // 3] = np.nan
    b[k - 1, n - 1] = np.inf
    bias = rng.standard_normal(m).astype(np.float32)
    for beta, with_bias in ((0.0, True), (0.0, False), (1.0, False), (0.5, False)):
        results = []
        for allow in (True, False):
            before = thnn.allow_avx512(allow)
            try:
                cbase, c = padded(np.random.default_rng(1), m, n)
                assert gemm(a, b, c, beta, bias if with_bias else None) == 0
            finally:
                thnn.allow_avx512(before)
            results.append(cbase)
        assert np.array_equal(results[0], results[1], equal_nan=True), (beta, with_bias)


@needs_avx2
@pytest.mark.parametrize("m, n, k", SHAPES + [(5, 3, 0)])
@pytest.mark.parametrize("beta", [0.0, 1.0, 0.5])
@pytest.mark.parametrize("avx512", [True, False], ids=["avx512", "avx2"])
def test_transposed_a_matches_numpy(m, n, k, beta, avx512):
    """THGemm_floatTransposedA: c = a^T @ b + beta * c with a stored [k, m]
    in a wider array (the weight of a convolution's gradInput, read by its
    columns), every panel of a packed: against numpy's float64 product,
    nothing outside c written, C not read with beta 0, and NaN in a
    reaching exactly its column of c; the AVX-512 and AVX2 tiles agree bit
    for bit."""
    import thnn
    rng = np.random.default_rng(m * 1000 + n + k + 1)
    _, at = padded(rng, k, m)          # a^T's storage: [k, m], rows wider than m
    _, b = padded(rng, k, n)
    if k > 2 and m > 1:
        at[k // 2, m - 1] = np.nan     # column m-1 of a^T: row m-1 of the product is NaN
    results = []
    for allow in ((True, False) if avx512 else (False,)):
        before = thnn.allow_avx512(allow)
        try:
            cbase, c = padded(np.random.default_rng(2), m, n)
            start = c.astype(np.float64)
            margin = cbase.copy()
            if beta == 0:
                c[:] = np.nan
            ptr = ctypes.c_void_p
            assert LIB.THGemm_floatTransposedA(m, n, k, ptr(at.ctypes.data), at.strides[0] // 4, ptr(b.ctypes.data),
                                               b.strides[0] // 4, beta, ptr(c.ctypes.data), c.strides[0] // 4) == 0
        finally:
            thnn.allow_avx512(before)
        results.append(cbase.copy())
        with np.errstate(invalid="ignore"):
            expected = at.T.astype(np.float64) @ b.astype(np.float64) + (beta * start if beta else 0)
        assert np.array_equal(np.isnan(c), np.isnan(expected))
        ok = ~np.isnan(expected)
        scale = np.abs(np.nan_to_num(at.T)).astype(np.float64) @ np.abs(b) + abs(beta) * np.abs(start)
        assert np.all(np.abs(c[ok] - expected[ok]) <= 1e-6 * scale[ok] * max(k, 1) ** 0.5 + 1e-30)
        c[:] = 777.0
        margin[1:m + 1, 2:n + 2] = 777.0
        np.testing.assert_array_equal(cbase, margin)
    if len(results) == 2 and LIB.THUseAVX512():
        assert np.array_equal(results[0], results[1], equal_nan=True)


@needs_avx2
@pytest.mark.parametrize("m, n, k", [(1, 1, 1), (7, 17, 3), (13, 40, 600), (97, 18, 256), (5, 3, 0)])
def test_bias_starts_the_sums(m, n, k):
    """With a bias (strided: every other value of an array) and beta 0, c =
    a @ b + bias per row, c not read; NaN in the bias gives NaN on its row."""
    rng = np.random.default_rng(n + k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(2 * m).astype(np.float32)[::2]
    bias[m // 2] = np.nan
    c = np.full((m, n), np.nan, np.float32)
    assert gemm(a, b, c, 0.0, bias) == 0
    expected = a.astype(np.float64) @ b.astype(np.float64) + bias[:, None]
    assert np.array_equal(np.isnan(c), np.isnan(expected)) and np.isnan(c[m // 2]).all()
    ok = ~np.isnan(expected)
    np.testing.assert_allclose(c[ok], expected[ok], rtol=1e-5, atol=1e-5 * max(k, 1) ** 0.5)


@needs_avx2
def test_nan_and_infinity_propagate():
    rng = np.random.default_rng(3)
    m, n, k = 13, 37, 300
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    a[4, 280] = np.nan          # row 4 of the product: NaN everywhere (in K's second block)
    b[10, 35] = np.nan          # column 35: NaN everywhere (in an edge tile)
    b[0, 0] = np.inf            # column 0: +-inf where a[:, 0] is finite and non-zero
    a[:, 0] = np.abs(a[:, 0]) + 1
    a[7, 0] = 0                 # 0 * inf = NaN
    c = np.zeros((m, n), np.float32)
    assert gemm(a, b, c, 0.0) == 0
    with np.errstate(invalid="ignore"):
        expected = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(np.isnan(c), np.isnan(expected))
    assert np.isnan(c[4]).all() and np.isnan(c[:, 35]).all() and np.isnan(c[7, 0])
    assert np.isposinf(c[0, 0])
    finite = np.isfinite(expected)
    np.testing.assert_allclose(c[finite], expected[finite], rtol=1e-4, atol=1e-4)


@needs_avx2
def test_nan_in_c_with_beta_one_stays_nan():
    a = np.ones((7, 3), np.float32)
    b = np.ones((3, 18), np.float32)
    c = np.zeros((7, 18), np.float32)
    c[6, 17] = np.nan
    assert gemm(a, b, c, 1.0) == 0
    assert np.isnan(c[6, 17]) and np.count_nonzero(np.isnan(c)) == 1
    assert np.all(c[:6] == 3)


@needs_avx2
def test_empty_k_scales_c():
    a = np.zeros((3, 0), np.float32)
    b = np.zeros((0, 5), np.float32)
    c = np.full((3, 5), 2.0, np.float32)
    assert gemm(a, b, c, 0.5) == 0
    assert np.all(c == 1.0)
    c[:] = np.nan
    assert gemm(a, b, c, 0.0) == 0
    assert np.all(c == 0)


def test_disabled_refuses_and_enabled_runs():
    """THGemm_setEnabled(0) makes every call refuse (-1: the caller uses
    OpenBLAS), which is how the convolution tests compare both paths."""
    a = np.ones((2, 2), np.float32)
    c = np.zeros((2, 2), np.float32)
    LIB.THGemm_setEnabled(0)
    try:
        assert not LIB.THGemm_floatAvailable()
        assert gemm(a, a, c, 0.0) == -1
        assert np.all(c == 0)
    finally:
        LIB.THGemm_setEnabled(1)
    if LIB.THGemm_floatAvailable():
        assert gemm(a, a, c, 0.0) == 0
        assert np.all(c == 2)


def conv_reference(x, w, b, stride, pad, dilation):
    """A float64 convolution by numpy loops over the taps: x [N, C, H, W],
    w [O, C, kH, kW]."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad))
    xp[:, :, pad:pad + h, pad:pad + wd] = x
    oh = (h + 2 * pad - (kh - 1) * dilation - 1) // stride + 1
    ow = (wd + 2 * pad - (kw - 1) * dilation - 1) // stride + 1
    out = np.broadcast_to(b.astype(np.float64)[None, :, None, None], (n, o, oh, ow)).copy()
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dilation:i * dilation + (oh - 1) * stride + 1:stride,
                       j * dilation:j * dilation + (ow - 1) * stride + 1:stride]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out


# (batch, planes in, out, size, kernel, stride, pad, dilation): a batch-1 image
# shared by bands (pixels >= planes), one split by output planes (more planes
# than pixels: THGemm's row split), a 1x1 (no columns), a batch of samples, a
# dilated kernel, output planes not a multiple of 6, pixels not of 16
CONVS = [(1, 16, 13, 30, 3, 1, 1, 1), (1, 64, 96, 7, 3, 1, 1, 1), (1, 40, 20, 17, 1, 1, 0, 1),
         (3, 8, 32, 12, 5, 2, 2, 1), (1, 24, 18, 21, 3, 1, 2, 2), (2, 3, 7, 9, 7, 1, 3, 1)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", CONVS, ids=[str(c) for c in CONVS])
def test_convolution_forward_with_and_without_it(case, threads):
    """The float forward, through THGemm (where the CPU has AVX2) and
    through OpenBLAS, against a float64 reference, with the tolerance of
    the convolution tests (float32: 1e-4 relative to the sum of magnitudes);
    a NaN in the input reaches exactly the outputs that see it."""
    import nn_legacy as nn
    import thnn
    batch, nin, nout, size, k, stride, pad, dilation = case
    rng = np.random.default_rng(sum(case))
    m = (nn.SpatialDilatedConvolution(nin, nout, k, k, stride, stride, pad, pad, dilation, dilation)
         if dilation > 1 else nn.SpatialConvolution(nin, nout, k, k, stride, stride, pad, pad)).float()
    x = rng.standard_normal((batch, nin, size, size)).astype(np.float32)
    x[0, nin - 1, size // 2, size // 3] = np.nan
    expected = conv_reference(x, m.weight.reshape(nout, nin, k, k), m.bias, stride, pad, dilation)
    scale = conv_reference(np.abs(np.nan_to_num(x)), np.abs(m.weight.reshape(nout, nin, k, k)), np.abs(m.bias),
                           stride, pad, dilation)
    before = thnn.get_num_threads()
    results = {}
    try:
        thnn.set_num_threads(threads)
        for on in (1, 0):
            LIB.THGemm_setEnabled(on)
            results[on] = m.forward(x).copy()
    finally:
        LIB.THGemm_setEnabled(1)
        thnn.set_num_threads(before)
    for y in results.values():
        assert y.dtype == np.float32 and y.shape == expected.shape
        assert np.array_equal(np.isnan(y), np.isnan(expected)) and np.isnan(expected).any()
        ok = ~np.isnan(expected)
        assert np.all(np.abs(y[ok] - expected[ok]) <= 1e-4 * (scale[ok] + 1))


# (batch, planes in, out, height, width, kernel, stride, pad, dilation, whether
# the panels come from the image on 1 and on 2 threads): output rows that are
# not a multiple of 16 pixels (THGemm's panels then cross rows), the same-rows
# geometry (padded, step 1) over enough pixels, dilation, steps 2, 3 and 4 on
# columns above 2 MB (the gathers; a batch of 2: one sample per thread),
# a 7x7 kernel on 64 planes unfolded in chunks of planes, and where the
# column path stays: more planes than pixels on 2 threads (the row split),
# small columns, a band too small
PACKED = [(1, 5, 7, 40, 37, 3, 1, 1, 1, True, True), (1, 7, 13, 45, 46, 3, 1, 2, 2, True, True),
          (2, 16, 4, 130, 127, 3, 2, 1, 1, True, True), (2, 8, 4, 200, 190, 5, 3, 2, 1, True, True),
          (2, 12, 4, 260, 250, 5, 4, 2, 1, True, True), (1, 64, 32, 24, 24, 7, 1, 3, 1, True, True),
          (1, 64, 300, 16, 16, 3, 1, 1, 1, True, False), (3, 8, 12, 10, 9, 4, 1, 0, 1, False, False),
          (1, 2, 6, 9, 40, 1, 2, 0, 1, False, False), (1, 5, 7, 13, 11, 3, 1, 1, 1, False, False)]


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", PACKED, ids=[str(c[:9]) for c in PACKED])
def test_panels_from_the_image_match_the_column_matrix(case, threads):
    """The float forward with THGemm's panels packed from the image equals,
    bit for bit, the forward through the unfolded column matrix (the same
    entries, the same products in the same order), NaN included, and both
    agree with the float64 reference; the image path is taken exactly where
    expected (THGemm_packedProducts counts its products)."""
    import nn_legacy as nn
    import thnn
    batch, nin, nout, h, w, k, stride, pad, dilation = case[:9]
    packs = case[9] if threads == 1 else case[10]
    rng = np.random.default_rng(sum(case[:9]))
    m = (nn.SpatialDilatedConvolution(nin, nout, k, k, stride, stride, pad, pad, dilation, dilation)
         if dilation > 1 else nn.SpatialConvolution(nin, nout, k, k, stride, stride, pad, pad)).float()
    x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
    x[-1, 0, 0, 0] = np.nan   # (seen by some output in every case)
    before = thnn.get_num_threads()
    results, products = {}, {}
    LIB.THGemmConv_setMode(0)   # (the indirect product, test_indirect_convolution.py, off: these two paths compared)
    LIB.THConvLoops_setMode(0)   # (and on AVX-512 the direct loops, which take dilated kernels)
    try:
        thnn.set_num_threads(threads)
        for on in (1, 0):
            LIB.THGemm_setImagePacking(on)
            start = LIB.THGemm_packedProducts()
            results[on] = m.forward(x).copy()
            products[on] = LIB.THGemm_packedProducts() - start
    finally:
        LIB.THGemm_setImagePacking(1)
        LIB.THGemmConv_setMode(1)
        LIB.THConvLoops_setMode(1)
        thnn.set_num_threads(before)
    assert LIB.THGemm_imagePacking() == 1
    assert products[0] == 0 and (products[1] > 0) == packs, products
    assert np.array_equal(results[1], results[0], equal_nan=True)
    expected = conv_reference(x, m.weight.reshape(nout, nin, k, k), m.bias, stride, pad, dilation)
    assert np.array_equal(np.isnan(results[1]), np.isnan(expected)) and np.isnan(expected).any()
    ok = ~np.isnan(expected)
    scale = conv_reference(np.abs(np.nan_to_num(x)), np.abs(m.weight.reshape(nout, nin, k, k)), np.abs(m.bias),
                           stride, pad, dilation)
    assert np.all(np.abs(results[1][ok] - expected[ok]) <= 1e-4 * (scale[ok] + 1))


# (kind, planes in, out, kernel, step, pad, size, batch): gradInput of a
# convolution (the product w^T * gradOutput, then folded) and the forward of
# a transposed convolution (the same product), over a batch-1 image split
# by rows of the product between threads, one shared by bands, a batch of
# samples, and 4x4 inputs (16 pixels: OpenBLAS keeps them)
TRANSPOSED = [("grad", 16, 24, 5, 1, 2, 28, 1), ("grad", 64, 32, 3, 1, 1, 7, 1), ("grad", 8, 12, 3, 2, 1, 40, 3),
              ("full", 64, 48, 4, 2, 1, 16, 1), ("full", 32, 16, 3, 2, 1, 9, 2), ("full", 24, 8, 4, 2, 1, 4, 1)]


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", TRANSPOSED, ids=[str(c) for c in TRANSPOSED])
def test_transposed_products_with_and_without_it(case, threads):
    """THGemm_floatTransposedA in the convolutions (generic/unfold.h's
    convTransposedProduct): float32 with it and with OpenBLAS, against the
    same module in float64, at the tolerance of the convolution tests."""
    import nn_legacy as nn
    import thnn
    kind, nin, nout, k, step, pad, size, batch = case
    rng = np.random.default_rng(sum(case[1:]))
    m = (nn.SpatialConvolution(nin, nout, k, k, step, step, pad, pad) if kind == "grad"
         else nn.SpatialFullConvolution(nin, nout, k, k, step, step, pad, pad))
    x = rng.standard_normal((batch, nin, size, size))
    y = m.double().forward(x).copy()
    g = rng.standard_normal(y.shape)
    want = (m.updateGradInput(x, g) if kind == "grad" else y).copy()
    w32 = m.float()
    before = thnn.get_num_threads()
    results = {}
    try:
        thnn.set_num_threads(threads)
        for on in (1, 0):
            LIB.THGemm_setEnabled(on)
            x32 = x.astype(np.float32)
            out = w32.forward(x32)
            results[on] = (w32.updateGradInput(x32, g.astype(np.float32)) if kind == "grad" else out).copy()
    finally:
        LIB.THGemm_setEnabled(1)
        thnn.set_num_threads(before)
    for got in results.values():
        assert got.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
