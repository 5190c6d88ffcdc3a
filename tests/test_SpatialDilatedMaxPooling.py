"""nn_legacy.SpatialDilatedMaxPooling and the SpatialDilatedMaxPooling_*
kernels: max pooling whose window taps lie dilationW, dilationH apart."""
import ctypes

import numpy as np
import pytest

import nn_legacy as nn
import thnn
import thnn._thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import (bits, check_values_without_indices, distinct, fixed_windows, hostile_values, ref_index_grad,
                            ref_max, torch_module_grad)

# (kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil)
WINDOWS = [(3, 2, 2, 1, 1, 0, 2, 1, False), (2, 3, 1, 2, 0, 1, 1, 3, True), (3, 3, 2, 3, 1, 0, 3, 2, True),
           (2, 2, 2, 2, 0, 0, 2, 2, False)]
SHAPE = (2, 3, 7, 9)
OUT = (2, 3, 6, 4)   # of make() on SHAPE


def make(kW=3, kH=2, dW=2, dH=1, padW=1, padH=0, dilationW=2, dilationH=1, ceil=False):
    m = nn.SpatialDilatedMaxPooling(kW, kH, dW, dH, padW, padH, dilationW, dilationH)
    return m.ceil() if ceil else m


def reference(x, kW, kH, dW, dH, padW, padH, dilW, dilH, ceil):
    H, W = x.shape[-2:]
    return ref_max(x, [fixed_windows(H, kH, dH, padH, dilH, ceil), fixed_windows(W, kW, dW, padW, dilW, ceil)])


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(window, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    out, ind = reference(x, *window)
    g = uniform(out.shape, 2).astype(dtype)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 2, ind, g))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch(window, dtype):
    torch = torch_or_skip()
    kW, kH, dW, dH, padW, padH, dilW, dilH, ceil = window
    x = uniform((2, 3, 11, 10), 1).astype(dtype)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)

    def pool(t):
        return torch.nn.functional.max_pool2d(t, (kH, kW), (dH, dW), (padH, padW), (dilH, dilW), ceil_mode=ceil,
                                              return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_dilation_1_is_SpatialMaxPooling():
    x, g = uniform(SHAPE, 1), uniform((2, 3, 6, 5), 2)
    m, plain = make(dilationW=1, dilationH=1), nn.SpatialMaxPooling(3, 2, 2, 1, 1, 0)
    np.testing.assert_array_equal(m.forward(x), plain.forward(x))
    np.testing.assert_array_equal(m.backward(x, g), plain.backward(x, g))


def test_is_a_SpatialMaxPooling_with_torch7s_defaults():
    m = nn.SpatialDilatedMaxPooling(3, 2)
    assert isinstance(m, nn.SpatialMaxPooling)
    assert (m.dW, m.dH, m.padW, m.padH, m.dilationW, m.dilationH, m.ceil_mode) == (3, 2, 0, 0, 1, 1, False)


def test_repr():
    assert repr(make()) == "nn.SpatialDilatedMaxPooling(3x2, 2,1, 1,0, 2,1)"
    assert repr(nn.SpatialDilatedMaxPooling(3, 2, 1, 1, 0, 0, 2, 3)) == "nn.SpatialDilatedMaxPooling(3x2, 1,1, 2,3)"


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    fields = {"kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "padW": 1.0, "padH": 0.0, "dilationW": 2.0,
              "dilationH": 1.0, "ceil_mode": False, "indices": np.ones((1, 2))}
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialDilatedMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.dilationW, m.dilationH, m.indices) == (2, 1, None)
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make().forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("dilation, message", [((0, 1), "dilation must be > 0, got dilationW=0"),
                                               ((2, -1), "dilation must be > 0, got dilationH=-1")])
def test_bad_dilation(dilation, message):
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: " + message):
        make(dilationW=dilation[0], dilationH=dilation[1]).forward(uniform(SHAPE, 1))


def test_dilated_window_larger_than_the_input():
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: input (4D of size [2, 3, 7, 9]) is "
                                        "too small along width (9) for the window kW=3, dW=2, padW=1, "
                                        "dilationW=6: the output width would be 0, it must be at least 1"):
        make(dilationW=6).forward(uniform(SHAPE, 1))


def test_window_wholly_in_the_padding_is_refused():
    # W = 1, kW = 2, padW = 1, dilationW = 2: the only window's taps are columns -1 and 1
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: window 0 along width lies wholly "
                                        "in the padding: input width 1, kW=2, dW=1, padW=1, dilationW=2"):
        nn.SpatialDilatedMaxPooling(2, 1, 1, 1, 1, 0, 2, 1).forward(uniform((1, 3, 1), 1))


def test_tampered_indices_are_refused():
    m = make()
    x, g = uniform(SHAPE, 1), uniform(OUT, 2)
    m.forward(x)
    m.indices[0, 1, 5, 3] = 63
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateGradInput: indices[0, 1, 5, 3] = 63 is "
                                        "out of range [0, 63)"):
        m.backward(x, g)


