"""nn_legacy.SpatialDilatedConvolution and its kernels: SpatialConvolution
with taps dilationW columns and dilationH rows apart."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, assert_module_matches_torch, check_empty_batch,
                         check_properties, check_threads, conv_loops, t7_object, torch_reference)
from layer_checks import check_float32, raises_exactly, uniform

# (nIn, nOut, kW, kH, dW, dH, padW, padH, dilationW, dilationH), input [batch, 3, 7, 8]
SETTINGS = [(3, 4, 2, 3, 1, 2, 1, 2, 3, 2), (3, 4, 3, 2, 2, 1, 0, 1, 1, 3), (3, 4, 2, 3, 1, 1, 1, 2, 2, 2)]
SETTING_IDS = ["k2x3-s1,2-p1,2-d3,2", "k3x2-s2,1-p0,1-d1,3", "k2x3-d2,2-same"]
X_SHAPE = (2, 3, 7, 8)


def make(setting=SETTINGS[0]):
    return nn.SpatialDilatedConvolution(*setting)


def output_shape(setting, x_shape):
    _, n_out, kW, kH, dW, dH, padW, padH, dilW, dilH = setting
    return x_shape[:-3] + (n_out, (x_shape[-2] + 2 * padH - (kH - 1) * dilH - 1) // dH + 1,
                           (x_shape[-1] + 2 * padW - (kW - 1) * dilW - 1) // dW + 1)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


def test_output_shapes_differ_in_width_and_height():
    assert output_shape(SETTINGS[0], X_SHAPE) == (2, 4, 4, 7)
    assert make().forward(data()[0]).shape == (2, 4, 4, 7)
    assert output_shape(SETTINGS[1], X_SHAPE) == (2, 4, 6, 3)


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
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting)
    _, _, _, _, dW, dH, padW, padH, dilW, dilH = setting
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.conv2d(t, w, b, stride=(dH, dW), padding=(padH, padW),
                                                      dilation=(dilH, dilW)),
        x, g)


@pytest.mark.parametrize("avx512", [True, False], ids=["avx512", "portable"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("setting, in_hw, out_shape", [((3, 11, 3, 2, 1, 2, 1, 2, 2, 3), (9, 45), (4, 11, 5, 43)),
                                                       ((6, 11, 3, 3, 1, 1, 1, 1, 1, 1), (9, 45), (4, 11, 9, 45)),
                                                       ((11, 6, 7, 7, 1, 1, 3, 3, 1, 1), (24, 45), (4, 6, 24, 45))],
                         ids=["dilated", "square-11-planes", "square-6-planes"])
def test_wide_rows_and_many_planes_match_torch(threads, avx512, setting, in_hw, out_shape):
    # On AVX-512 a batch can convolve directly, in blocks of 8 output planes
    # by 2 vectors of an output row (32 floats, 16 doubles): 11 planes and
    # rows of 43 or 45 pixels leave partial blocks in both; padding,
    # dilation and a row step of 2 as well.  In float (generic/unfold.h's
    # convDirectForward, convDirectGradInput, convDirectGradWeight) the
    # loops take the forward of the dilated kernel and of the 7x7 one to 6
    # planes, the gradInput of the 7x7 one (a flipped convolution to 11
    # planes over 1080 pixels; the 3x3 ones' have 3 planes or 405 pixels)
    # and every weight gradient.  With the AVX-512 loops disallowed (or
    # without AVX-512) the same runs through the other paths.
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting, (4,) + setting[:1] + in_hw)
    assert g.shape == out_shape
    _, _, _, _, dW, dH, padW, padH, dilW, dilH = setting
    out, gin, (gw, gb) = torch_reference(
        lambda t, w, b: torch.nn.functional.conv2d(t, w, b, stride=(dH, dW), padding=(padH, padW),
                                                   dilation=(dilH, dilW)),
        x, [m.weight, m.bias], g)
    before, allowed = thnn.get_num_threads(), thnn.allow_avx512(avx512)
    try:
        thnn.set_num_threads(threads)
        assert_module_matches(m, x, g, out, gin, gw, gb)
        check_float32(make(setting), x, g)
    finally:
        thnn.set_num_threads(before)
        thnn.allow_avx512(allowed)


def test_dilation_one_is_SpatialConvolution():
    m = nn.SpatialDilatedConvolution(3, 4, 3, 2, 2, 1, 1, 0)
    conv = nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0)
    conv.weight[...], conv.bias[...] = m.weight, m.bias
    x = uniform((2, 3, 6, 7))
    np.testing.assert_array_equal(m.forward(x), conv.forward(x))


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 4, 4, 7)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_repr():
    assert repr(make()) == "nn.SpatialDilatedConvolution(3 -> 4, 2x3, 1,2, 1,2, 3,2)"
    assert repr(nn.SpatialDilatedConvolution(3, 4, 3, 3).noBias()) == \
        "nn.SpatialDilatedConvolution(3 -> 4, 3x3, 1,1) without bias"


def test_loads_from_torch7_fields(tmp_path):
    weight, bias = uniform((4, 3, 3, 2), 7), uniform((4,), 8)
    path = t7_object(tmp_path / "dil.t7", "nn.SpatialDilatedConvolution", {
        "nInputPlane": 3.0, "nOutputPlane": 4.0, "kW": 2.0, "kH": 3.0, "dW": 1.0, "dH": 2.0,
        "padW": 1.0, "padH": 2.0, "dilationW": 3.0, "dilationH": 2.0, "weight": weight, "bias": bias})
    m = nn.load_lua(path)
    assert repr(m) == repr(make()) and isinstance(m.dilationW, int)
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    x = data()[0]
    np.testing.assert_array_equal(m.forward(x), want.forward(x))


# ---------------------------------------------------------------- bad input
def test_input_smaller_than_the_dilated_kernel():
    m = make()   # covers 4 columns and 5 rows, padded by 1 and 2
    m.forward(np.zeros((3, 1, 2)))
    with raises_exactly(thnn.THNNError, "SpatialDilatedConvolution_updateOutput: input must be at least 1 high and "
                                        "2 wide for this kernel, padding and dilation, got 3D of size [3, 1, 1]"):
        m.forward(np.zeros((3, 1, 1)))


def test_wrong_planes():
    with raises_exactly(thnn.THNNError, "SpatialDilatedConvolution_updateOutput: input must be 3D or 4D with 3 "
                                        "planes, got 4D of size [2, 2, 7, 8]"):
        make().forward(np.zeros((2, 2, 7, 8)))


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialDilatedConvolution_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 4, 4, 7], got 4D of size [2, 4, 7, 4]"):
        m.updateGradInput(x, np.zeros((2, 4, 7, 4)))


@pytest.mark.parametrize("dilation, pads, message", [
    ((0, 2), (0, 0), "dilation must be positive, got dilationW=0, dilationH=2"),
    ((3, -1), (0, 0), "dilation must be positive, got dilationW=3, dilationH=-1"),
    ((3, 2), (4, 0), "padding must be at least 0 and less than the kernel span (4 wide, 5 high), got padW=4, padH=0"),
    ((3, 2), (3, 5), "padding must be at least 0 and less than the kernel span (4 wide, 5 high), got padW=3, padH=5"),
])
def test_kernel_refuses_bad_settings(dilation, pads, message):
    w = np.zeros((4, 3, 3, 2))
    with raises_exactly(thnn.THNNError, f"SpatialDilatedConvolution_updateOutput: {message}"):
        thnn.Double.SpatialDilatedConvolution_updateOutput(np.zeros((3, 7, 8)), None, w, None, None,
                                                           2, 3, 1, 1, *pads, *dilation)
    with raises_exactly(thnn.THNNError, f"SpatialDilatedConvolution_accGradParameters: {message}"):
        thnn.Double.SpatialDilatedConvolution_accGradParameters(np.zeros((3, 7, 8)), np.zeros((4, 1, 1)), w, None,
                                                                None, 2, 3, 1, 1, *pads, *dilation, 1.0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(dilationW=0), "SpatialDilatedConvolution: dilationW and dilationH must be at least 1, "
                        "got dilationW=0, dilationH=1"),
    (dict(dilationW=2, padW=3), "SpatialDilatedConvolution: padW and padH must be at least 0 and less than the "
                                "kernel span (3 wide, 3 high), got padW=3, padH=3"),
])
def test_constructor_refuses_bad_settings(kwargs, message):
    args = dict(nInputPlane=3, nOutputPlane=4, kW=2, kH=3)
    args.update(kwargs)
    with raises_exactly(ValueError, message):
        nn.SpatialDilatedConvolution(**args)


def test_large_padding_allowed_by_dilation():
    m = nn.SpatialDilatedConvolution(1, 1, 2, 2, 1, 1, 2, 2, 3, 3)   # span 4: pads up to 3
    x = uniform((1, 2, 3))
    out, _, _, _ = conv_loops(x[None], m.weight, m.bias, None, 1, 1, 2, 2, 3, 3)
    np.testing.assert_allclose(m.forward(x), out[0], rtol=1e-13, atol=1e-14)


def test_threads_split_the_batch_without_changing_results():
    """8 samples x 96 column rows x 176 pixels x 32 planes: 4.3M multiply-adds per verb."""
    check_threads(lambda: nn.SpatialDilatedConvolution(16, 32, 3, 2, 1, 1, 1, 0, 2, 1), uniform((8, 16, 12, 18), 1),
                  uniform((8, 32, 11, 16), 2))
