"""nn_legacy.SpatialFullDilatedConvolution and its kernels: the transpose of
SpatialDilatedConvolution."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, assert_module_matches_torch, check_empty_batch,
                         check_properties, check_threads, full_conv_loops, t7_object)
from layer_checks import raises_exactly, uniform

# (nIn, nOut, kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH), input [batch, 3, 3, 4].
# The first has adjH = 2 >= dH = 1, allowed because it is below dilationH = 3.
SETTINGS = [(3, 4, 2, 3, 2, 1, 1, 2, 2, 3, 1, 2), (3, 4, 3, 2, 1, 2, 2, 0, 3, 1, 0, 1),
            (3, 4, 2, 3, 1, 1, 1, 2, 2, 2, 0, 0)]
SETTING_IDS = ["k2x3-s2,1-p1,2-d2,3-a1,2", "k3x2-s1,2-p2,0-d3,1-a0,1", "k2x3-d2,2-same"]
X_SHAPE = (2, 3, 3, 4)


def make(setting=SETTINGS[0]):
    return nn.SpatialFullDilatedConvolution(*setting)


def output_shape(setting, x_shape):
    _, n_out, kW, kH, dW, dH, padW, padH, dilW, dilH, adjW, adjH = setting
    return x_shape[:-3] + (n_out, (x_shape[-2] - 1) * dH - 2 * padH + (kH - 1) * dilH + 1 + adjH,
                           (x_shape[-1] - 1) * dW - 2 * padW + (kW - 1) * dilW + 1 + adjW)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


def loops(x, m, g, setting):
    _, _, _, _, dW, dH, padW, padH, dilW, dilH, adjW, adjH = setting
    return full_conv_loops(x, m.weight, m.bias, g, dW, dH, padW, padH, adjW, adjH, dilW, dilH)


def test_output_shapes():
    assert output_shape(SETTINGS[0], X_SHAPE) == (2, 4, 7, 8)
    assert make().forward(data()[0]).shape == (2, 4, 7, 8)
    assert output_shape(SETTINGS[1], X_SHAPE) == (2, 4, 7, 6)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("x_shape", [X_SHAPE, X_SHAPE[1:]], ids=["4D", "3D"])
@pytest.mark.parametrize("bias", [True, False])
def test_matches_loops(setting, x_shape, bias):
    m = make(setting) if bias else make(setting).noBias()
    x, g = data(setting, x_shape)
    out, gin, gw, gb = loops(as_batch(x), m, as_batch(g), setting)
    assert_module_matches(m, x, g, out.reshape(output_shape(setting, x_shape)), gin.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_matches_torch(setting):
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting)
    _, _, _, _, dW, dH, padW, padH, dilW, dilH, adjW, adjH = setting
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.conv_transpose2d(t, w, b, stride=(dH, dW), padding=(padH, padW),
                                                                output_padding=(adjH, adjW), dilation=(dilH, dilW)),
        x, g)


def test_is_the_transpose_of_SpatialDilatedConvolution():
    """<conv(y), x> = <y, full(x)>.  With adjH = 2 >= dH the convolution of
    the 7-row output gives 5 rows, not 3: the full convolution is the
    transpose of its first 3."""
    full = make().noBias()
    conv = nn.SpatialDilatedConvolution(4, 3, 2, 3, 2, 1, 1, 2, 2, 3).noBias()
    conv.weight[...] = full.weight
    x, y = uniform((2, 3, 3, 4), 1), uniform((2, 4, 7, 8), 2)
    assert conv.forward(y).shape == (2, 3, 5, 4)
    np.testing.assert_allclose(np.vdot(conv.forward(y)[:, :, :3], x), np.vdot(y, full.forward(x)), rtol=1e-13)


def test_dilation_one_is_SpatialFullConvolution():
    m = nn.SpatialFullDilatedConvolution(3, 4, 3, 2, 2, 3, 1, 0, 1, 1, 1, 2)
    full = nn.SpatialFullConvolution(3, 4, 3, 2, 2, 3, 1, 0, 1, 2)
    full.weight[...], full.bias[...] = m.weight, m.bias
    x = uniform(X_SHAPE)
    np.testing.assert_array_equal(m.forward(x), full.forward(x))


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 4, 7, 8)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_repr():
    assert repr(make()) == "nn.SpatialFullDilatedConvolution(3 -> 4, 2x3, 2,1, 1,2, 1,2, dilation 2,3)"


def test_loads_from_torch7_fields(tmp_path):
    weight, bias = uniform((3, 4, 3, 2), 7), uniform((4,), 8)
    fields = dict(zip(["nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH", "padW", "padH", "dilationW",
                       "dilationH", "adjW", "adjH"], map(float, SETTINGS[0])))
    m = nn.load_lua(t7_object(tmp_path / "fd.t7", "nn.SpatialFullDilatedConvolution",
                              dict(fields, weight=weight, bias=bias)))
    assert repr(m) == repr(make()) and isinstance(m.dilationH, int)
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    x = data()[0]
    np.testing.assert_array_equal(m.forward(x), want.forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("settings, message", [
    ((1, 3, 2, 0), "output padding must be at least 0 and smaller than the stride or the dilation, got adjW=2, "
                   "adjH=0 with dW=2, dH=1, dilationW=1, dilationH=3"),
    ((2, 3, 1, 3), "output padding must be at least 0 and smaller than the stride or the dilation, got adjW=1, "
                   "adjH=3 with dW=2, dH=1, dilationW=2, dilationH=3"),
    ((0, 3, 0, 0), "dilation must be positive, got dilationW=0, dilationH=3"),
])
def test_kernel_refuses_bad_settings(settings, message):
    with raises_exactly(thnn.THNNError, f"SpatialFullDilatedConvolution_updateOutput: {message}"):
        thnn.Double.SpatialFullDilatedConvolution_updateOutput(np.zeros((3, 3, 4)), None, np.zeros((3, 4, 3, 2)),
                                                               None, None, 2, 3, 2, 1, 0, 0, *settings)


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialFullDilatedConvolution_updateGradInput: gradOutput must be 4D of "
                                        "size [2, 4, 7, 8], got 4D of size [2, 4, 8, 7]"):
        m.updateGradInput(x, np.zeros((2, 4, 8, 7)))


@pytest.mark.parametrize("kwargs, message", [
    (dict(adjW=2), "SpatialFullDilatedConvolution: adjW and adjH must be smaller than the stride or the dilation, "
                   "got adjW=2, adjH=0 with dW=2, dH=1, dilationW=2, dilationH=3"),
    (dict(dilationH=0), "SpatialFullDilatedConvolution: dilationW and dilationH must be at least 1, "
                        "got dilationW=2, dilationH=0"),
    (dict(padW=3), "SpatialFullDilatedConvolution: padW and padH must be at least 0 and less than the kernel span "
                   "(3 wide, 7 high), got padW=3, padH=0"),
])
def test_constructor_refuses_bad_settings(kwargs, message):
    args = dict(nInputPlane=3, nOutputPlane=4, kW=2, kH=3, dW=2, dH=1, dilationW=2, dilationH=3)
    args.update(kwargs)
    with raises_exactly(ValueError, message):
        nn.SpatialFullDilatedConvolution(**args)


def test_threads_split_the_batch_without_changing_results():
    """8 samples x 192 column rows x 192 pixels x 16 planes: 4.7M multiply-adds per verb."""
    check_threads(lambda: nn.SpatialFullDilatedConvolution(16, 32, 3, 2, 2, 1, 1, 0, 2, 1, 1, 0),
                  uniform((8, 16, 12, 16), 1), uniform((8, 32, 13, 34), 2))
