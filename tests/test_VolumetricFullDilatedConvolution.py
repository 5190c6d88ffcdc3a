"""nn_legacy.VolumetricFullDilatedConvolution and its kernels: the transpose
of VolumetricDilatedConvolution (taps dilation apart, adj below the stride or
the dilation).
Its loop and torch references run with the family's, in test_VolumetricConvolution.py."""
import numpy as np

import nn_legacy as nn
import thnn
from conv_checks import check_properties
from layer_checks import raises_exactly, uniform
from volumetric_checks import FULL_DILATED_SETTINGS, check_empty_batch, save_and_load, torch7, volume_data

N_IN, N_OUT = 2, 3
SIZE = (3, 2, 4)                       # T, H, W


def make(settings=FULL_DILATED_SETTINGS[1]):
    return nn.VolumetricFullDilatedConvolution(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    return volume_data(m, N_IN, size, batch, seed)


def test_dilation_one_is_VolumetricFullConvolution():
    s = FULL_DILATED_SETTINGS[3]
    m = make(s)
    plain = nn.VolumetricFullConvolution(N_IN, N_OUT, *s[:9], *s[12:])
    plain.weight[...], plain.bias[...] = m.weight, m.bias
    x, g = data(m)
    np.testing.assert_array_equal(m.forward(x), plain.forward(x))
    np.testing.assert_array_equal(m.backward(x, g), plain.backward(x, g))


def test_properties():
    m = make(FULL_DILATED_SETTINGS[2])
    check_properties(lambda: make(FULL_DILATED_SETTINGS[2]), *data(m, 2, (2, 2, 3)), *data(m, 1, (2, 2, 3), seed=5))


def test_empty_batch():
    assert check_empty_batch(make(), (N_IN,) + SIZE) == (0, N_OUT, 5, 8, 3)


def test_repr_and_defaults():
    m = nn.VolumetricFullDilatedConvolution(2, 3, 3, 2, 1)
    assert (m.dilationT, m.dilationW, m.dilationH) == (1, 1, 1)
    assert repr(m) == "nn.VolumetricFullDilatedConvolution(2 -> 3, 2x1x3, dilation 1,1,1)"
    assert repr(make()) == "nn.VolumetricFullDilatedConvolution(2 -> 3, 2x3x2, 1,2,2, 2,0,1, 0,1,1, dilation 3,2,1)"


def test_adj_below_the_dilation_but_not_the_stride():
    with raises_exactly(ValueError, "VolumetricFullDilatedConvolution: adjT, adjW, adjH must be smaller than the "
                                    "stride or the dilation, got adjT=0, adjW=0, adjH=3, dT=1, dW=1, dH=1, "
                                    "dilationT=2, dilationW=1, dilationH=3"):
        nn.VolumetricFullDilatedConvolution(2, 3, 2, 3, 2, 1, 1, 1, 0, 0, 0, 2, 1, 3, 0, 0, 3)
    m = make(FULL_DILATED_SETTINGS[0])          # adjH = 2 with dH = 1: the output has rows no input voxel reaches
    out = m.forward(uniform((N_IN,) + SIZE))
    np.testing.assert_array_equal(out[:, :, -1, :], np.broadcast_to(m.bias[:, None, None], out[:, :, -1, :].shape))


def test_kernel_refuses_bad_adj():
    w, x = np.zeros((N_IN, N_OUT, 1, 1, 1)), np.zeros((N_IN, 3, 3, 3))
    with raises_exactly(thnn.THNNError, "VolumetricFullDilatedConvolution_accGradParameters: output padding must be "
                                        "at least 0 and smaller than the stride or the dilation, got adjT=0, "
                                        "adjW=0, adjH=-1 with dT=1, dW=1, dH=1, dilationT=1, dilationW=1, "
                                        "dilationH=1"):
        thnn.Double.VolumetricFullDilatedConvolution_accGradParameters(x, x, w.copy(), None, None, 1, 1, 1, 1, 1, 1,
                                                                       0, 0, 0, 1, 1, 1, 0, 0, -1, 1.0)


def test_a_torch7_file_loads(tmp_path):
    fresh = make()
    fields = dict(zip(("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH", "dilationT", "dilationW",
                       "dilationH", "adjT", "adjW", "adjH"), map(float, FULL_DILATED_SETTINGS[1])))
    saved = torch7("nn.VolumetricFullDilatedConvolution", nInputPlane=2.0, nOutputPlane=3.0, weight=fresh.weight,
                   bias=fresh.bias, gradWeight=fresh.weight, gradBias=fresh.bias, **fields)
    loaded = save_and_load(tmp_path, saved)
    assert repr(loaded) == repr(fresh)
    x = uniform((N_IN,) + SIZE)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
