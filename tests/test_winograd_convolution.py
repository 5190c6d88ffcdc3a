"""thnn_c/THConvWinograd.c, the float 3x3 and 5x5 convolutions of step 1 by
Winograd's F(2x2, 3x3) and F(2x2, 5x5) (AVX2 + FMA, chosen at run time), driven by
generic/unfold.h (convWinogradMultiply): the forward, and gradInput as the
convolution of gradOutput by the flipped weight.  THGemmWino_setMode(2) forces it
wherever it can run, 0 turns it off (the other paths), 1 (the default)
takes it where convWinogradRule measured it faster.  Every geometry class
(padding 0-2, odd and even output sizes whose last tiles hang over the
edge, tile rows shorter and longer than a block, batches whose blocks
cross samples, output planes not a multiple of 16, threads sharing each
block or owning whole blocks) against a float64 numpy reference at the
float tolerance of the convolution tests; the values a transform could
overflow (infinities, NaN, magnitudes near the float range) fall back to
the other paths, whose outputs they then are exactly; THGemmWino_calls()
shows which path ran."""
import ctypes

import numpy as np
import pytest

import thnn._thnn
from test_THGemm import conv_reference

LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THGemmWino_setMode.argtypes = [ctypes.c_int]
LIB.THGemmWino_mode.restype = ctypes.c_int
LIB.THGemmWino_calls.restype = ctypes.c_int64
LIB.THGemm_floatAvailable.restype = ctypes.c_int
LIB.THUseAVX512.restype = ctypes.c_int
LIB.THGemmWino_stride.restype = ctypes.c_int64
LIB.THGemmWino_stride.argtypes = [ctypes.c_int64]
LIB.THGemmWino_weightSize.restype = ctypes.c_int64
LIB.THGemmWino_weightSize.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
LIB.THGemmWino_weight.restype = ctypes.c_float
LIB.THGemmWino_weight.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                  ctypes.c_void_p]

needs_avx2 = pytest.mark.skipif(not LIB.THGemm_floatAvailable(), reason="the CPU lacks AVX2/FMA")


def module(nin, nout, pad, bias=True, k=3):
    import nn_legacy as nn
    m = nn.SpatialConvolution(nin, nout, k, k, 1, 1, pad, pad)
    if not bias:
        m.noBias()
    return m.float()


def forward(m, x, mode, threads, g=None):
    """m.forward(x) (with g: m.updateGradInput(x, g)) with
    THGemmWino_setMode(mode) on `threads` threads: the result (a copy) and
    how many calls took Winograd's path."""
    import thnn
    before = thnn.get_num_threads()
    try:
        thnn.set_num_threads(threads)
        LIB.THGemmWino_setMode(mode)
        start = LIB.THGemmWino_calls()
        y = (m.forward(x) if g is None else m.updateGradInput(x, g)).copy()
        return y, LIB.THGemmWino_calls() - start
    finally:
        LIB.THGemmWino_setMode(1)
        thnn.set_num_threads(before)


def reference(m, x, pad):
    nout, nin, k = m.nOutputPlane, m.nInputPlane, m.kW
    w = m.weight.reshape(nout, nin, k, k)
    b = m.bias if m.bias is not None else np.zeros(nout, np.float32)
    want = conv_reference(x, w, b, 1, pad, 1)
    scale = conv_reference(np.abs(np.nan_to_num(x, posinf=0, neginf=0)), np.abs(w), np.abs(b), 1, pad, 1)
    return want, scale


def assert_close(y, want, scale):
    assert y.dtype == np.float32 and y.shape == want.shape
    assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))


# (batch, planes in, out, height, width, pad)
GEOMETRIES = [
    (1, 8, 8, 7, 7, 1),         # odd output: the last tile row and column hang over
    (2, 9, 17, 13, 11, 1),      # 17 planes (a panel of 16 and one), a batch: blocks cross samples
    (3, 8, 8, 10, 9, 0),        # unpadded: 8x7 out
    (1, 3, 5, 5, 4, 2),         # padding 2, 3 input planes
    (1, 16, 40, 6, 6, 1),       # even output
    (1, 32, 32, 70, 66, 1),     # tile rows of 33 tiles: blocks of 8 rows, several blocks per thread
    (4, 12, 20, 9, 30, 1),      # 15 tiles a row, 20 tile rows: blocks of 18 rows
    (1, 5, 7, 3, 3, 0),         # a single output pixel
    (1, 8, 12, 32, 30, 1),      # one block of 16 tile rows: on 2 threads a block of 8 rows each
    (1, 8, 8, 29, 40, 1),       # 15 tile rows: on 2 threads blocks of 8 and 7
]


