"""nn_legacy.VolumetricConvolutionMM and the VolumetricConvolutionMM_*
kernels: VolumetricConvolution's math by vol2col + GEMM, with one sample's
columns in the buffers finput / fgradInput.
Its loop and torch references run with the family's, in test_VolumetricConvolution.py."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import check_properties
from layer_checks import raises_exactly
from volumetric_checks import SETTING_IDS, VOLUMETRIC_SETTINGS, check_empty_batch, volume_data

N_IN, N_OUT = 2, 3
SIZE = (4, 5, 6)                       # T, H, W


def make(settings=(2, 3, 1, 1, 2, 1, 1, 0, 1)):
    return nn.VolumetricConvolutionMM(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    return volume_data(m, N_IN, size, batch, seed)


@pytest.mark.parametrize("settings", VOLUMETRIC_SETTINGS, ids=SETTING_IDS)
def test_same_as_the_direct_kernels(settings):
    direct = nn.VolumetricConvolution(N_IN, N_OUT, *settings)
    m = make(settings)
    m.weight[...], m.bias[...] = direct.weight, direct.bias
    x, g = data(m)
    for a in (m, direct):
        a.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), direct.forward(x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), direct.backward(x, g), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, direct.gradWeight, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(m.gradBias, direct.gradBias, rtol=1e-12, atol=1e-13)


def test_properties():
    settings = VOLUMETRIC_SETTINGS[1]
    m = make(settings)
    check_properties(lambda: make(settings), *data(m, 2, (4, 4, 3)), *data(m, 1, (4, 4, 3), seed=5))


def test_buffers_hold_one_sample_of_columns_and_clear():
    m = make()                          # kernel 2x1x3 (T x H x W), output 5x7x2 voxels
    x, g = data(m, 4)
    m.backward(x, g)
    assert m.finput.shape == m.fgradInput.shape == (N_IN * 2 * 1 * 3, 5 * 7 * 2)
    finput = m.finput
    m.forward(x[:2])                    # another batch size: the same columns
    assert m.finput is finput
    m.clearState()
    assert m.finput is None and m.fgradInput is None and m.output is None
    np.testing.assert_array_equal(m.forward(x), make_like(m).forward(x))


def make_like(m):
    copy = make()
    copy.weight[...], copy.bias[...] = m.weight, m.bias
    return copy


def test_empty_batch():
    assert check_empty_batch(make(), (N_IN,) + SIZE) == (0, N_OUT, 5, 7, 2)


def test_kernel_takes_the_weight_as_a_matrix():
    m = make()
    x, g = data(m)
    flat = m.weight.reshape(N_OUT, -1)
    out, _ = thnn.Double.VolumetricConvolutionMM_updateOutput(x, None, flat, m.bias, None, 2, 3, 1, 1, 2, 1, 1, 0, 1)
    np.testing.assert_array_equal(out, m.forward(x))
    gw = np.zeros_like(flat)
    thnn.Double.VolumetricConvolutionMM_accGradParameters(x, g, gw, None, None, 2, 3, 1, 1, 2, 1, 1, 0, 1, 1.0)
    m.zeroGradParameters()
    m.backward(x, g)
    np.testing.assert_array_equal(gw, m.gradWeight.reshape(N_OUT, -1))


def test_weight_matrix_of_the_wrong_width():
    x = np.zeros((N_IN,) + SIZE)
    with raises_exactly(thnn.THNNError, "VolumetricConvolutionMM_updateOutput: weight must be 5D [nOutputPlane, "
                                        "nInputPlane, kT=2, kH=1, kW=3] or 2D [nOutputPlane, "
                                        "nInputPlane*kT*kH*kW] with kT*kH*kW = 6, got 2D of size [3, 13]"):
        thnn.Double.VolumetricConvolutionMM_updateOutput(x, None, np.zeros((N_OUT, 13)), None, None,
                                                         2, 3, 1, 1, 1, 1, 0, 0, 0)
    with raises_exactly(thnn.THNNError, "VolumetricConvolutionMM_updateOutput: input must be 4D [nInputPlane, T, "
                                        "H, W] or 5D [batch, nInputPlane, T, H, W] with 3 planes, got 4D of size "
                                        "[2, 4, 5, 6]"):
        thnn.Double.VolumetricConvolutionMM_updateOutput(x, None, np.zeros((N_OUT, 18)), None, None,
                                                         2, 3, 1, 1, 1, 1, 0, 0, 0)


def test_kernel_refuses_bad_settings():
    w, x = np.zeros((N_OUT, N_IN, 1, 1, 1)), np.zeros((N_IN, 3, 3, 3))
    with raises_exactly(thnn.THNNError, "VolumetricConvolutionMM_updateOutput: stride must be positive, got dT=0, "
                                        "dW=1, dH=1"):
        thnn.Double.VolumetricConvolutionMM_updateOutput(x, None, w, None, None, 1, 1, 1, 0, 1, 1, 0, 0, 0)
    with raises_exactly(thnn.THNNError, "VolumetricConvolutionMM_updateGradInput: padding must be at least 0, got "
                                        "padT=0, padW=-1, padH=0"):
        thnn.Double.VolumetricConvolutionMM_updateGradInput(x, x[:N_OUT - 1], None, w, None,
                                                            1, 1, 1, 1, 1, 1, 0, -1, 0)


def test_repr_and_isinstance():
    m = nn.VolumetricConvolutionMM(2, 3, 4, 5, 6, 1, 2, 3)
    assert repr(m) == "nn.VolumetricConvolutionMM(2 -> 3, 4x5x6, 1,2,3)"
    assert isinstance(m, nn.VolumetricConvolution)
