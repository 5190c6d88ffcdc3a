"""thnn_c/THConvDirect.c, the float forward convolution as an indirect
product (no columns: the image read in place or from a zero-padded copy,
only the weight packed; AVX2 + FMA, chosen at run time), driven by
generic/unfold.h (convIndirectMultiply).  THGemmConv_setMode(2) forces it
wherever the CPU runs it, 0 turns it off (the column paths), 1 (the
default) takes it where convIndirectRule measured it faster.  Every
geometry class (steps 1-4, padding 0-3, dilation, odd widths whose tiles
of 6 pixels cross output rows, 1x1 kernels, a kernel as large as the
padded image, output planes not a multiple of 16 or of 8), batches of 1
and 3, 1 and 2 threads: both paths against a float64 numpy reference at
the float tolerance of the convolution tests, NaN and infinities reaching
exactly the outputs the reference gives them; THGemmConv_calls() shows
which path ran.  Winograd's path for 3x3 kernels (THConvWinograd.c, tested
in test_winograd_convolution.py) and, on AVX-512, the direct loops
(test_SpatialDilatedConvolution.py) are off here, so that these rules alone
choose.  On AVX-512 the indirect product runs a wider tile (two panels of
16 planes in zmm registers) whose outputs must equal the AVX2 tile's bit
for bit."""
import ctypes

import numpy as np
import pytest

import thnn._thnn
from test_THGemm import conv_reference

LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THGemmConv_setMode.argtypes = [ctypes.c_int]
LIB.THConvLoops_setMode.argtypes = [ctypes.c_int]
LIB.THGemmWino_setMode.argtypes = [ctypes.c_int]
LIB.THGemmConv_mode.restype = ctypes.c_int
LIB.THGemmConv_calls.restype = ctypes.c_int64
LIB.THGemm_floatAvailable.restype = ctypes.c_int

needs_avx2 = pytest.mark.skipif(not LIB.THGemm_floatAvailable(), reason="the CPU lacks AVX2/FMA")
needs_avx512 = pytest.mark.skipif(not LIB.THGemm_floatAvailable() or not ctypes.CDLL(thnn._thnn.__file__).THUseAVX512(),
                                  reason="the CPU lacks AVX-512F: only the AVX2 tiles run")


def module(nin, nout, k, stride, pad, dilation, kw=None, bias=True):
    import nn_legacy as nn
    kw = kw or k
    m = (nn.SpatialDilatedConvolution(nin, nout, kw, k, stride, stride, pad, pad, dilation, dilation)
         if dilation > 1 else nn.SpatialConvolution(nin, nout, kw, k, stride, stride, pad, pad))
    if not bias:
        m.noBias()
    return m.float()


def forward(m, x, mode, threads, avx512=True):
    """m.forward(x) with THGemmConv_setMode(mode) (and Winograd's path off,
    and on AVX-512 the direct loops, which come first for dilated and
    non-square kernels: unfold.h's convDirectForward) on `threads` threads,
    the AVX-512 tiles allowed or not: the output (a copy) and how many calls
    took the indirect path."""
    import thnn
    before, allowed = thnn.get_num_threads(), thnn.allow_avx512(avx512)
    LIB.THConvLoops_setMode(0)
    try:
        thnn.set_num_threads(threads)
        LIB.THGemmConv_setMode(mode)
        LIB.THGemmWino_setMode(0)
        start = LIB.THGemmConv_calls()
        y = m.forward(x).copy()
        return y, LIB.THGemmConv_calls() - start
    finally:
        LIB.THGemmConv_setMode(1)
        LIB.THGemmWino_setMode(1)
        LIB.THConvLoops_setMode(1)
        thnn.allow_avx512(allowed)
        thnn.set_num_threads(before)


def reference(m, x, k, kw, stride, pad, dilation):
    nout, nin = m.nOutputPlane, m.nInputPlane
    w = m.weight.reshape(nout, nin, k, kw)
    b = m.bias if m.bias is not None else np.zeros(nout, np.float32)
    if k == kw:
        want = conv_reference(x, w, b, stride, pad, dilation)
        scale = conv_reference(np.abs(np.nan_to_num(x, posinf=0, neginf=0)), np.abs(w), np.abs(b), stride, pad,
                               dilation)
        return want, scale
    raise AssertionError("square kernels only")


