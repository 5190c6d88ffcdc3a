"""nn_legacy.SpatialFullConvolution and its kernels: the transpose of
SpatialConvolution (deconvolution), with adjW/adjH choosing the output size."""
import os

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, assert_module_matches_torch, check_empty_batch,
                         check_properties, check_threads, check_threads_share_a_sample, full_conv_loops,
                         full_conv_taps, t7_object)
from layer_checks import raises_exactly, uniform

# (nIn, nOut, kW, kH, dW, dH, padW, padH, adjW, adjH), input [batch, 3, 3, 4]; the 1x1
# kernel takes the path without columns, the output as large as the input ("same") the one
# folding whole taps at once
SETTINGS = [(3, 4, 3, 2, 2, 3, 1, 0, 1, 2), (3, 4, 2, 4, 3, 1, 0, 1, 2, 0), (3, 4, 1, 1, 1, 1, 0, 0, 0, 0),
            (3, 4, 3, 5, 1, 1, 1, 2, 0, 0)]
SETTING_IDS = ["k3x2-s2,3-p1,0-a1,2", "k2x4-s3,1-p0,1-a2,0", "k1x1", "k3x5-same"]
X_SHAPE = (2, 3, 3, 4)


def make(setting=SETTINGS[0]):
    return nn.SpatialFullConvolution(*setting)


def output_shape(setting, x_shape):
    _, n_out, kW, kH, dW, dH, padW, padH, adjW, adjH = setting
    return x_shape[:-3] + (n_out, (x_shape[-2] - 1) * dH - 2 * padH + kH + adjH,
                           (x_shape[-1] - 1) * dW - 2 * padW + kW + adjW)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


def test_output_size_formula():
    assert output_shape(SETTINGS[0], X_SHAPE) == (2, 4, 10, 8)
    assert make().forward(data()[0]).shape == (2, 4, 10, 8)
    assert make(SETTINGS[1]).forward(data(SETTINGS[1])[0]).shape == (2, 4, 4, 13)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("x_shape", [X_SHAPE, X_SHAPE[1:]], ids=["4D", "3D"])
@pytest.mark.parametrize("bias", [True, False])
def test_matches_loops(setting, x_shape, bias):
    m = make(setting) if bias else make(setting).noBias()
    x, g = data(setting, x_shape)
    out, gin, gw, gb = full_conv_loops(as_batch(x), m.weight, m.bias, as_batch(g), *setting[4:])
    assert_module_matches(m, x, g, out.reshape(output_shape(setting, x_shape)), gin.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_matches_torch(setting):
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting)
    _, _, _, _, dW, dH, padW, padH, adjW, adjH = setting
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.conv_transpose2d(t, w, b, stride=(dH, dW), padding=(padH, padW),
                                                                output_padding=(adjH, adjW)),
        x, g)


def test_is_the_transpose_of_SpatialConvolution():
    """<conv(y), x> = <y, full(x)> with the same weight, for all x, y."""
    full = nn.SpatialFullConvolution(3, 4, 3, 2, 2, 3, 1, 0, 1, 2).noBias()
    conv = nn.SpatialConvolution(4, 3, 3, 2, 2, 3, 1, 0).noBias()
    conv.weight[...] = full.weight
    x = uniform((2, 3, 3, 4), 1)
    y = uniform((2, 4, 10, 8), 2)
    assert conv.forward(y).shape == x.shape
    np.testing.assert_allclose(np.vdot(conv.forward(y), x), np.vdot(y, full.forward(x)), rtol=1e-13)


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 4, 10, 8)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_reset_draws_from_the_torch7_range():
    m = nn.SpatialFullConvolution(4, 50, 3, 2)
    bound = 1 / np.sqrt(3 * 2 * 4)
    assert m.weight.shape == (4, 50, 2, 3)
    assert np.all(np.abs(m.weight) <= bound) and m.weight.std() > bound / 4


