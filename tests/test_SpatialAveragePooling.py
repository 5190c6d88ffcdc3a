"""nn_legacy.SpatialAveragePooling and the SpatialAveragePooling_* kernels:
the mean of every kW x kH window, padding counted or not."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import bits, fixed_windows, hostile_values, ref_avg, ref_avg_grad, torch_module_grad

# (kW, kH, dW, dH, padW, padH, ceil, count_include_pad)
WINDOWS = [(3, 2, 2, 1, 1, 0, False, True), (3, 2, 2, 1, 1, 1, True, True), (3, 2, 2, 1, 1, 1, True, False),
           (2, 3, 1, 2, 0, 1, False, False), (2, 2, 2, 2, 0, 0, False, True), (2, 2, 2, 2, 0, 0, True, False),
           (3, 3, 3, 2, 1, 0, True, True)]
SHAPE = (2, 3, 5, 7)
OUT = (2, 3, 4, 4)   # of make() on SHAPE


def make(kW=3, kH=2, dW=2, dH=1, padW=1, padH=0, ceil=False, count_include_pad=True):
    m = nn.SpatialAveragePooling(kW, kH, dW, dH, padW, padH)
    if ceil:
        m.ceil()
    return m if count_include_pad else m.setCountExcludePad()


def windows(shape, kW, kH, dW, dH, padW, padH, ceil, cip):
    H, W = shape[-2:]
    return [fixed_windows(H, kH, dH, padH, 1, ceil), fixed_windows(W, kW, dW, padW, 1, ceil)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("shape", [SHAPE, (3, 6, 5), (1, 1, 4, 6)], ids=str)
def test_matches_the_reference_loop(window, shape):
    x = uniform(shape, 1)
    w = windows(shape, *window)
    mode = "include" if window[-1] else "exclude"
    out = ref_avg(x, w, mode)
    g = uniform(out.shape, 2)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), ref_avg_grad(x.shape, w, mode, g))


# rows long enough for the vectorized full columns (8 or more, steps 1 and
# 2; a step of 3 stays on the one-window loop) with clipped columns on both
# sides, ceil mode, padding counted or not: bit for bit the reference's
# sums (from 0, in float64, taps in row-major order) on values with -0.0
# and -inf, NaN where a window holds a NaN (whose payload a sum keeps is the
# compiler's choice of operand order: not compared)
LONG_ROWS = [(3, 3, 1, 1, 1, 1, False, True), (3, 3, 1, 1, 1, 1, False, False), (3, 3, 2, 2, 1, 1, True, True),
             (5, 2, 2, 1, 2, 1, True, False), (4, 3, 1, 2, 0, 0, False, True), (3, 3, 3, 3, 1, 1, False, True)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("width", [40, 19, 10])
@pytest.mark.parametrize("window", LONG_ROWS, ids=str)
def test_long_rows_match_the_reference_loop_bit_for_bit(window, width, dtype, threads):
    x = hostile_values((2, 3, 9, 2 * width), dtype, width)[..., ::2]   # (not contiguous)
    w = windows(x.shape, *window)
    want = ref_avg(x.astype(np.float64), w, "include" if window[-1] else "exclude").astype(dtype)
    nan = np.isnan(want)
    assert nan.any() and (want == 0).any() and not nan.all()
    check_bits(make(*window), x, want, threads)


def check_bits(m, x, want, threads):
    """m.forward(x) on `threads` threads: NaN where want is, elsewhere want's bits."""
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        got = m.forward(x)
    finally:
        thnn.set_num_threads(before)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(bits(got)[~nan], bits(want)[~nan])


# one window over each whole plane (global pooling: ResNet's 7x7 on 7x7, an
# adaptive pooling to 1x1), summed several planes at a time: 22 and 17
# planes (groups of 8 and the rest); bit for bit the reference's sums as above
GLOBAL = [((7, 7, 1, 1, 0, 0, False, True), (2, 11, 7, 7)), ((3, 3, 1, 1, 1, 1, False, True), (2, 11, 1, 1)),
          ((3, 3, 1, 1, 1, 1, False, False), (2, 11, 1, 1)), ((5, 4, 5, 4, 0, 0, True, True), (1, 17, 4, 5)),
          ("adaptive", (1, 17, 6, 5))]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("window, shape", GLOBAL, ids=str)
def test_global_windows_match_the_reference_loop_bit_for_bit(window, shape, dtype, threads):
    from pooling_checks import adaptive_windows
    x = hostile_values(shape[:-1] + (2 * shape[-1],), dtype, 5)[..., ::2]   # (not contiguous)
    if window == "adaptive":
        m, w, mode = nn.SpatialAdaptiveAveragePooling(1, 1), [adaptive_windows(n, 1) for n in shape[-2:]], "adaptive"
    else:
        m, w, mode = make(*window), windows(x.shape, *window), "include" if window[-1] else "exclude"
    want = ref_avg(x.astype(np.float64), w, mode).astype(dtype)
    assert want.shape == shape[:2] + (1, 1) and (~np.isnan(want)).sum() >= 4
    check_bits(m, x, want, threads)


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_matches_torch(window):
    torch = torch_or_skip()
    kW, kH, dW, dH, padW, padH, ceil, cip = window
    x = uniform((2, 3, 9, 11), 1)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2)

    def pool(t):
        return torch.nn.functional.avg_pool2d(t, (kH, kW), (dH, dW), (padH, padW), ceil_mode=ceil,
                                              count_include_pad=cip)
    t_out, t_grad = torch_module_grad(torch, pool, x, g)
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(m.backward(x, g), t_grad)