def numpy_max_pool(x, kW, kH, dW, dH, padW, padH, dilW, dilH, ceil):
    """(output, indices) of max pooling over the last two axes of x, written
    with whole-array numpy operations (one pass per tap, taps in row-major
    order, taps in the padding skipped): ties keep the first tap, a NaN wins
    (the last NaN of the window), indices count within each plane."""
    H, W = x.shape[-2:]
    rows, cols = fixed_windows(H, kH, dH, padH, dilH, ceil), fixed_windows(W, kW, dW, padW, dilW, ceil)
    oh = np.arange(len(rows))[:, None]
    ow = np.arange(len(cols))[None, :]
    best = np.zeros(x.shape[:-2] + (len(rows), len(cols)), dtype=x.dtype)
    at = np.zeros(best.shape, dtype=np.int64)
    have = np.zeros(best.shape, dtype=bool)
    for jh in range(kH):
        for jw in range(kW):
            h = oh * dH - padH + jh * dilH
            w = ow * dW - padW + jw * dilW
            inside = (h >= 0) & (h < H) & (w >= 0) & (w < W)
            v = x[..., np.clip(h, 0, H - 1), np.clip(w, 0, W - 1)]
            take = inside & (~have | (v > best) | np.isnan(v))
            best = np.where(take, v, best)
            at = np.where(take, np.broadcast_to(h * W + w, at.shape), at)
            have |= inside
    return best, at


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("window", [
    (3, 3, 2, 2, 1, 1, 1, 1, False),      # ResNet's 3x3/2 pad 1
    (3, 3, 2, 2, 0, 0, 1, 1, True),       # the 48x48 classifier's, ceil mode: a clipped last window
    (3, 3, 1, 1, 1, 1, 1, 1, False),      # step 1
    (5, 2, 3, 1, 2, 1, 2, 1, True),       # step 3 (the general gather), dilation, uneven padding
    (1, 1, 2, 2, 0, 0, 1, 1, False),      # one tap
    (20, 13, 1, 1, 0, 0, 1, 1, False),    # 260 taps: more than the vector path takes (scalar windows)
], ids=str)
def test_windows_of_any_shape_on_long_rows(window, dtype, threads):
    # rows of more than one block of 128 outputs (and a short last block), the
    # vector path's full columns between clipped border windows, ties, NaN and
    # -inf, a non-contiguous input; planes shared between the threads
    rng = np.random.default_rng(sum(window))
    x = rng.integers(-3, 4, size=(2, 3, 23, 301)).astype(dtype)   # many ties
    x[rng.random(x.shape) < 0.02] = np.nan
    x[rng.random(x.shape) < 0.02] = -np.inf
    want, want_ind = numpy_max_pool(x, *window)
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        m = make(*window)
        out = m.forward(np.asfortranarray(x)).copy()
        g = uniform(out.shape, 3).astype(dtype)
        gi = m.backward(x, g)
    finally:
        thnn.set_num_threads(before)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(m.indices, want_ind)
    np.testing.assert_array_equal(gi, ref_index_grad(x.shape, 2, want_ind, g).astype(dtype))


def test_numpy_reference_matches_the_reference_loop():
    # the whole-array reference above against pooling_checks' explicit loops
    x = distinct(SHAPE, 4)
    x[0, 1, 2, 3] = x[1, 2, 4, 4] = np.nan
    for window in WINDOWS + [(3, 3, 2, 2, 1, 1, 1, 1, False)]:
        out, ind = numpy_max_pool(x, *window)
        ref_out, ref_ind = reference(x, *window)
        np.testing.assert_array_equal(out, ref_out)
        np.testing.assert_array_equal(ind, ref_ind)