# F(2x2, 5x5): (batch, planes in, out, height, width, pad)
GEOMETRIES5 = [
    (1, 8, 8, 7, 7, 2),         # odd output: the last tile row and column hang over
    (2, 9, 17, 13, 11, 1),      # 17 planes, a batch: blocks (48 tiles) cross samples
    (3, 8, 8, 10, 9, 0),        # unpadded: 6x5 out
    (1, 3, 5, 5, 4, 2),         # padding 2, 3 input planes, a 5x4 image
    (8, 6, 10, 9, 12, 2),       # batch 8, even output width
    (1, 16, 24, 31, 29, 2),     # 16x15 tiles: several blocks, owned on 2 threads
    (1, 5, 7, 5, 5, 0),         # a single output pixel
]
CASES = [(c, 3) for c in GEOMETRIES] + [(c, 5) for c in GEOMETRIES5]
GRAD_CASES = [(c, 3) for c in GEOMETRIES[:7]] + [(c, 5) for c in GEOMETRIES5[:3]]

@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case,k", CASES, ids=[f"{c}-{k}x{k}" for c, k in CASES])
def test_winograd_against_the_other_paths_and_the_reference(case, k, threads):
    batch, nin, nout, h, w, pad = case
    rng = np.random.default_rng(sum(case) + threads + (100 if k == 5 else 0))
    m = module(nin, nout, pad, k=k)
    x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
    want, scale = reference(m, x, pad)
    wino, calls = forward(m, x, 2, threads)
    other, none = forward(m, x, 0, threads)
    assert calls == 1 and none == 0
    assert_close(wino, want, scale)
    assert_close(other, want, scale)


def grad_input_reference(m, g, pad):
    """gradInput as the convolution of gradOutput, padded by k - 1 - pad, with
    the weight's taps reversed and its planes swapped (float64)."""
    nout, nin, k = m.nOutputPlane, m.nInputPlane, m.kW
    flipped = m.weight.reshape(nout, nin, k, k)[:, :, ::-1, ::-1].transpose(1, 0, 2, 3)
    want = conv_reference(g, flipped, np.zeros(nin), 1, k - 1 - pad, 1)
    scale = conv_reference(np.abs(np.nan_to_num(g, posinf=0, neginf=0)), np.abs(flipped), np.zeros(nin),
                           1, k - 1 - pad, 1)
    return want, scale


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case,k", GRAD_CASES, ids=[f"{c}-{k}x{k}" for c, k in GRAD_CASES])
def test_grad_input_by_winograd_against_the_other_paths_and_the_reference(case, k, threads):
    batch, nin, nout, h, w, pad = case
    rng = np.random.default_rng(sum(case) + 10 * threads + (100 if k == 5 else 0))
    m = module(nin, nout, pad, k=k)
    x = rng.standard_normal((batch, nin, h, w)).astype(np.float32)
    g = rng.standard_normal(m.forward(x).shape).astype(np.float32)
    want, scale = grad_input_reference(m, g, pad)
    wino, calls = forward(m, x, 2, threads, g)
    other, none = forward(m, x, 0, threads, g)
    assert calls == 1 and none == 0
    assert_close(wino, want, scale)
    assert_close(other, want, scale)


@needs_avx2
def test_grad_input_falls_back_on_an_infinity_in_grad_output():
    rng = np.random.default_rng(12)
    m = module(7, 9, 1)
    x = rng.standard_normal((1, 7, 10, 11)).astype(np.float32)
    g = rng.standard_normal((1, 9, 10, 11)).astype(np.float32)
    g[0, 3, 4, 4] = np.inf
    y, calls = forward(m, x, 2, 1, g)
    assert calls == 1
    other, _ = forward(m, x, 0, 1, g)
    assert np.array_equal(y, other, equal_nan=True) and np.isinf(y).any() and np.isfinite(y).any()


@needs_avx2
@pytest.mark.parametrize("k", [3, 5])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("batch", [1, 5])
def test_without_bias_batches_and_samples_alone(threads, batch, k):
    # no bias; a batch (one block shared by the threads, or blocks each
    # thread owns) equal, sample by sample, to the samples convolved alone:
    # a tile's outputs do not depend on its block
    rng = np.random.default_rng(5 + batch)
    pad = k // 2
    m = module(9, 21, pad, bias=False, k=k)
    x = rng.standard_normal((batch, 9, 40, 38)).astype(np.float32)
    y, calls = forward(m, x, 2, threads)
    assert calls == 1
    want, scale = reference(m, x, pad)
    assert_close(y, want, scale)
    for n in range(batch):
        alone, _ = forward(m, x[n:n + 1], 2, threads)
        assert np.array_equal(alone[0], y[n])


