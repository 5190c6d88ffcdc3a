"""nn_legacy.VolumetricDilatedConvolution and its kernels: VolumetricConvolution
with the taps dilationT frames, dilationH rows and dilationW columns apart."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import assert_module_matches, assert_module_matches_torch, check_properties
from layer_checks import raises_exactly, uniform
from volumetric_checks import as_batch, check_empty_batch, conv3d_loops, memory_order, save_and_load, torch7

N_IN, N_OUT = 2, 3
SIZE = (5, 6, 7)                       # T, H, W
# (kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH)
SETTINGS = [
    (2, 3, 2, 1, 1, 1, 0, 0, 0, 2, 1, 3),
    (2, 2, 3, 2, 1, 2, 1, 2, 0, 1, 3, 2),
    (3, 1, 2, 1, 2, 1, 2, 0, 1, 2, 2, 1),
    (1, 2, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1),   # dilation 1: VolumetricConvolution
]
IDS = ["k232-dil213", "k223-d212-p120-dil132", "k312-d121-p201-dil221", "dil111"]


def make(settings=SETTINGS[1]):
    return nn.VolumetricDilatedConvolution(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    shape = ((batch,) if batch is not None else ()) + (N_IN,) + size
    x = uniform(shape, seed)
    return x, uniform(m.forward(x).shape, seed + 1)


def dilation(settings):
    """(dilationT, dilationH, dilationW): memory order."""
    return settings[9], settings[11], settings[10]


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("batch", [None, 2], ids=["4D", "5D"])
def test_forward_and_backward_match_loops(settings, batch):
    m = make(settings)
    x, g = data(m, batch)
    k, step, pad = memory_order(*settings[:9])
    out, gx, gw, gb = conv3d_loops(as_batch(x), m.weight, m.bias, as_batch(g), step, pad, dilation(settings))
    assert_module_matches(m, x, g, out.reshape(g.shape), gx.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_matches_torch_conv3d(settings):
    torch = pytest.importorskip("torch")
    m = make(settings)
    x, g = data(m)
    k, step, pad = memory_order(*settings[:9])
    assert_module_matches_torch(
        m, lambda t, w, b: torch.nn.functional.conv3d(t, w, b, stride=step, padding=pad, dilation=dilation(settings)),
        x, g)


def test_dilation_one_is_VolumetricConvolution():
    m = make(SETTINGS[3])
    plain = nn.VolumetricConvolution(N_IN, N_OUT, *SETTINGS[3][:9])
    plain.weight[...], plain.bias[...] = m.weight, m.bias
    x, g = data(m)
    np.testing.assert_allclose(m.forward(x), plain.forward(x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), plain.backward(x, g), rtol=1e-12, atol=1e-14)


def test_properties():
    m = make(SETTINGS[0])
    check_properties(lambda: make(SETTINGS[0]), *data(m, 2, (4, 5, 4)), *data(m, 1, (4, 5, 4), seed=5))


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
                       "dilationH"), map(float, SETTINGS[1])))
    saved = torch7("nn.VolumetricDilatedConvolution", nInputPlane=2.0, nOutputPlane=3.0, weight=fresh.weight,
                   bias=fresh.bias, gradWeight=fresh.weight, gradBias=fresh.bias, finput=np.zeros(3), **fields)
    loaded = save_and_load(tmp_path, saved)
    assert repr(loaded) == repr(fresh) and loaded.finput is None
    x = uniform((N_IN,) + SIZE)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