# (batch, planes in, out, height, width, kernel, stride, pad, dilation)
GEOMETRIES = [
    (1, 64, 64, 21, 21, 5, 1, 0, 1),    # the face classifier's layer: 17x17 out, tiles across rows
    (1, 3, 5, 17, 13, 3, 1, 1, 1),      # odd width, 5 planes (one panel of 8 lanes)
    (3, 5, 19, 13, 11, 3, 2, 1, 1),     # stride 2, 19 planes (a panel of 16 and one of 3), a batch
    (1, 4, 17, 23, 20, 4, 3, 3, 1),     # stride 3, padding 3, an even kernel
    (2, 6, 9, 30, 29, 5, 4, 2, 1),      # stride 4
    (1, 7, 20, 9, 10, 3, 1, 2, 2),      # dilation 2, padding 2
    (1, 5, 33, 12, 12, 3, 2, 0, 3),     # dilation 3, stride 2, unpadded
    (1, 3, 7, 6, 7, 1, 2, 0, 1),        # 1x1 with a step (not the direct 1x1 path)
    (1, 6, 10, 4, 4, 7, 1, 3, 1),       # the kernel wider than the image itself
    (1, 2, 4, 3, 5, 5, 1, 1, 1),        # the kernel exactly the padded image's height: one output row
    (3, 8, 2, 20, 20, 7, 1, 3, 1),      # SpatialNet's last layer shape class: 2 planes
    (1, 16, 40, 7, 7, 3, 1, 1, 1),      # 49 pixels: 8 tiles and one of a single pixel
]


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", GEOMETRIES, ids=[str(c) for c in GEOMETRIES])
def test_indirect_against_the_column_path_and_the_reference(case, threads):
    batch, nin, nout, h, w, k, stride, pad, dilation = case
    rng = np.random.default_rng(sum(case) + threads)
    m = module(nin, nout, k, stride, pad, dilation)
    x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
    # (at pixels the kernel sees: multiples of the step)
    x[-1, nin - 1, h // 2 // stride * stride, w // 3 // stride * stride] = np.nan
    x[0, 0, (h - 1) // stride * stride, (w - 1) // stride * stride] = np.inf
    want, scale = reference(m, x, k, k, stride, pad, dilation)
    indirect, calls = forward(m, x, 2, threads)
    columns, none = forward(m, x, 0, threads)
    assert calls == 1 and none == 0
    for y in (indirect, columns):
        assert y.dtype == np.float32 and y.shape == want.shape
        assert np.array_equal(np.isnan(y), np.isnan(want))
        assert np.array_equal(np.isinf(y), np.isinf(want)) and np.array_equal(y[np.isinf(y)], want[np.isinf(want)])
        ok = np.isfinite(want)
        assert np.all(np.abs(y[ok] - want[ok]) <= 1e-4 * (scale[ok] + 1))
    assert (~np.isfinite(want)).any()   # (the NaN or the infinity reached some output in every case)


@needs_avx512
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", GEOMETRIES, ids=[str(c) for c in GEOMETRIES])
def test_avx512_tiles_give_the_avx2_bits(case, threads):
    """The AVX-512 tile (6 pixels x 32 planes, two panels at a time, or one
    panel of 16) runs the same FMAs in the same order as the AVX2 tile (6 x
    16, or 6 x 8): the outputs are equal bit for bit, NaN and infinities
    included, for every geometry class and thread split, with a bias and
    without, K in one block and in several (the sums carried between
    blocks in the buffer)."""
    batch, nin, nout, h, w, k, stride, pad, dilation = case
    rng = np.random.default_rng(sum(case) + 10 * threads)
    x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
    x[-1, nin - 1, h // 2 // stride * stride, w // 3 // stride * stride] = np.nan
    x[0, 0, (h - 1) // stride * stride, (w - 1) // stride * stride] = np.inf
    for bias in (True, False):
        m = module(nin, nout, k, stride, pad, dilation, bias=bias)
        wide, calls = forward(m, x, 2, threads, avx512=True)
        narrow, narrow_calls = forward(m, x, 2, threads, avx512=False)
        assert calls == narrow_calls == 1
        assert np.array_equal(wide, narrow, equal_nan=True)
    # K = 64 * 25 = 1600 in 7 blocks of at most 256, 40 planes: a pair of panels and a single one
    m = module(64, 40, 5, 1, 2, 1)
    x = rng.standard_normal((1, 64, 11, 13)).astype(np.float32)
    wide, calls = forward(m, x, 2, threads, avx512=True)
    narrow, _ = forward(m, x, 2, threads, avx512=False)
    assert calls == 1 and np.array_equal(wide, narrow)


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_without_bias_batches_and_samples_alone(threads):
    # no bias (the sums start from 0), and a batch of 3 equal, sample by
    # sample, to the samples convolved alone (the same sums whichever
    # thread or tile split computes them)
    rng = np.random.default_rng(5)
    m = module(9, 21, 3, 1, 1, 1, bias=False)
    x = rng.standard_normal((3, 9, 15, 14)).astype(np.float32)
    y, calls = forward(m, x, 2, threads)
    assert calls == 1
    want, scale = reference(m, x, 3, 3, 1, 1, 1)
    assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))
    for n in range(3):
        alone, _ = forward(m, x[n:n + 1], 2, threads)
        assert np.array_equal(alone[0], y[n])


@needs_avx2
def test_non_contiguous_input_through_the_module():
    rng = np.random.default_rng(6)
    m = module(8, 16, 5, 1, 2, 1)
    base = rng.standard_normal((2, 19, 8, 40)).astype(np.float32)
    x = base.transpose(0, 2, 1, 3)[:, :, :, ::2]   # [2, 8, 19, 20], strided in every axis but the batch
    assert not x.flags.c_contiguous
    y, calls = forward(m, x, 2, 1)
    assert calls == 1
    want, scale = reference(m, np.ascontiguousarray(x), 5, 5, 1, 2, 1)
    assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_the_rule_of_the_default_mode(threads):
    # mode 1 takes the indirect path where convIndirectRule measured it
    # faster (K >= 64, at least 128 output pixels, and 512 with a
    # weight above 256 Ki floats) and keeps the
    # column paths elsewhere; each result matches its reference
    rng = np.random.default_rng(7)
    cases = [((64, 64, 21, 5, 1, 0), 1), ((16, 32, 40, 7, 1, 3), 1), ((3, 64, 40, 3, 1, 1), 0),
             ((3, 64, 48, 5, 1, 0), 1), ((128, 128, 9, 3, 1, 1), 0), ((128, 16, 18, 3, 1, 1), 1),
             ((256, 256, 14, 3, 1, 1), 0), ((256, 128, 24, 3, 1, 1), 1)]
    assert LIB.THGemmConv_mode() == 1
    for (nin, nout, size, k, stride, pad), takes in cases:
        m = module(nin, nout, k, stride, pad, 1)
        x = rng.standard_normal((1, nin, size, size)).astype(np.float32)
        y, calls = forward(m, x, 1, threads)
        assert calls == takes, (nin, nout, size, k)
        want, scale = reference(m, x, k, k, stride, pad, 1)
        assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))


