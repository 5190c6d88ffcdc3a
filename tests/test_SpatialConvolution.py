"""nn_legacy.SpatialConvolution and the SpatialConvolutionMM_* kernels:
output[o] = bias[o] + sum over c of weight[o, c] correlated with input[c],
every setting different along width and height so a swap shows."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, assert_module_matches_torch, check_empty_batch,
                         check_properties, check_threads, check_threads_share_a_sample, conv_loops, conv_taps,
                         t7_object, torch_reference)
from layer_checks import check_float32, raises_exactly, torch_or_skip, uniform

# (nIn, nOut, kW, kH, dW, dH, padW, padH), input [batch, nIn, H, W]; the 1x1 kernel
# takes the path without columns, the "same" padding the one copying whole taps at once
SETTINGS = [(3, 4, 3, 2, 2, 1, 1, 0), (3, 4, 2, 3, 1, 2, 0, 2), (3, 4, 1, 1, 1, 1, 0, 0), (3, 4, 3, 5, 1, 1, 1, 2)]
SETTING_IDS = ["k3x2-s2,1-p1,0", "k2x3-s1,2-p0,2", "k1x1", "k3x5-same"]
X_SHAPE = (2, 3, 6, 7)


def make(setting=SETTINGS[0]):
    return nn.SpatialConvolution(*setting)


def output_shape(setting, x_shape):
    _, n_out, kW, kH, dW, dH, padW, padH = setting
    return x_shape[:-3] + (n_out, (x_shape[-2] + 2 * padH - kH) // dH + 1, (x_shape[-1] + 2 * padW - kW) // dW + 1)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("x_shape", [X_SHAPE, X_SHAPE[1:]], ids=["4D", "3D"])
@pytest.mark.parametrize("bias", [True, False])
def test_matches_loops(setting, x_shape, bias):
    m = make(setting) if bias else make(setting).noBias()
    x, g = data(setting, x_shape)
    out, gin, gw, gb = conv_loops(as_batch(x), m.weight, m.bias, as_batch(g), *setting[4:])
    assert_module_matches(m, x, g, out.reshape(output_shape(setting, x_shape)), gin.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_matches_torch(setting):
    m = make(setting)
    x, g = data(setting)
    torch = pytest.importorskip("torch")
    _, _, _, _, dW, dH, padW, padH = setting
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.conv2d(t, w, b, stride=(dH, dW), padding=(padH, padW)),
        x, g)


def test_output_size_formula():
    m = nn.SpatialConvolution(2, 5, 4, 3, 3, 2, 2, 1)
    # oW = (11 + 4 - 4) // 3 + 1 = 4, oH = (9 + 2 - 3) // 2 + 1 = 5
    assert m.forward(uniform((2, 9, 11))).shape == (5, 5, 4)


def test_inf_reaches_only_the_weight_gradients_of_taps_that_see_it():
    # the last input column (inf) is seen by the right column of taps only,
    # at the first output row by the top tap only; rows of 18 output pixels
    # leave a partial vector in the direct loops, whose extra lanes must not
    # turn 0 * inf into NaN
    m = nn.SpatialConvolution(1, 1, 3, 3).noBias()
    x = np.zeros((2, 1, 6, 20))
    x[:, 0, 0, -1] = np.inf
    m.forward(x)
    m.zeroGradParameters()
    m.backward(x, np.ones((2, 1, 4, 18)))
    want = np.zeros((3, 3))
    want[0, 2] = np.inf
    np.testing.assert_array_equal(m.gradWeight[0, 0], want)


def test_one_pixel_kernel_is_a_matrix_product_per_pixel():
    m = nn.SpatialConvolution(3, 2, 1, 1)
    x = uniform((2, 3, 4, 5))
    want = np.einsum("oc,nchw->nohw", m.weight[:, :, 0, 0], x) + m.bias.reshape(1, 2, 1, 1)
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-13, atol=1e-14)


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 4, 5, 4)


def test_gradients_accumulate_and_zero():
    m = make()
    x, g = data()
    m.zeroGradParameters()
    m.backward(x, g)
    once = m.gradWeight.copy()
    m.backward(x, g)
    np.testing.assert_allclose(m.gradWeight, 2 * once, rtol=1e-14)
    m.zeroGradParameters()
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_clearState_frees_the_buffers():
    m = make()
    x, g = data()
    expected = m.forward(x).copy()
    m.backward(x, g)
    assert m.finput is not None and m.fgradInput is not None
    m.clearState()
    assert m.finput is None and m.fgradInput is None and m.output is None
    np.testing.assert_array_equal(m.forward(x), expected)


def test_reset_draws_from_the_torch7_range():
    m = nn.SpatialConvolution(4, 50, 3, 2)
    bound = 1 / np.sqrt(3 * 2 * 4)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4
    assert m.weight.shape == (50, 4, 2, 3)


def test_repr():
    assert repr(nn.SpatialConvolution(3, 4, 3, 2)) == "nn.SpatialConvolution(3 -> 4, 3x2)"
    assert repr(make()) == "nn.SpatialConvolution(3 -> 4, 3x2, 2,1, 1,0)"
    assert repr(nn.SpatialConvolution(3, 4, 3, 2, 1, 1, 1).noBias()) == \
        "nn.SpatialConvolution(3 -> 4, 3x2, 1,1, 1,1) without bias"


def test_padH_defaults_to_padW():
    m = nn.SpatialConvolution(1, 1, 3, 3, 1, 1, 2)
    assert (m.padW, m.padH) == (2, 2)


# ---------------------------------------------------------------- Torch7 files
def test_loads_from_torch7_fields(tmp_path):
    weight = uniform((4, 3, 2, 3), 7)
    bias = uniform((4,), 8)
    path = t7_object(tmp_path / "conv.t7", "nn.SpatialConvolution", {
        "nInputPlane": 3.0, "nOutputPlane": 4.0, "kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0,
        "padW": 1.0, "padH": 0.0, "weight": weight, "bias": bias, "gradWeight": weight * 0,
        "gradBias": bias * 0, "finput": np.zeros(5), "train": True})
    m = nn.load_lua(path)
    assert isinstance(m, nn.SpatialConvolution) and repr(m) == repr(make())
    assert isinstance(m.kW, int) and m.finput is None
    x, g = data()
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    np.testing.assert_array_equal(m.forward(x), want.forward(x))
    np.testing.assert_array_equal(m.backward(x, g), want.backward(x, g))


def test_loads_old_files_with_one_padding_field(tmp_path):
    weight = uniform((2, 1, 3, 3), 7)
    path = t7_object(tmp_path / "conv.t7", "nn.SpatialConvolution", {
        "nInputPlane": 1.0, "nOutputPlane": 2.0, "kW": 3.0, "kH": 3.0, "dW": 1.0, "dH": 1.0,
        "padding": 1.0, "weight": weight, "bias": np.zeros(2)})
    m = nn.load_lua(path)
    assert (m.padW, m.padH) == (1, 1) and not hasattr(m, "padding")
    assert m.forward(uniform((1, 4, 5))).shape == (2, 4, 5)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("shape, described", [
    ((2, 4, 6, 7), "4D of size [2, 4, 6, 7]"),
    ((4, 6, 7), "3D of size [4, 6, 7]"),
    ((6, 7), "2D of size [6, 7]"),
    ((1, 2, 3, 6, 7), "5D of size [1, 2, 3, 6, 7]"),
])
def test_wrong_input_planes_or_dimensions(shape, described):
    with raises_exactly(thnn.THNNError, f"SpatialConvolutionMM_updateOutput: input must be 3D or 4D with 3 planes, "
                                        f"got {described}"):
        make().forward(np.zeros(shape))


def test_input_smaller_than_the_kernel():
    m = nn.SpatialConvolution(3, 4, 5, 4, 1, 1, 1, 1)   # needs 2 rows and 3 columns
    m.forward(np.zeros((3, 2, 3)))
    for shape in [(3, 1, 3), (3, 2, 2)]:
        with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateOutput: input must be at least 2 high and "
                                            f"3 wide for this kernel, padding and dilation, got 3D of size "
                                            f"[{', '.join(map(str, shape))}]"):
            m.forward(np.zeros(shape))


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    for bad in [g[:, :, :, :3], g[:, :3], g[0]]:
        described = f"{bad.ndim}D of size [{', '.join(map(str, bad.shape))}]"
        with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateGradInput: gradOutput must be 4D of size "
                                            f"[2, 4, 5, 4], got {described}"):
            m.updateGradInput(x, bad.copy())
        with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_accGradParameters: gradOutput must be 4D of size "
                                            f"[2, 4, 5, 4], got {described}"):
            m.accGradParameters(x, bad.copy())


def test_weight_with_width_and_height_swapped():
    m = make()
    m.weight = np.ascontiguousarray(m.weight.transpose(0, 1, 3, 2))
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateOutput: weight must be 4D [nOutputPlane, "
                                        "nInputPlane, kH=2, kW=3] or 2D [nOutputPlane, nInputPlane*6], "
                                        "got 4D of size [4, 3, 3, 2]"):
        m.forward(data()[0])


def test_bias_of_the_wrong_size():
    m = make()
    m.bias = np.zeros(5)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateOutput: bias must be 1D of size [4], "
                                        "got 1D of size [5]"):
        m.forward(data()[0])


def test_noncontiguous_gradWeight_is_refused():
    m = make()
    x, g = data()
    m.forward(x)
    m.gradWeight = np.zeros((4, 3, 3, 2)).transpose(0, 1, 3, 2)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_accGradParameters: gradWeight must be contiguous "
                                        "(it is written in place)"):
        m.accGradParameters(x, g)


@pytest.mark.parametrize("args, message", [
    ((0, 2, 1, 1, 0, 0), "kernel size must be positive, got kW=0, kH=2"),
    ((3, -1, 1, 1, 0, 0), "kernel size must be positive, got kW=3, kH=-1"),
    ((3, 2, 0, 1, 0, 0), "stride must be positive, got dW=0, dH=1"),
    ((3, 2, 1, -2, 0, 0), "stride must be positive, got dW=1, dH=-2"),
    ((3, 2, 1, 1, -1, 0), "padding must be at least 0 and less than the kernel span (3 wide, 2 high), "
                          "got padW=-1, padH=0"),
    ((3, 2, 1, 1, 0, 2), "padding must be at least 0 and less than the kernel span (3 wide, 2 high), "
                         "got padW=0, padH=2"),
])
def test_kernel_refuses_bad_settings(args, message):
    w = np.zeros((4, 3, max(args[1], 1), max(args[0], 1)))
    for verb, call in [
        ("updateOutput", lambda: thnn.Double.SpatialConvolutionMM_updateOutput(
            np.zeros((3, 6, 7)), None, w, None, None, *args)),
        ("updateGradInput", lambda: thnn.Double.SpatialConvolutionMM_updateGradInput(
            np.zeros((3, 6, 7)), np.zeros((4, 6, 7)), None, w, None, *args)),
        ("accGradParameters", lambda: thnn.Double.SpatialConvolutionMM_accGradParameters(
            np.zeros((3, 6, 7)), np.zeros((4, 6, 7)), w.copy(), None, None, *args, 1.0)),
    ]:
        with raises_exactly(thnn.THNNError, f"SpatialConvolutionMM_{verb}: {message}"):
            call()


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(kW=0), ValueError, "SpatialConvolution: kW and kH must be at least 1, got kW=0, kH=2"),
    (dict(dH=0), ValueError, "SpatialConvolution: dW and dH must be at least 1, got dW=1, dH=0"),
    (dict(nInputPlane=-1), ValueError,
     "SpatialConvolution: nInputPlane and nOutputPlane must be at least 0, got nInputPlane=-1, nOutputPlane=4"),
    (dict(padW=3), ValueError, "SpatialConvolution: padW and padH must be at least 0 and less than the kernel "
                               "span (3 wide, 2 high), got padW=3, padH=3"),
    (dict(padW=1, padH=2), ValueError, "SpatialConvolution: padW and padH must be at least 0 and less than the "
                                       "kernel span (3 wide, 2 high), got padW=1, padH=2"),
    (dict(kW=2.5), TypeError, "SpatialConvolution: kW must be an integer, got 2.5"),
])
def test_constructor_refuses_bad_settings(kwargs, exc, message):
    args = dict(nInputPlane=3, nOutputPlane=4, kW=3, kH=2)
    args.update(kwargs)
    with raises_exactly(exc, message):
        nn.SpatialConvolution(**args)


def test_float32_input_to_float64_module():
    with raises_exactly(TypeError, "SpatialConvolution: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward(data()[0].astype(np.float32))


def test_error_inside_a_container_names_the_layer():
    model = nn.Sequential().add(nn.SpatialConvolution(3, 4, 3, 3)).add(nn.SpatialConvolution(5, 2, 3, 3))
    with raises_exactly(thnn.THNNError, "Sequential (1) -> SpatialConvolutionMM_updateOutput: input must be 3D or "
                                        "4D with 5 planes, got 4D of size [2, 4, 4, 5]"):
        model.forward(data()[0])


# ---------------------------------------------------------------- threads
@pytest.mark.parametrize("make_big, x_shape, g_shape", [
    # 8 samples x 96 column rows x 176 pixels x 32 planes: 4.3M multiply-adds per verb
    (lambda: nn.SpatialConvolution(16, 32, 3, 2, 1, 1, 1, 0), (8, 16, 12, 16), (8, 32, 11, 16)),
    # 1x1, no columns: 8 x 64 x 128 x 64 = 4.2M
    (lambda: nn.SpatialConvolution(64, 64, 1, 1), (8, 64, 8, 16), (8, 64, 8, 16)),
], ids=["k3x2", "k1x1"])
def test_threads_split_the_batch_without_changing_results(make_big, x_shape, g_shape):
    check_threads(make_big, uniform(x_shape, 1), uniform(g_shape, 2))


# (nIn, nOut, kW, kH, dW, dH, padW, padH), input [1, nIn, H, W]: each over 2^22 multiply-adds, so
# that 2 threads share the one sample, in bands of output rows (8 bands of 8 rows; 2 of 10; 2 of 8;
# 2 of 16 without columns; 2 of a row); steps 2 and 4 take the vectorized gathers of the unfolding
SHARED = [((16, 32, 3, 3, 1, 1, 1, 1), (1, 16, 64, 64)), ((16, 32, 5, 4, 2, 2, 2, 1), (1, 16, 40, 48)),
          ((8, 32, 8, 8, 4, 4, 2, 2), (1, 8, 66, 70)), ((64, 64, 1, 1, 1, 1, 0, 0), (1, 64, 32, 40)),
          ((64, 64, 3, 3, 1, 2, 1, 0), (1, 64, 5, 300)),
          # band columns over unfold.h's THNN_CONV_CHUNK_FROM (3 MB): unfolded and multiplied a
          # chunk of input planes at a time (9 chunks of 7 planes and one of 4; 16 chunks of 1)
          ((67, 8, 7, 7, 1, 1, 3, 3), (1, 67, 36, 40)), ((16, 12, 12, 12, 2, 2, 0, 0), (1, 16, 72, 72))]


@pytest.mark.parametrize("setting, x_shape", SHARED, ids=["k3-same", "k5x4-s2", "k8-s4", "k1x1", "one-row",
                                                          "k7-chunks", "k12-s2-chunks"])
def test_threads_share_a_single_sample(setting, x_shape):
    nIn, nOut, kW, kH, dW, dH, padW, padH = setting
    nn.manualSeed(5)
    x = uniform(x_shape, 1)
    g = uniform((1, nOut, (x_shape[2] + 2 * padH - kH) // dH + 1, (x_shape[3] + 2 * padW - kW) // dW + 1), 2)
    check_threads_share_a_sample(
        lambda: nn.SpatialConvolution(*setting),
        lambda w, b: conv_taps(x, np.reshape(w, (nOut, nIn, kH, kW)), b, g, dW, dH, padW, padH), x, g)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "noBias"])
@pytest.mark.parametrize("threads, batch", [(1, 1), (2, 1), (2, 3)], ids=["1thr", "2thr-shared", "2thr-batch3"])
def test_chunked_bands_in_float32(threads, batch, bias):
    # the chunks of input planes (above) in float32 and float64, with and without a bias
    # (the first chunk's product starts from the bias or from nothing, the others add to
    # it): the float64 output against the tap-by-tap reference, float32 within its
    # rounding of float64.  One sample shared by 2 threads (bands of 9 rows), and samples
    # of a thread each (1 thread; 3 samples on 2 threads) cut in bands of 13 rows (the last
    # one of 10), 13 chunks of 5 planes and one of 2
    nn.manualSeed(6)
    m = nn.SpatialConvolution(67, 8, 7, 7, 1, 1, 3, 3)
    if not bias:
        m.noBias()
    x, g = uniform((batch, 67, 36, 40), 1), uniform((batch, 8, 36, 40), 2)
    want = conv_taps(x, m.weight.reshape(8, 67, 7, 7), m.bias if bias else None, g, 1, 1, 3, 3)[0]
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        np.testing.assert_allclose(m.forward(x), np.reshape(want, (batch, 8, 36, 40)), rtol=1e-11,
                                   atol=1e-11 * np.abs(want).max())
        check_float32(m, x, g)
    finally:
        thnn.set_num_threads(before)


# ---------------------------------------------------------------- narrow images (LeNet)
def with_threads(threads, fn):
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        return fn()
    finally:
        thnn.set_num_threads(before)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("planes, size", [((1, 6), 28), ((6, 16), 12), ((3, 5), 9)], ids=["conv1", "conv2", "odd"])
def test_lenet_sized_batches_match_torch(planes, size, threads):
    # the flat layout of the direct loops (rows of 24, 8 and 5 output
    # pixels), a batch of 40 whose weight gradient is summed over groups
    # of samples per thread
    torch = torch_or_skip()
    nn.manualSeed(7)
    m = nn.SpatialConvolution(*planes, 5, 5)
    x = uniform((40, planes[0], size, size), 1)
    g = uniform((40, planes[1], size - 4, size - 4), 2)

    def run():
        m.zeroGradParameters()
        return m.forward(x).copy(), m.backward(x, g).copy(), m.gradWeight.copy(), m.gradBias.copy()
    got = with_threads(threads, run)
    out, gin, (gw, gb) = torch_reference(lambda t, w, b: torch.nn.functional.conv2d(t, w, b), x,
                                         (m.weight, m.bias), g)
    for a, b in zip(got, (out, gin, gw, gb)):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-11 * np.abs(b).max())


@pytest.mark.parametrize("threads", [1, 2])
def test_inf_in_one_sample_of_a_narrow_batch(threads):
    # the group of samples holding the inf sums with the dropped entries of
    # the flat layout masked (0 * inf would be NaN); the others need no mask
    nn.manualSeed(8)
    m = nn.SpatialConvolution(2, 3, 5, 5).noBias()
    x = uniform((6, 2, 10, 10), 1)
    x[4, 1, 3, 9] = np.inf     # the last column: a dropped entry for most taps
    g = uniform((6, 3, 6, 6), 2) + 2.0   # positive: the taps that see the inf get +inf
    want = conv_loops(x, m.weight, None, g, 1, 1, 0, 0)[2]

    def run():
        m.forward(x)
        m.zeroGradParameters()
        m.backward(x, g)
        return m.gradWeight.copy()
    got = with_threads(threads, run)
    assert np.isinf(want).any() and np.isfinite(want).any()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