@needs_avx2
@pytest.mark.parametrize("k", [3, 5])
@pytest.mark.parametrize("bad", ["nan input", "inf input", "-inf weight", "huge input", "huge weight"])
def test_values_a_transform_could_overflow_fall_back(bad, k):
    # an infinity or NaN would reach all four outputs of its tiles (and 0 *
    # inf is NaN in the transforms); magnitudes near the float range could
    # overflow a transform where the direct sums do not: those calls run
    # the other paths, whose outputs they are exactly.  F(2x2, 5x5)'s
    # transforms grow more (|V| <= 100 |x|): 3e33 and 1e33, which pass
    # F(2x2, 3x3)'s check, do not pass its
    rng = np.random.default_rng(11 + k)
    pad = k // 2
    m = module(6, 10, pad, k=k)
    x = rng.standard_normal((2, 6, 12, 13)).astype(np.float32)
    if bad == "nan input":
        x[1, 2, 5, 7] = np.nan
    elif bad == "inf input":
        x[0, 4, 0, 12] = np.inf
    elif bad == "-inf weight":
        m.weight.reshape(-1)[17] = -np.inf
    elif bad == "huge input":
        x[1, 0, 3, 3] = 3e37 if k == 3 else 3e33
        m.weight[...] = m.weight if k == 3 else np.float32(0.5)
    else:
        m.weight.reshape(-1)[5] = 1e36 if k == 3 else 1e33
    y, calls = forward(m, x, 2, 1)
    assert calls == 1   # (it was tried)
    other, _ = forward(m, x, 0, 1)
    assert np.array_equal(y, other, equal_nan=True)
    if bad in ("nan input", "inf input"):
        want, _ = reference(m, x, pad)
        assert np.array_equal(np.isnan(y), np.isnan(want)) and np.array_equal(np.isinf(y), np.isinf(want))
        assert (~np.isfinite(y)).any() and np.isfinite(y).any()


@needs_avx2
@pytest.mark.parametrize("k", [3, 5])
def test_non_contiguous_input_through_the_module(k):
    rng = np.random.default_rng(6)
    pad = k // 2
    m = module(8, 16, pad, k=k)
    base = rng.standard_normal((2, 19, 8, 40)).astype(np.float32)
    x = base.transpose(0, 2, 1, 3)[:, :, :, ::2]   # [2, 8, 19, 20], strided in every axis but the batch
    assert not x.flags.c_contiguous
    y, calls = forward(m, x, 2, 1)
    assert calls == 1
    want, scale = reference(m, np.ascontiguousarray(x), pad)
    assert_close(y, want, scale)


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("avx512", [True, False], ids=["avx512", "avx2"])
def test_the_rule_of_the_default_mode(threads, avx512):
    # mode 1 takes Winograd's path where convWinogradRule measured it faster:
    # at least 16 tiles of 2x2 outputs in the batch, at least 32 planes on
    # either side, and planes x tiles per row at least 1024; on AVX-512
    # (where its products run twice as fast and its transforms do not)
    # rows of more than 5 tiles only (images wider than 10 pixels)
    import thnn
    rng = np.random.default_rng(7)
    # (batch, planes in, out, size), taken with AVX2's tiles, with AVX-512's
    cases = [((1, 64, 64, 56), 1, 1), ((1, 512, 512, 7), 1, 0), ((1, 512, 512, 6), 0, 0), ((8, 512, 512, 7), 1, 0),
             ((1, 256, 256, 14), 1, 1), ((1, 96, 96, 14), 0, 0), ((1, 16, 16, 64), 0, 0), ((1, 32, 32, 64), 1, 1),
             ((1, 64, 64, 16), 0, 0), ((1, 128, 128, 16), 1, 1), ((1, 3, 64, 64), 0, 0), ((2, 256, 256, 10), 1, 0),
             ((1, 256, 256, 12), 1, 1)]
    assert LIB.THGemmWino_mode() == 1
    allowed = thnn.allow_avx512(avx512)
    try:
        wide = bool(LIB.THUseAVX512())
        for (batch, nin, nout, size), takes, takes512 in cases:
            m = module(nin, nout, 1)
            x = rng.standard_normal((batch, nin, size, size)).astype(np.float32)
            y, calls = forward(m, x, 1, threads)
            assert calls == (takes512 if wide else takes), (batch, nin, nout, size, wide)
            want, scale = reference(m, x, 1)
            assert_close(y, want, scale)
    finally:
        thnn.allow_avx512(allowed)


