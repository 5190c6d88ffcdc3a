"""nn_legacy.VolumetricFullConvolution and its kernels, the transpose of
VolumetricConvolution:
output[o, t*dT - padT + a, y*dH - padH + b, x*dW - padW + e] += weight[c, o, a, b, e] * input[c, t, y, x].
Its loop and torch references run with the family's, in test_VolumetricConvolution.py."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import check_properties
from layer_checks import raises_exactly, uniform
from volumetric_checks import FULL_SETTINGS, check_empty_batch, save_and_load, torch7, volume_data

N_IN, N_OUT = 2, 3
SIZE = (3, 4, 2)                       # T, H, W


def make(settings=FULL_SETTINGS[1]):
    return nn.VolumetricFullConvolution(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    return volume_data(m, N_IN, size, batch, seed)


def test_is_the_transpose_of_VolumetricConvolution():
    """<conv(x), y> = <x, full(y)> with the same weight: the full convolution
    is the adjoint of the convolution (the input sizes the adj reach)."""
    settings = FULL_SETTINGS[1]
    full = make(settings).noBias()
    conv = nn.VolumetricConvolution(N_OUT, N_IN, *settings[:9]).noBias()
    conv.weight[...] = full.weight
    y = uniform((2, N_IN) + SIZE, 3)
    x = uniform(full.forward(y).shape, 4)
    assert conv.forward(x).shape == y.shape
    np.testing.assert_allclose(np.vdot(conv.forward(x), y), np.vdot(x, full.forward(y)), rtol=1e-12)


def test_properties():
    m = make(FULL_SETTINGS[3])
    check_properties(lambda: make(FULL_SETTINGS[3]), *data(m, 2, (2, 3, 2)), *data(m, 1, (2, 3, 2), seed=5))


def test_empty_batch():
    assert check_empty_batch(make(), (N_IN,) + SIZE) == (0, N_OUT, 6, 11, 2)


def test_defaults_layout_and_reset():
    m = nn.VolumetricFullConvolution(4, 5, 3, 2, 1)
    assert (m.dT, m.dW, m.dH, m.padT, m.padW, m.padH, m.adjT, m.adjW, m.adjH) == (1, 1, 1, 0, 0, 0, 0, 0, 0)
    assert m.weight.shape == m.gradWeight.shape == (4, 5, 3, 1, 2) and m.bias.shape == (5,)
    bound = 1 / np.sqrt(3 * 2 * 1 * 4)
    assert np.all(np.abs(m.weight) <= bound) and m.weight.std() > bound / 4


def test_repr():
    """Torch7 prints this layer width first: kW x kH x kT, then dW,dH,dT and so on."""
    assert repr(nn.VolumetricFullConvolution(2, 3, 4, 5, 6)) == "nn.VolumetricFullConvolution(2 -> 3, 5x6x4)"
    assert repr(make()) == "nn.VolumetricFullConvolution(2 -> 3, 1x2x3, 1,3,2, 0,1,1, 0,2,1)"
    assert repr(make().noBias()).endswith(" without bias")


@pytest.mark.parametrize("args, message", [
    ((2, 3, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 2, 1), "adjT, adjW, adjH must be smaller than the stride, got adjT=1, "
                                                 "adjW=2, adjH=1, dT=2, dW=2, dH=2"),
    ((2, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, -1), "adjT, adjW, adjH must be non-negative integers, got adjT=-1, adjW=0, "
                                            "adjH=0"),
])
def test_constructor_refuses_bad_adj(args, message):
    with raises_exactly(ValueError, "VolumetricFullConvolution: " + message):
        nn.VolumetricFullConvolution(*args)


def test_kernel_refuses_bad_adj():
    w, x = np.zeros((N_IN, N_OUT, 1, 1, 1)), np.zeros((N_IN, 3, 3, 3))
    with raises_exactly(thnn.THNNError, "VolumetricFullConvolution_updateOutput: output padding must be at least 0 "
                                        "and smaller than the stride or the dilation, got adjT=0, adjW=2, adjH=0 "
                                        "with dT=1, dW=2, dH=1, dilationT=1, dilationW=1, dilationH=1"):
        thnn.Double.VolumetricFullConvolution_updateOutput(x, None, w, None, None, 1, 1, 1, 1, 2, 1, 0, 0, 0,
                                                           0, 2, 0)


def test_output_that_would_be_empty():
    m = nn.VolumetricFullConvolution(N_IN, N_OUT, 1, 2, 1, 1, 1, 1, 0, 1, 1)   # W: (w-1) - 2 + 2, H: (h-1) - 2 + 1
    with raises_exactly(thnn.THNNError, "VolumetricFullConvolution_updateOutput: input must be large enough for an "
                                        "output of at least 1 x 1 x 1 (it would be 3 x 0 x 2, T x H x W), got 4D of "
                                        "size [2, 3, 2, 3]"):
        m.forward(np.zeros((N_IN, 3, 2, 3)))
    assert m.forward(np.zeros((N_IN, 3, 3, 3))).shape == (N_OUT, 3, 1, 2)


def test_weight_with_the_planes_swapped():
    x, w = np.zeros((N_IN,) + SIZE), np.zeros((N_OUT, N_IN, 1, 1, 1))
    with raises_exactly(thnn.THNNError, "VolumetricFullConvolution_updateOutput: input must be 4D [nInputPlane, T, "
                                        "H, W] or 5D [batch, nInputPlane, T, H, W] with 3 planes, got 4D of size "
                                        "[2, 3, 4, 2]"):
        thnn.Double.VolumetricFullConvolution_updateOutput(x, None, w, None, None, 1, 1, 1, 1, 1, 1, 0, 0, 0,
                                                           0, 0, 0)


def test_mismatched_gradOutput():
    m = make()
    x = uniform((N_IN,) + SIZE)
    assert m.forward(x).shape == (N_OUT, 6, 11, 2)
    with raises_exactly(thnn.THNNError, "VolumetricFullConvolution_updateGradInput: gradOutput must be 4D of size "
                                        "[3, 6, 11, 2], got 4D of size [3, 6, 2, 11]"):
        m.backward(x, np.zeros((N_OUT, 6, 2, 11)))


def test_a_torch7_file_loads(tmp_path):
    fresh = make()
    fields = dict(zip(("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH", "adjT", "adjW", "adjH"),
                      map(float, FULL_SETTINGS[1])))
    saved = torch7("nn.VolumetricFullConvolution", nInputPlane=2.0, nOutputPlane=3.0, weight=fresh.weight,
                   bias=fresh.bias, gradWeight=fresh.weight, gradBias=fresh.bias, finput=np.zeros(3),
                   fgradInput=np.zeros(3), **fields)
    loaded = save_and_load(tmp_path, saved)
    assert repr(loaded) == repr(fresh) and loaded.finput is None and loaded.fgradInput is None
    x = uniform((N_IN,) + SIZE)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))


def test_an_old_torch7_file_loads(tmp_path):
    """Files older than adj: the weight [nOutputPlane, nInputPlane, kT, kH, kW]
    and the pads named pT, pW, pH (Torch7's backCompatibility)."""
    fresh = nn.VolumetricFullConvolution(N_IN, N_OUT, 3, 1, 2, 2, 1, 3, 1, 0, 1)
    old_weight = fresh.weight.transpose(1, 0, 2, 3, 4).copy()
    saved = torch7("nn.VolumetricFullConvolution", nInputPlane=2.0, nOutputPlane=3.0, kT=3.0, kW=1.0, kH=2.0,
                   dT=2.0, dW=1.0, dH=3.0, pT=1.0, pW=0.0, pH=1.0, weight=old_weight, bias=fresh.bias,
                   gradWeight=old_weight, gradBias=fresh.bias)
    loaded = save_and_load(tmp_path, saved)
    assert (loaded.padT, loaded.padW, loaded.padH, loaded.adjT, loaded.adjW, loaded.adjH) == (1, 0, 1, 0, 0, 0)
    assert not hasattr(loaded, "pT")
    x, g = data(fresh)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))
