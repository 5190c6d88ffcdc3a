"""nn_legacy.SpatialSubSampling and its kernels: per plane k,
output = bias[k] + weight[k] * (sum over each kW x kH window)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, assert_module_matches_torch, check_empty_batch,
                         check_properties, check_threads, t7_object)
from layer_checks import raises_exactly, uniform

N_IN = 3
# (kW, kH, dW, dH), input [batch, 3, 5, 8]
SETTINGS = [(3, 2, 2, 1), (2, 3, 1, 2)]
SETTING_IDS = ["k3x2-s2,1", "k2x3-s1,2"]
X_SHAPE = (2, N_IN, 5, 8)


def make(setting=SETTINGS[0]):
    return nn.SpatialSubSampling(N_IN, *setting)


def output_shape(setting, x_shape):
    kW, kH, dW, dH = setting
    return x_shape[:-2] + ((x_shape[-2] - kH) // dH + 1, (x_shape[-1] - kW) // dW + 1)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


def loops(m, x, g):
    """(output, gradInput, gradWeight, gradBias) window by window."""
    N, C, H, W = x.shape
    _, _, oH, oW = g.shape
    out, gin = np.zeros(g.shape), np.zeros(x.shape)
    gw, gb = np.zeros(C), np.zeros(C)
    for n, k, y, xo in np.ndindex(N, C, oH, oW):
        window = x[n, k, y * m.dH:y * m.dH + m.kH, xo * m.dW:xo * m.dW + m.kW]
        out[n, k, y, xo] = m.bias[k] + m.weight[k] * window.sum()
        gin[n, k, y * m.dH:y * m.dH + m.kH, xo * m.dW:xo * m.dW + m.kW] += m.weight[k] * g[n, k, y, xo]
        gw[k] += g[n, k, y, xo] * window.sum()
        gb[k] += g[n, k, y, xo]
    return out, gin, gw, gb


def test_output_shapes():
    assert output_shape(SETTINGS[0], X_SHAPE) == (2, 3, 4, 3)
    assert make().forward(data()[0]).shape == (2, 3, 4, 3)
    assert output_shape(SETTINGS[1], X_SHAPE) == (2, 3, 2, 7)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("x_shape", [X_SHAPE, X_SHAPE[1:]], ids=["4D", "3D"])
def test_matches_loops(setting, x_shape):
    m = make(setting)
    x, g = data(setting, x_shape)
    out, gin, gw, gb = loops(m, as_batch(x), as_batch(g))
    assert_module_matches(m, x, g, out.reshape(output_shape(setting, x_shape)), gin.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_matches_torch(setting):
    """kW*kH times torch's average pooling, scaled and shifted per plane."""
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting)
    kW, kH, dW, dH = setting
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.avg_pool2d(t, (kH, kW), (dH, dW)) * (kW * kH) * w.view(1, N_IN, 1, 1)
        + b.view(1, N_IN, 1, 1),
        x, g)


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 3, 4, 3)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_reset_draws_from_the_torch7_range():
    m = nn.SpatialSubSampling(200, 3, 2)
    bound = 1 / np.sqrt(3 * 2)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4


def test_repr():
    assert repr(make()) == "nn.SpatialSubSampling(3, 3x2, 2,1)"
    assert repr(nn.SpatialSubSampling(3, 2, 2)) == "nn.SpatialSubSampling(3, 2x2)"


def test_loads_from_torch7_fields(tmp_path):
    weight, bias = uniform((3,), 7), uniform((3,), 8)
    m = nn.load_lua(t7_object(tmp_path / "ss.t7", "nn.SpatialSubSampling", {
        "nInputPlane": 3.0, "kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "weight": weight, "bias": bias}))
    assert repr(m) == repr(make()) and isinstance(m.kW, int)
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    x = data()[0]
    np.testing.assert_array_equal(m.forward(x), want.forward(x))


# ---------------------------------------------------------------- bad input
def test_wrong_planes():
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_updateOutput: input must be 3D or 4D with 3 planes, "
                                        "got 3D of size [2, 5, 8]"):
        make().forward(np.zeros((2, 5, 8)))


def test_input_smaller_than_the_window():
    m = make()
    m.forward(np.zeros((3, 2, 3)))
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_updateOutput: input must be at least 2 high and 3 wide "
                                        "(the kernel), got 3D of size [3, 3, 2]"):
        m.forward(np.zeros((3, 3, 2)))


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 3, 4, 3], got 4D of size [2, 3, 3, 4]"):
        m.updateGradInput(x, np.zeros((2, 3, 3, 4)))


def test_parameters_of_the_wrong_size():
    m = make()
    m.bias = np.zeros(4)
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_updateOutput: bias must be 1D of size [3], "
                                        "got 1D of size [4]"):
        m.forward(data()[0])
    m = make()
    m.weight = np.zeros((3, 1))
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_updateOutput: weight must be 1D [nInputPlane], "
                                        "got 2D of size [3, 1]"):
        m.forward(data()[0])


def test_kernel_refuses_bad_settings():
    with raises_exactly(thnn.THNNError, "SpatialSubSampling_accGradParameters: stride must be positive, "
                                        "got dW=0, dH=1"):
        thnn.Double.SpatialSubSampling_accGradParameters(np.zeros((3, 5, 8)), np.zeros((3, 4, 3)), np.zeros(3),
                                                         np.zeros(3), 3, 2, 0, 1, 1.0)


def test_constructor_refuses_bad_settings():
    with raises_exactly(ValueError, "SpatialSubSampling: kW and kH must be at least 1, got kW=3, kH=0"):
        nn.SpatialSubSampling(3, 3, 0)


def test_threads_split_the_planes_without_changing_results():
    """8 samples x 16 planes x 3844 pixels x 9 taps: 4.4M additions per verb."""
    check_threads(lambda: nn.SpatialSubSampling(16, 3, 3, 1, 1), uniform((8, 16, 64, 64), 1),
                  uniform((8, 16, 62, 62), 2))
