"""nn_legacy.SpatialConvolutionMM: SpatialConvolution with Torch7's 2D weight
[nOutputPlane, nInputPlane*kH*kW] (the kernels take either layout)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, check_empty_batch, check_properties, conv_loops, t7_object)
from layer_checks import raises_exactly, uniform

SETTING = (3, 4, 3, 2, 2, 1, 1, 0)   # nIn, nOut, kW, kH, dW, dH, padW, padH


def make():
    return nn.SpatialConvolutionMM(*SETTING)


def data(batch=2, seed=1):
    return uniform((batch, 3, 6, 7), seed), uniform((batch, 4, 5, 4), seed + 1)


def test_weight_is_the_torch7_matrix():
    m = make()
    assert m.weight.shape == (4, 3 * 2 * 3) and m.gradWeight.shape == (4, 18)


@pytest.mark.parametrize("batched", [True, False])
def test_matches_loops(batched):
    m = make()
    x, g = data()
    if not batched:
        x, g = x[1], g[1]
    out, gin, gw, gb = conv_loops(as_batch(x), m.weight.reshape(4, 3, 2, 3), m.bias, as_batch(g), 2, 1, 1, 0)
    assert_module_matches(m, x, g, out.reshape((-1, 4, 5, 4)[-x.ndim:]), gin.reshape(x.shape), gw, gb)


def test_same_as_SpatialConvolution_with_the_weight_reshaped():
    mm, conv = make(), nn.SpatialConvolution(*SETTING)
    conv.weight[...] = mm.weight.reshape(conv.weight.shape)
    conv.bias[...] = mm.bias
    x, g = data()
    np.testing.assert_array_equal(mm.forward(x), conv.forward(x))
    np.testing.assert_array_equal(mm.backward(x, g), conv.backward(x, g))
    np.testing.assert_array_equal(mm.gradWeight, conv.gradWeight.reshape(mm.gradWeight.shape))


def test_empty_batch():
    assert check_empty_batch(make(), (3, 6, 7)) == (0, 4, 5, 4)


def test_layer_properties():
    x, g = data()
    xs, gs = data(1, seed=5)
    check_properties(make, x, g, xs, gs)


def test_repr():
    assert repr(make()) == "nn.SpatialConvolutionMM(3 -> 4, 3x2, 2,1, 1,0)"


def test_loads_a_torch7_file_with_its_2d_weight(tmp_path):
    weight, bias = uniform((4, 18), 7), uniform((4,), 8)
    path = t7_object(tmp_path / "mm.t7", "nn.SpatialConvolutionMM", {
        "nInputPlane": 3.0, "nOutputPlane": 4.0, "kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0,
        "padW": 1.0, "padH": 0.0, "weight": weight, "bias": bias, "finput": np.zeros((2, 18, 20))})
    m = nn.load_lua(path)
    assert isinstance(m, nn.SpatialConvolutionMM) and m.finput is None
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    x = data()[0]
    np.testing.assert_array_equal(m.forward(x), want.forward(x))


def test_2d_weight_whose_width_is_not_a_multiple_of_the_kernel():
    m = make()
    m.weight = np.zeros((4, 17))
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateOutput: weight must be 4D [nOutputPlane, "
                                        "nInputPlane, kH=2, kW=3] or 2D [nOutputPlane, nInputPlane*6], "
                                        "got 2D of size [4, 17]"):
        m.forward(data()[0])


def test_2d_weight_for_other_planes():
    m = make()
    m.weight = np.zeros((4, 12))
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMM_updateOutput: input must be 3D or 4D with 2 planes, "
                                        "got 4D of size [2, 3, 6, 7]"):
        m.forward(data()[0])