# ---------------------------------------------------------------- evaluation mode: values without indices
EVAL_WINDOWS = [
    (3, 3, 2, 2, 1, 1, 1, 1, False),      # ResNet's 3x3/2 pad 1
    (2, 2, 2, 2, 0, 0, 1, 1, False),      # the 2x2/2 window of the indexed fast path
    (3, 3, 2, 2, 0, 0, 1, 1, True),       # ceil mode: a clipped last window
    (3, 2, 1, 1, 1, 0, 1, 1, False),      # step 1
    (2, 3, 1, 2, 0, 1, 3, 1, True),       # step 1, dilation along W
    (5, 2, 3, 1, 2, 1, 2, 1, True),       # step 3: the general gather
    (3, 3, 1, 1, 1, 1, 1, 1, False),      # GoogLeNet's 3x3/1 pad 1: rows between -inf borders
    (3, 3, 2, 2, 1, 1, 1, 1, True),       # pad and a clipped last window: borders on both sides
    (3, 3, 1, 1, 1, 1, 2, 2, True),       # dilated taps over the borders
]
# rows of several vector blocks and a moved-back last block (301, 35, 18),
# rows of one to two vectors (24, 13; for double also 18, 9), rows of one or
# two 16-byte vectors (11, 9, 7, 6: a few outputs), rows shorter
# than a vector (4); 260 taps, windows one by one
EVAL_CASES = [(w, width) for w in EVAL_WINDOWS for width in (301, 35, 24, 18, 13, 11, 9, 7, 6, 4)] + \
    [((20, 13, 1, 1, 0, 0, 1, 1, False), 301), ((20, 13, 1, 1, 0, 0, 1, 1, False), 23)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("window, width", EVAL_CASES, ids=str)
def test_evaluation_mode_computes_the_same_values_without_indices(window, width, dtype, threads):
    # against the numpy reference below (see check_values_without_indices)
    x = hostile_values((2, 3, 15, width), dtype, width + sum(window))
    check_values_without_indices(make(*window), x, 2, *numpy_max_pool(x, *window), threads)


def test_evaluation_mode_backward_reads_no_stale_indices():
    # a training forward on one input, an evaluation forward on another: the
    # backward pass of the second uses the second input's windows
    m = make(3, 3, 2, 2, 1, 1, 1, 1)
    a, b = distinct((1, 2, 9, 40), 1), distinct((1, 2, 9, 40), 2)[..., ::-1].copy()
    m.forward(a)
    stale = m.indices.copy()
    m.evaluate()
    m.forward(b)
    g = uniform(m.output.shape, 3)
    gi = m.backward(b, g)
    want_ind = numpy_max_pool(b, 3, 3, 2, 2, 1, 1, 1, 1, False)[1]
    assert not np.array_equal(stale, want_ind)
    np.testing.assert_array_equal(gi, ref_index_grad(b.shape, 2, want_ind, g))
    # back in training mode the indices are made by the forward pass again
    m.training()
    m.forward(a)
    np.testing.assert_array_equal(m.indices, stale)


def test_evaluation_mode_kernel_refuses_bad_arguments():
    F = thnn.Float
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutputValues: dilation must be > 0, "
                                        "got dilationW=0"):
        F.SpatialDilatedMaxPooling_updateOutputValues(np.zeros((1, 5, 5), np.float32), None, 2, 2, 1, 1, 0, 0,
                                                      0, 1, False)
    with pytest.raises(thnn.THNNError, match="SpatialDilatedMaxPooling_updateOutputValues: "):
        F.SpatialDilatedMaxPooling_updateOutputValues(np.zeros((5, 5), np.float32), None, 2, 2, 1, 1, 0, 0,
                                                      1, 1, False)


# ---------------------------------------------------------------- evaluation mode: shared rows
LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THPool_setSharedRows.argtypes = [ctypes.c_int]
LIB.THPool_sharedRowCalls.restype = ctypes.c_int64

# (window, batch, H, W, shared for float32, shared for float64): windows that
# overlap along H share their input rows' maxima when a row has two vectors of
# full columns or more (16 floats, 8 doubles)
SHARED_CASES = [
    ((3, 3, 2, 2, 0, 0, 1, 1, False), 8, 44, 44, True, True),     # the 48x48 face classifier's pooling
    ((3, 3, 2, 2, 0, 0, 1, 1, False), 1, 45, 37, True, True),     # odd sizes, a moved-back last block
    ((3, 3, 2, 2, 1, 1, 1, 1, False), 1, 31, 61, True, True),     # ResNet's 3x3/2 pad 1: clipped borders
    ((3, 3, 2, 2, 0, 0, 1, 1, True), 8, 23, 41, True, True),      # ceil mode: a clipped last window
    ((3, 2, 1, 1, 1, 0, 1, 1, False), 1, 15, 301, True, True),    # step 1, many blocks
    ((2, 3, 2, 1, 0, 1, 3, 2, True), 8, 19, 35, True, True),      # dilation along H and W
    ((3, 3, 2, 2, 0, 0, 1, 1, False), 8, 17, 17, False, True),    # 8 full columns: one float vector
    ((2, 2, 2, 2, 0, 0, 1, 1, False), 1, 16, 64, False, False),   # no overlap along H
    ((3, 3, 2, 3, 0, 0, 1, 1, False), 1, 16, 64, False, False),   # step >= the window's rows
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", SHARED_CASES, ids=str)
def test_evaluation_mode_shares_the_rows_of_overlapping_windows(case, dtype, threads):
    # the path taken where the rule says (THPool_sharedRowCalls), and the
    # same bits as the path without sharing and the numpy reference (ties,
    # -0.0 beside 0.0, NaN payloads), on a non-contiguous input
    window, batch, H, W, shared32, shared64 = case
    x = hostile_values((batch, 5, H, 2 * W), dtype, H + W)[..., ::2]
    m = make(*window)
    m.evaluate()
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        calls = LIB.THPool_sharedRowCalls()
        out = m.forward(x).copy()
        taken = LIB.THPool_sharedRowCalls() - calls
        LIB.THPool_setSharedRows(0)
        unshared = m.forward(x).copy()
        assert LIB.THPool_sharedRowCalls() - calls == taken
    finally:
        LIB.THPool_setSharedRows(1)
        thnn.set_num_threads(before)
    assert taken == (shared32 if dtype == np.float32 else shared64)
    assert not x.flags.c_contiguous
    want = numpy_max_pool(x, *window)[0]
    np.testing.assert_array_equal(bits(out), bits(want.astype(dtype)))
    np.testing.assert_array_equal(bits(out), bits(unshared))