def test_other_kernels_steps_dilations_and_double_keep_the_other_paths():
    import nn_legacy as nn
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1, 8, 12, 12)).astype(np.float32)
    for m in (nn.SpatialConvolution(8, 8, 3, 3, 2, 2, 1, 1), nn.SpatialConvolution(8, 8, 5, 5, 2, 2, 2, 2),
              nn.SpatialConvolution(8, 8, 7, 7, 1, 1, 3, 3), nn.SpatialConvolution(8, 8, 5, 3, 1, 1, 2, 1),
              nn.SpatialConvolution(8, 8, 3, 1, 1, 1, 1, 0), nn.SpatialDilatedConvolution(8, 8, 3, 3, 1, 1, 2, 2, 2, 2),
              nn.SpatialDilatedConvolution(8, 8, 5, 5, 1, 1, 4, 4, 2, 2)):
        _, calls = forward(m.float(), x, 2, 1)
        assert calls == 0
    for k in (3, 5):
        _, calls = forward(module(8, 8, 1, k=k).double(), x.astype(np.float64), 2, 1)
        assert calls == 0


@needs_avx2
def test_training_gradients_do_not_depend_on_the_forward_path():
    # backward (on the default mode's path) and the weight gradient are the
    # same after either forward
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 8, 11, 10)).astype(np.float32)
    g = rng.standard_normal((2, 12, 11, 10)).astype(np.float32)
    results = []
    for mode in (2, 0):
        m = module(8, 12, 1)
        m.weight[...] = np.linspace(-1, 1, m.weight.size, dtype=np.float32).reshape(m.weight.shape)
        m.zeroGradParameters()
        _, calls = forward(m, x, mode, 1)
        assert calls == (mode == 2)
        results.append((m.backward(x, g).copy(), m.gradWeight.copy(), m.gradBias.copy()))
    for a, b in zip(*results):
        assert np.array_equal(a, b)


def weight_transform(w, o0, o1):
    """THGemmWino_weight of rows [o0, o1) of k x k kernels: U as [(k + 1)^2,
    nOut, nIn] (the rows outside left NaN) and the magnitude it returns."""
    nout, nin, k = w.shape[:3]
    stride, a2 = LIB.THGemmWino_stride(nout * nin), (k + 1) ** 2
    U = np.full(LIB.THGemmWino_weightSize(k, nout, nin), np.nan, np.float32)
    assert U.size == a2 * stride
    big = LIB.THGemmWino_weight(k, w.ctypes.data, nout, nin, o0, o1, U.ctypes.data)
    return U.reshape(a2, stride)[:, :nout * nin].reshape(a2, nout, nin), big


def test_matrix_strides_are_an_odd_number_of_cache_lines():
    # the 16 matrices of a transform are read or written together: 64-byte
    # lines apart by an odd count, so that they do not share an L1 set
    for size in [1, 15, 16, 17, 1024, 4096, 65536, 262144, 50176, 784 * 64]:
        stride = LIB.THGemmWino_stride(size)
        assert stride >= size and stride % 16 == 0 and (stride // 16) % 2 == 1 and stride - size < 48


@needs_avx2
@pytest.mark.parametrize("nin", [1, 7, 8, 13, 32])
def test_weight_transform_against_a_transcription(nin):
    # G g G^T of every kernel: the vector lanes (8 kernels at a time) and
    # the scalar tail make the same sums in the same order as this float32
    # transcription, so they agree exactly; the largest |w| of the rows
    # transformed comes back with them
    rng = np.random.default_rng(nin)
    nout = 5
    w = rng.standard_normal((nout, nin, 3, 3)).astype(np.float32)
    U, big = weight_transform(w, 1, 4)
    g = w.reshape(nout, nin, 9).transpose(2, 0, 1)
    half = np.float32(0.5)
    h = [[g[j], half * ((g[j] + g[3 + j]) + g[6 + j]), half * ((g[j] - g[3 + j]) + g[6 + j]), g[6 + j]]
         for j in range(3)]
    want = np.empty((16, nout, nin), np.float32)
    for i in range(4):
        h0, h1, h2 = h[0][i], h[1][i], h[2][i]
        want[4 * i:4 * i + 4] = [h0, half * ((h0 + h1) + h2), half * ((h0 - h1) + h2), h2]
    assert np.array_equal(U[:, 1:4], want[:, 1:4])
    assert np.isnan(U[:, [0, 4]]).all()          # rows outside [o0, o1) untouched
    assert big == np.abs(w[1:4]).max()
    G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]])
    exact = np.einsum("ab,oibc,dc->adoi", G, w.astype(np.float64), G).reshape(16, nout, nin)
    assert np.allclose(U[:, 1:4], exact[:, 1:4], rtol=1e-6, atol=1e-6)


