"""nn_legacy.VolumetricDilatedConvolution and its kernels: VolumetricConvolution
with the taps dilationT frames, dilationH rows and dilationW columns apart.
Its loop and torch references run with the family's, in test_VolumetricConvolution.py."""
import numpy as np

import nn_legacy as nn
import thnn
from conv_checks import check_properties
from layer_checks import raises_exactly, uniform
from volumetric_checks import DILATED_SETTINGS, check_empty_batch, save_and_load, torch7, volume_data

N_IN, N_OUT = 2, 3
SIZE = (5, 6, 7)                       # T, H, W


def make(settings=DILATED_SETTINGS[1]):
    return nn.VolumetricDilatedConvolution(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    return volume_data(m, N_IN, size, batch, seed)


def test_dilation_one_is_VolumetricConvolution():
    m = make(DILATED_SETTINGS[3])
    plain = nn.VolumetricConvolution(N_IN, N_OUT, *DILATED_SETTINGS[3][:9])
    plain.weight[...], plain.bias[...] = m.weight, m.bias
    x, g = data(m)
    np.testing.assert_allclose(m.forward(x), plain.forward(x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), plain.backward(x, g), rtol=1e-12, atol=1e-14)


def test_properties():
    m = make(DILATED_SETTINGS[0])
    check_properties(lambda: make(DILATED_SETTINGS[0]), *data(m, 2, (4, 5, 4)), *data(m, 1, (4, 5, 4), seed=5))


def test_empty_batch():
    assert check_empty_batch(make(), (N_IN,) + SIZE) == (0, N_OUT, 3, 1, 8)


def test_defaults_and_repr():
    m = nn.VolumetricDilatedConvolution(2, 3, 3, 2, 1)
    assert (m.dilationT, m.dilationW, m.dilationH) == (1, 1, 1) and m.weight.shape == (3, 2, 3, 1, 2)
    assert repr(m) == "nn.VolumetricDilatedConvolution(2 -> 3, 3x2x1, 1,1,1)"
    assert repr(make()) == "nn.VolumetricDilatedConvolution(2 -> 3, 2x2x3, 2,1,2, 1,2,0, 1,3,2)"
    assert isinstance(m, nn.VolumetricConvolution)


def test_constructor_refuses_bad_dilations():
    with raises_exactly(ValueError, "VolumetricDilatedConvolution: dilationT, dilationW, dilationH must be positive "
                                    "integers, got dilationT=1, dilationW=0, dilationH=2"):
        nn.VolumetricDilatedConvolution(2, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 2)


def test_kernel_refuses_bad_dilations():
    w, x = np.zeros((N_OUT, N_IN, 1, 1, 1)), np.zeros((N_IN, 3, 3, 3))
    with raises_exactly(thnn.THNNError, "VolumetricDilatedConvolution_updateOutput: dilation must be positive, got "
                                        "dilationT=1, dilationW=1, dilationH=-1"):
        thnn.Double.VolumetricDilatedConvolution_updateOutput(x, None, w, None, None, 1, 1, 1, 1, 1, 1, 0, 0, 0,
                                                              1, 1, -1)


def test_input_smaller_than_the_dilated_kernel():
    m = make()      # spans: T 2, H (3-1)*2+1 = 5, W (2-1)*3+1 = 4; pads T 1, H 0, W 2
    with raises_exactly(thnn.THNNError, "VolumetricDilatedConvolution_updateOutput: input must be at least "
                                        "1 x 5 x 1 (T x H x W) for this kernel, padding and dilation, got 4D of "
                                        "size [2, 1, 4, 1]"):
        m.forward(np.zeros((N_IN, 1, 4, 1)))
    assert m.forward(np.zeros((N_IN, 1, 5, 1))).shape == (N_OUT, 1, 1, 2)


def test_a_torch7_file_loads(tmp_path):
    fresh = make()
    fields = dict(zip(("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH", "dilationT", "dilationW",
                       "dilationH"), map(float, DILATED_SETTINGS[1])))
    saved = torch7("nn.VolumetricDilatedConvolution", nInputPlane=2.0, nOutputPlane=3.0, weight=fresh.weight,
                   bias=fresh.bias, gradWeight=fresh.weight, gradBias=fresh.bias, finput=np.zeros(3), **fields)
    loaded = save_and_load(tmp_path, saved)
    assert repr(loaded) == repr(fresh) and loaded.finput is None
    x = uniform((N_IN,) + SIZE)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
