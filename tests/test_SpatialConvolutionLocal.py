"""nn_legacy.SpatialConvolutionLocal and its kernels: a kernel of its own at
every output pixel,
output[o, y, x] = bias[o, y, x] + sum weight[y, x, o, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import assert_module_matches, check_properties
from layer_checks import raises_exactly, uniform
from volumetric_checks import as_image_batch, check_empty_batch, local_loops, save_and_load, torch7

N_IN, N_OUT = 2, 3
# (iW, iH, kW, kH, dW, dH, padW, padH): width and height always different
SETTINGS = [
    (5, 4, 3, 2, 1, 1, 0, 0),
    (6, 5, 2, 3, 2, 1, 1, 0),
    (4, 6, 1, 2, 1, 2, 0, 1),
    (3, 4, 3, 4, 1, 1, 0, 0),       # a kernel as large as the image: one output pixel
]
IDS = ["i54-k32", "i65-k23-d21-p10", "i46-k12-d12-p01", "whole-image"]


def make(settings=SETTINGS[1]):
    return nn.SpatialConvolutionLocal(N_IN, N_OUT, *settings)


def data(m, batch=2, seed=1):
    shape = ((batch,) if batch is not None else ()) + (N_IN, m.iH, m.iW)
    x = uniform(shape, seed)
    return x, uniform(m.forward(x).shape, seed + 1)


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("batch", [None, 2], ids=["3D", "4D"])
def test_forward_and_backward_match_loops(settings, batch):
    m = make(settings)
    x, g = data(m, batch)
    out, gx, gw, gb = local_loops(as_image_batch(x), m.weight, m.bias, as_image_batch(g), *settings[4:])
    assert_module_matches(m, x, g, out.reshape(g.shape), gx.reshape(x.shape), gw, gb)


def test_shapes_and_layout():
    m = make()                       # iW 6, iH 5, kW 2, kH 3, dW 2, dH 1, padW 1, padH 0
    assert (m.oW, m.oH) == (4, 3)
    assert m.weight.shape == m.gradWeight.shape == (3, 4, N_OUT, N_IN, 3, 2)
    assert m.bias.shape == m.gradBias.shape == (N_OUT, 3, 4)
    x, _ = data(m)
    assert m.forward(x).shape == (2, N_OUT, 3, 4)


def test_each_pixel_uses_only_its_own_weights():
    m = make()
    x, _ = data(m)
    base = m.forward(x).copy()
    m.weight[1, 2] += 1.0            # the kernel of output pixel (y=1, x=2)
    changed = np.argwhere(np.any(m.forward(x) != base, axis=(0, 1)))
    assert changed.tolist() == [[1, 2]]


def test_with_shared_weights_it_is_a_convolution():
    torch = pytest.importorskip("torch")
    m = make()
    shared = uniform((N_OUT, N_IN, 3, 2), 9)
    m.weight[...] = shared
    m.bias[...] = uniform(N_OUT, 10)[:, None, None]
    x, _ = data(m)
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(shared), torch.from_numpy(m.bias[:, 0, 0]),
                                      stride=(1, 2), padding=(0, 1)).numpy()
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-12, atol=1e-14)


def test_properties():
    m = make(SETTINGS[2])
    check_properties(lambda: make(SETTINGS[2]), *data(m, 2), *data(m, 1, seed=5))


def test_empty_batch():
    m = make()
    assert check_empty_batch(m, (N_IN, m.iH, m.iW)) == (0, N_OUT, 3, 4)


def test_reset_and_repr():
    m = nn.SpatialConvolutionLocal(4, 30, 6, 5, 3, 2)
    bound = 1 / np.sqrt(3 * 2 * 4)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound) and m.weight.std() > bound / 4
    assert (m.dW, m.dH, m.padW, m.padH) == (1, 1, 0, 0)
    assert repr(m) == "nn.SpatialConvolutionLocal(4 -> 30, 6x5, 3x2)"
    assert repr(make()) == "nn.SpatialConvolutionLocal(2 -> 3, 6x5, 2x3, 2,1, 1,0)"
    assert nn.SpatialConvolutionLocal(1, 1, 4, 4, 3, 3, 1, 1, 2).padH == 2      # padH defaults to padW


@pytest.mark.parametrize("args, error, message", [
    ((2, 3, 3, 4, 4, 2), ValueError, "the padded input (3+2*0 wide, 4+2*0 high) must be at least as large as the "
                                     "kernel (4x2)"),
    ((2, 3, 5, 4, 0, 2), ValueError, "kW, kH must be positive integers, got kW=0, kH=2"),
    ((2, 3, 5, 4, 3, 2, 1, 1, -1), ValueError, "padW, padH must be non-negative integers, got padW=-1, padH=-1"),
])
def test_constructor_refuses_bad_settings(args, error, message):
    with raises_exactly(error, "SpatialConvolutionLocal: " + message):
        nn.SpatialConvolutionLocal(*args)


@pytest.mark.parametrize("shape, described", [
    ((N_IN, 6, 5), "3D of size [2, 6, 5]"),          # height and width swapped
    ((2, N_IN + 1, 5, 6), "4D of size [2, 3, 5, 6]"),
    ((N_IN, 5), "2D of size [2, 5]"),
])
def test_input_of_another_size(shape, described):
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: input must be 3D [nInputPlane=2, "
                                        "iH=5, iW=6] or 4D [batch, 2, 5, 6], got " + described):
        make().forward(np.zeros(shape))


def test_kernel_checks_the_output_size_and_weight():
    m = make()
    x = np.zeros((N_IN, 5, 6))
    args = (2, 3, 2, 1, 1, 0, 6, 5)
    k = thnn.Double
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: outputWidth and outputHeight must be "
                                        "4 and 3 for this input size, kernel, stride and padding, got 3 and 4"):
        k.SpatialConvolutionLocal_updateOutput(x, None, m.weight, m.bias, *args, 3, 4)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: weight must be 6D [oH=3, oW=4, "
                                        "nOutputPlane, nInputPlane, kH=3, kW=2] or 3D [oH*oW=12, nOutputPlane, "
                                        "nInputPlane*kH*kW], got 6D of size [4, 3, 3, 2, 3, 2]"):
        k.SpatialConvolutionLocal_updateOutput(x, None, m.weight.transpose(1, 0, 2, 3, 4, 5), m.bias, *args, 4, 3)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: bias must be 3D of size [3, 3, 4], "
                                        "got 3D of size [3, 4, 3]"):
        k.SpatialConvolutionLocal_updateOutput(x, None, m.weight, m.bias.transpose(0, 2, 1), *args, 4, 3)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: stride must be positive, got dW=0, "
                                        "dH=1"):
        k.SpatialConvolutionLocal_updateOutput(x, None, m.weight, m.bias, 2, 3, 0, 1, 1, 0, 6, 5, 4, 3)
    flat = m.weight.reshape(12, N_OUT, -1)         # Torch7's 3D view is taken too
    out = k.SpatialConvolutionLocal_updateOutput(x + 1, None, flat, m.bias, *args, 4, 3)
    np.testing.assert_array_equal(out, m.forward(x + 1))


def test_mismatched_gradOutput():
    m = make()
    x, _ = data(m)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_accGradParameters: gradOutput must be 4D of size "
                                        "[2, 3, 3, 4], got 4D of size [2, 3, 4, 3]"):
        m.accGradParameters(x, np.zeros((2, N_OUT, 4, 3)))


def test_a_torch7_file_loads(tmp_path):
    fresh = make()
    fields = dict(zip(("iW", "iH", "kW", "kH", "dW", "dH", "padW", "padH"), map(float, SETTINGS[1])))
    saved = torch7("nn.SpatialConvolutionLocal", nInputPlane=2.0, nOutputPlane=3.0, oW=4.0, oH=3.0,
                   weight=fresh.weight.reshape(12, N_OUT, -1), bias=fresh.bias, gradWeight=fresh.weight,
                   gradBias=fresh.bias, finput=np.zeros(2), fgradInput=np.zeros(2), **fields)
    loaded = save_and_load(tmp_path, saved)
    assert repr(loaded) == repr(fresh) and loaded.weight.shape == fresh.weight.shape
    assert not hasattr(loaded, "finput")
    x, g = data(fresh)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))


def test_input_sizes_that_would_overflow_raise():
    with raises_exactly(thnn.THNNError, "SpatialConvolutionLocal_updateOutput: inputWidth and inputHeight must be "
                                        "positive sizes, got 4611686018427387904 and 2"):
        thnn.Double.SpatialConvolutionLocal_updateOutput(np.zeros((1, 2, 2)), None, np.zeros((1, 1, 1, 1, 1, 1)),
                                                         np.zeros((1, 1, 1)), 1, 1, 1, 1, 0, 0, 2 ** 62, 2, 1, 1)