def test_double_and_a_disabled_product_keep_the_column_path():
    import thnn
    rng = np.random.default_rng(8)
    m = module(64, 64, 5, 1, 0, 1).double()
    x = rng.standard_normal((1, 64, 21, 21))
    _, calls = forward(m, x, 2, 1)
    assert calls == 0
    m.float()
    LIB.THGemm_setEnabled.argtypes = [ctypes.c_int]
    LIB.THGemm_setEnabled(0)
    try:
        y, calls = forward(m, x.astype(np.float32), 2, 1)
    finally:
        LIB.THGemm_setEnabled(1)
    assert calls == 0
    want, scale = reference(m, x.astype(np.float32), 5, 5, 1, 0, 1)
    assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))
    assert thnn.get_num_threads() >= 1


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_small_weights_and_vertical_kernels_in_the_default_mode(threads):
    # convIndirectRule's two later clauses: a weight of at most 64 Ki floats
    # takes the indirect path on images of fewer than 128 output pixels too
    # (LeNet's 5x5 6->16 on 12x12), one just above it does not; a single
    # image under a vertical kernel (kW 1) of 64 planes or more keeps the
    # column path, a batch of 8 or fewer planes takes the indirect one.
    # (planes in, out, height, width, kH, kW, padH, padW, batch), takes
    rng = np.random.default_rng(9)
    cases = [((6, 16, 12, 12, 5, 5, 0, 0, 1), 1), ((6, 16, 12, 12, 5, 5, 0, 0, 8), 1),
             ((32, 64, 10, 9, 5, 5, 0, 0, 1), 1), ((64, 64, 6, 6, 3, 3, 1, 1, 8), 1),
             ((128, 64, 8, 8, 3, 3, 1, 1, 1), 0), ((2, 16, 12, 12, 5, 5, 0, 0, 1), 0),
             ((64, 64, 16, 13, 5, 1, 2, 0, 1), 0), ((64, 64, 16, 13, 5, 1, 2, 0, 8), 1),
             ((32, 32, 16, 13, 5, 1, 2, 0, 1), 1), ((64, 64, 16, 13, 1, 5, 0, 2, 1), 1)]
    assert LIB.THGemmConv_mode() == 1
    for (nin, nout, h, w, kh, kw, ph, pw, batch), takes in cases:
        import nn_legacy as nn
        m = nn.SpatialConvolution(nin, nout, kw, kh, 1, 1, pw, ph).float()
        x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
        y, calls = forward(m, x, 1, threads)
        assert calls == takes, (nin, nout, h, w, kh, kw, batch)
        padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
        weight = m.weight.reshape(nout, nin, kh, kw)
        want = conv_reference(padded, weight, m.bias, 1, 0, 1)
        scale = conv_reference(np.abs(padded), np.abs(weight), np.abs(m.bias), 1, 0, 1)
        assert y.shape == want.shape and np.all(np.abs(y - want) <= 1e-4 * (scale + 1))
        forced, _ = forward(m, x, 2 - 2 * takes, threads)   # (the other path: the same values within the tolerance)
        assert np.all(np.abs(forced - want) <= 1e-4 * (scale + 1))


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_strided_1x1_kernels_keep_the_column_path(threads):
    # a 1x1 kernel with a step (ResNet's 1x1/2 shortcuts) keeps the column
    # path under both rules (convIndirectPointwise): the plain module and
    # nn.freeze's copy with its weight packed; a 3x3/2 kernel of the same
    # planes still takes the indirect one.  Each result, at batch 1 and 8
    # and on a non-contiguous input, matches the reference and the forced
    # indirect path within the float tolerance.
    import nn_legacy as nn
    rng = np.random.default_rng(10)
    # (planes in, out, size, kernel, stride, pad), takes
    cases = [((64, 32, 20, 1, 2, 0), 0), ((128, 16, 17, 1, 2, 0), 0), ((64, 24, 23, 1, 3, 0), 0),
             ((96, 20, 32, 1, 4, 0), 0), ((16, 32, 20, 3, 2, 1), 1)]
    assert LIB.THGemmConv_mode() == 1
    for (nin, nout, size, k, stride, pad), takes in cases:
        m = module(nin, nout, k, stride, pad, 1)
        frozen = nn.freeze(m)
        for batch in (1, 8):
            wide = rng.standard_normal((batch, nin, size, size + 3)).astype(np.float32)
            x = wide[:, :, :, 1:size + 1]   # (non-contiguous rows)
            want, scale = reference(m, np.ascontiguousarray(x), k, k, stride, pad, 1)
            for mod in (m, frozen):
                y, calls = forward(mod, x, 1, threads)
                assert calls == takes, (nin, nout, size, k, stride, batch, mod is frozen)
                assert y.shape == want.shape and np.all(np.abs(y - want) <= 1e-4 * (scale + 1))
                forced, calls = forward(mod, x, 2, threads)
                assert calls == 1 and np.all(np.abs(forced - want) <= 1e-4 * (scale + 1))