def test_float32_2x2_matches_torch_exactly():
    """The 2x2 stride-2 rows add the four taps in PyTorch's order, in float."""
    torch = torch_or_skip()
    x = uniform((2, 3, 8, 10), 1).astype(np.float32)
    g = uniform((2, 3, 4, 5), 2).astype(np.float32)
    m = make(2, 2, 2, 2, 0, 0)
    t_out, t_grad = torch_module_grad(torch, lambda t: torch.nn.functional.avg_pool2d(t, 2, 2), x, g)
    np.testing.assert_array_equal(m.forward(x), t_out)
    np.testing.assert_array_equal(m.backward(x, g), t_grad)


def test_padding_counts_or_not():
    x = np.ones((1, 4, 4))
    np.testing.assert_array_equal(make(3, 3, 3, 3, 1, 1).forward(x), [[[4 / 9, 4 / 9], [4 / 9, 4 / 9]]])
    np.testing.assert_array_equal(make(3, 3, 3, 3, 1, 1, count_include_pad=False).forward(x), [[[1, 1], [1, 1]]])


def test_empty_batch_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0, 3, 5, 7))).shape == (0, 3, 4, 4)
    assert m.backward(np.zeros((0, 3, 5, 7)), np.zeros((0, 3, 4, 4))).shape == (0, 3, 5, 7)


# ---------------------------------------------------------------- Torch7 API
def test_defaults_are_torch7s():
    m = nn.SpatialAveragePooling(3, 2)
    assert (m.dW, m.dH, m.padW, m.padH, m.ceil_mode, m.count_include_pad, m.divide) == (1, 1, 0, 0, False, True, True)
    assert m.ceil() is m and m.ceil_mode and m.floor() is m and not m.ceil_mode
    assert m.setCountExcludePad() is m and not m.count_include_pad
    assert m.setCountIncludePad() is m and m.count_include_pad


def test_repr():
    assert repr(nn.SpatialAveragePooling(3, 2)) == "nn.SpatialAveragePooling(3x2, 1,1)"
    assert repr(make()) == "nn.SpatialAveragePooling(3x2, 2,1, 1,0)"


def test_torch7_files_without_divide_sum_the_windows(tmp_path):
    """Old Torch7 models could say divide = false: Torch7 then multiplied
    the mean back by kW * kH, output and gradient alike."""
    from t7_writer import T7Object, t7_bytes
    fields = {"kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "divide": False}
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialAveragePooling", fields)))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.padW, m.padH, m.ceil_mode, m.count_include_pad, m.divide) == (0, 0, False, True, False)
    x, g = uniform(SHAPE, 1), uniform((2, 3, 4, 3), 2)
    mean = make(padW=0)
    np.testing.assert_allclose(m.forward(x), 6 * mean.forward(x), rtol=1e-15)
    np.testing.assert_allclose(m.backward(x, g), 6 * mean.backward(x, g), rtol=1e-15)


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    fields = {"kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "padW": 1.0, "padH": 1.0, "ceil_mode": True,
              "count_include_pad": False, "divide": True}
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialAveragePooling", fields)))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make(3, 2, 2, 1, 1, 1, True, False).forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, message", [
    ((0, 2), "kernel size must be > 0, got kW=0"),
    ((3, 2, 1, 0), "stride must be > 0, got dH=0"),
    ((3, 2, 1, 1, 0, 2), "padding must be >= 0 and at most half the kernel size, got padH=2 for kH=2"),
])
def test_bad_window(args, message):
    with raises_exactly(thnn.THNNError, "SpatialAveragePooling_updateOutput: " + message):
        nn.SpatialAveragePooling(*args).forward(uniform(SHAPE, 1))


def test_wrong_number_of_dims():
    with raises_exactly(thnn.THNNError, "SpatialAveragePooling_updateOutput: input must be 3D [planes, height, "
                                        "width] or 4D [batch, planes, height, width], got 1D of size [7]"):
        make().forward(uniform((7,), 1))


def test_input_smaller_than_the_window():
    with raises_exactly(thnn.THNNError, "SpatialAveragePooling_updateOutput: input (3D of size [3, 1, 7]) is too "
                                        "small along height (1) for the window kH=2, dH=1, padH=0: the output "
                                        "height would be 0, it must be at least 1"):
        make().forward(uniform((3, 1, 7), 1))


def test_mismatched_gradOutput():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialAveragePooling_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 3, 4, 4], got 3D of size [3, 4, 4]"):
        m.backward(x, uniform((3, 4, 4), 2))