@needs_avx2
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("where", [(2, 3, 1, 1), (2, 11, 2, 2), (0, 3, 0, 0), (2, 3, 2, 0)])
@pytest.mark.parametrize("k", [3, 5])
def test_weight_transform_reports_an_infinity_or_nan(bad, where, k):
    # in a vector lane (plane 3), in the scalar tail (plane 11 of 12) or in a
    # row outside those transformed (row 0: not reported); 3x3 and 5x5
    w = np.ones((4, 12, k, k), np.float32)
    w[where] = bad
    _, big = weight_transform(w, 1, 4)
    assert (big == 1) if where[0] == 0 else np.isnan(big)



@needs_avx2
def test_5x5_a_changed_weight_is_transformed_again():
    # the weight is transformed in every call: a weight changed in place
    # between calls gives the new convolution
    rng = np.random.default_rng(23)
    m = module(8, 8, 2, k=5)
    x = rng.standard_normal((1, 8, 14, 14)).astype(np.float32)
    first, _ = forward(m, x, 2, 1)
    m.weight[...] = rng.standard_normal(m.weight.shape).astype(np.float32)
    second, calls = forward(m, x, 2, 1)
    assert calls == 1
    want, scale = reference(m, x, 2)
    assert_close(second, want, scale)
    assert not np.allclose(first, second)


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_the_5x5_rule_of_the_default_mode(threads):
    # mode 1 takes F(2x2, 5x5) where convWinograd5Rule measured it faster: at
    # least 36 tiles of 2x2 outputs, 64 input planes or more, 128 output
    # planes or more and at least as many as in, rows of 12 tiles or more
    # (AlexNet's conv2; not its gradInput 192->64, the face detector's
    # 32->64 on 64x64, the 48-net's 64->64 on 21x21 unpadded nor LeNet's 6->16)
    rng = np.random.default_rng(24)
    cases = [((1, 64, 192, 27, 2), 1), ((1, 64, 128, 27, 2), 1), ((1, 192, 64, 27, 2), 0), ((1, 32, 64, 64, 2), 0),
             ((1, 128, 128, 14, 2), 0), ((1, 64, 64, 21, 0), 0), ((1, 256, 256, 7, 2), 0), ((1, 6, 16, 14, 0), 0)]
    assert LIB.THGemmWino_mode() == 1
    for (batch, nin, nout, size, pad), takes in cases:
        m = module(nin, nout, pad, k=5)
        x = rng.standard_normal((batch, nin, size, size)).astype(np.float32)
        y, calls = forward(m, x, 1, threads)
        assert calls == takes, (batch, nin, nout, size, pad)
        want, scale = reference(m, x, pad)
        assert_close(y, want, scale)


@needs_avx2
@pytest.mark.parametrize("nin", [1, 7, 8, 13, 32])
def test_weight_transform_5x5_against_float64(nin):
    # G g G^T (interpolation points 0, 1, -1, 2, -2, infinity) of every
    # kernel, vector lanes and scalar tail, against float64
    rng = np.random.default_rng(nin + 30)
    nout = 5
    w = rng.standard_normal((nout, nin, 5, 5)).astype(np.float32)
    U, big = weight_transform(w, 1, 4)
    G = np.array([[1 / 4, 0, 0, 0, 0], [-1 / 6] * 5, [-1 / 6, 1 / 6, -1 / 6, 1 / 6, -1 / 6],
                  [1 / 24, 1 / 12, 1 / 6, 1 / 3, 2 / 3], [1 / 24, -1 / 12, 1 / 6, -1 / 3, 2 / 3], [0, 0, 0, 0, 1]])
    exact = np.einsum("ab,oibc,dc->adoi", G, w.astype(np.float64), G).reshape(36, nout, nin)
    assert np.allclose(U[:, 1:4], exact[:, 1:4], rtol=1e-6, atol=1e-6)
    assert np.isnan(U[:, [0, 4]]).all()          # rows outside [o0, o1) untouched
    assert big == np.abs(w[1:4]).max()