def test_repr():
    assert repr(make()) == "nn.SpatialFullConvolution(3 -> 4, 3x2, 2,3, 1,0, 1,2)"
    assert repr(nn.SpatialFullConvolution(3, 4, 3, 2)) == "nn.SpatialFullConvolution(3 -> 4, 3x2)"
    assert repr(nn.SpatialFullConvolution(3, 4, 3, 2).noBias()) == \
        "nn.SpatialFullConvolution(3 -> 4, 3x2) without bias"


# ---------------------------------------------------------------- Torch7 files
def test_reproduces_the_torch7_deconv_file_by_loops_too():
    """test_t7.py runs the recorded Torch7 net ("deconv" in OPENCV_NETS); here
    its output is also recomputed by the loops, and matched far tighter:
    SpatialFullConvolution(3, 9, kW4, kH5, dW1, dH2, padW0, padH1, adjW0, adjH1)."""
    prefix = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "t7", "opencv_ascii", "net_deconv_")
    net = nn.load_lua(prefix + "net.txt")
    m = net.get(0)
    assert repr(m) == "nn.SpatialFullConvolution(3 -> 9, 4x5, 1,2, 0,1, 0,1)"
    x, want = nn.t7.read_t7(prefix + "input.txt"), nn.t7.read_t7(prefix + "output.txt")
    out, _, _, _ = full_conv_loops(x, m.weight, m.bias, None, 1, 2, 0, 1, 0, 1)
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(net.forward(x), want, rtol=0, atol=1e-12)


def test_loads_files_older_than_adj(tmp_path):
    weight = uniform((3, 4, 2, 3), 7)
    path = t7_object(tmp_path / "full.t7", "nn.SpatialFullConvolution", {
        "nInputPlane": 3.0, "nOutputPlane": 4.0, "kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 3.0,
        "padW": 1.0, "padH": 0.0, "weight": weight, "bias": np.zeros(4)})
    m = nn.load_lua(path)
    assert (m.adjW, m.adjH) == (0, 0) and repr(m) == "nn.SpatialFullConvolution(3 -> 4, 3x2, 2,3, 1,0)"
    assert m.forward(uniform((3, 3, 4))).shape == (4, 8, 7)


# ---------------------------------------------------------------- bad input
def test_wrong_planes():
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_updateOutput: input must be 3D or 4D with 3 planes, "
                                        "got 3D of size [4, 3, 4]"):
        make().forward(np.zeros((4, 3, 4)))


def test_empty_image():
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_updateOutput: input must be at least 1 high and "
                                        "1 wide, got 4D of size [2, 3, 0, 4]"):
        make().forward(np.zeros((2, 3, 0, 4)))


def test_output_that_would_be_empty():
    m = nn.SpatialFullConvolution(1, 1, 3, 4, 1, 1, 2, 3)   # 1x1 input: 4 - 6 = -2 rows, 3 - 4 = -1 columns
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_updateOutput: input must be large enough for an "
                                        "output of at least 1x1 (it would be -2 high and -1 wide), "
                                        "got 3D of size [1, 1, 1]"):
        m.forward(np.zeros((1, 1, 1)))
    assert m.forward(np.zeros((1, 4, 3))).shape == (1, 1, 1)


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_accGradParameters: gradOutput must be 4D of size "
                                        "[2, 4, 10, 8], got 4D of size [2, 4, 8, 10]"):
        m.accGradParameters(x, np.zeros((2, 4, 8, 10)))


def test_weight_in_the_convolution_layout_is_refused():
    m = make()
    m.weight = np.zeros((4, 3, 3, 2))
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_updateOutput: weight must be 4D [nInputPlane, "
                                        "nOutputPlane, kH=2, kW=3], got 4D of size [4, 3, 3, 2]"):
        m.forward(data()[0])


@pytest.mark.parametrize("adj, message", [
    ((2, 0), "output padding must be at least 0 and smaller than the stride or the dilation, got adjW=2, adjH=0 "
             "with dW=2, dH=3, dilationW=1, dilationH=1"),
    ((0, -1), "output padding must be at least 0 and smaller than the stride or the dilation, got adjW=0, adjH=-1 "
              "with dW=2, dH=3, dilationW=1, dilationH=1"),
])
def test_kernel_refuses_bad_adj(adj, message):
    with raises_exactly(thnn.THNNError, f"SpatialFullConvolution_updateOutput: {message}"):
        thnn.Double.SpatialFullConvolution_updateOutput(np.zeros((3, 3, 4)), None, np.zeros((3, 4, 2, 3)), None,
                                                        None, 3, 2, 2, 3, 1, 0, *adj)


def test_kernel_refuses_bad_padding():
    with raises_exactly(thnn.THNNError, "SpatialFullConvolution_updateGradInput: padding must be at least 0 and less "
                                        "than the kernel span (3 wide, 2 high), got padW=3, padH=0"):
        thnn.Double.SpatialFullConvolution_updateGradInput(np.zeros((3, 3, 4)), np.zeros((4, 5, 5)), None,
                                                           np.zeros((3, 4, 2, 3)), None, 3, 2, 2, 3, 3, 0, 0, 0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(adjW=2), "SpatialFullConvolution: adjW and adjH must be smaller than dW and dH, "
                   "got adjW=2, adjH=0 with dW=2, dH=3"),
    (dict(adjH=3), "SpatialFullConvolution: adjW and adjH must be smaller than dW and dH, "
                   "got adjW=0, adjH=3 with dW=2, dH=3"),
    (dict(adjW=-1), "SpatialFullConvolution: adjW and adjH must be at least 0, got adjW=-1, adjH=0"),
    (dict(padH=2), "SpatialFullConvolution: padW and padH must be at least 0 and less than the kernel span "
                   "(3 wide, 2 high), got padW=0, padH=2"),
])
def test_constructor_refuses_bad_settings(kwargs, message):
    args = dict(nInputPlane=3, nOutputPlane=4, kW=3, kH=2, dW=2, dH=3)
    args.update(kwargs)
    with raises_exactly(ValueError, message):
        nn.SpatialFullConvolution(**args)


def test_threads_split_the_batch_without_changing_results():
    """8 samples x 192 column rows x 192 pixels x 16 planes: 4.7M multiply-adds per verb."""
    check_threads(lambda: nn.SpatialFullConvolution(16, 32, 3, 2, 2, 1, 1, 0, 1, 0), uniform((8, 16, 12, 16), 1),
                  uniform((8, 32, 13, 32), 2))


# (nIn, nOut, kW, kH, dW, dH, padW, padH, adjW, adjH), input [1, nIn, H, W]: over 2^22 multiply-adds,
# so that 2 threads share the one sample (the product by bands, the folding by output planes)
SHARED = [((32, 16, 3, 3, 2, 2, 1, 1, 1, 1), (1, 32, 32, 32)), ((64, 32, 4, 4, 2, 2, 1, 1, 0, 0), (1, 64, 16, 16)),
          ((64, 64, 1, 1, 1, 1, 0, 0, 0, 0), (1, 64, 32, 40))]


@pytest.mark.parametrize("setting, x_shape", SHARED, ids=["k3-s2-adj", "k4-s2", "k1x1"])
def test_threads_share_a_single_sample(setting, x_shape):
    nIn, nOut, kW, kH, dW, dH, padW, padH, adjW, adjH = setting
    nn.manualSeed(6)
    x = uniform(x_shape, 1)
    g = uniform((1, nOut, (x_shape[2] - 1) * dH - 2 * padH + kH + adjH, (x_shape[3] - 1) * dW - 2 * padW + kW + adjW), 2)
    check_threads_share_a_sample(lambda: nn.SpatialFullConvolution(*setting),
                                 lambda w, b: full_conv_taps(x, w, b, g, dW, dH, padW, padH), x, g)
