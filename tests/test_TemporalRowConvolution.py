"""nn_legacy.TemporalRowConvolution and the TemporalRowConvolution_* kernels:
y[t, c] = b[c] + sum_{k<kW} w[c, 0, k] x[t*dW + k, c] (a depth-wise 1D convolution)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (noncontiguous_views, raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)

N_IN = 3
WINDOWS = [(3, 1), (3, 2), (2, 3), (1, 1)]
WINDOW_IDS = ["k3d1", "k3d2", "k2d3", "k1d1"]


def make(kW=3, dW=2, featFirst=False, bias=True):
    m = nn.TemporalRowConvolution(N_IN, kW, dW, featFirst)
    return m if bias else m.noBias()


def n_out(n_frames, kW, dW):
    return (n_frames - kW) // dW + 1


def frames_last(a, featFirst):
    """[..., frames, features] view of an array in the module's layout."""
    return np.swapaxes(a, -1, -2) if featFirst else a


def numpy_forward(m, x):
    xt = frames_last(x, m.featFirst)
    bias = m.bias if m.bias is not None else 0
    y = np.stack([np.einsum("...kc,ck->...c", xt[..., t * m.dW:t * m.dW + m.kW, :], m.weight[:, 0, :]) + bias
                  for t in range(n_out(xt.shape[-2], m.kW, m.dW))], axis=-2)
    return frames_last(y, m.featFirst)


def numpy_backward(m, x, g, scale=1.0):
    xt, gt = frames_last(x, m.featFirst), frames_last(g, m.featFirst)
    gin = np.zeros_like(xt)
    gw = np.zeros_like(m.weight)
    for t in range(gt.shape[-2]):
        window = slice(t * m.dW, t * m.dW + m.kW)
        gin[..., window, :] += gt[..., t, None, :] * m.weight[:, 0, :].T
        gw[:, 0, :] += scale * np.einsum("bc,bkc->ck", gt[..., t, :].reshape(-1, N_IN),
                                         xt[..., window, :].reshape(-1, m.kW, N_IN))
    gb = scale * gt.reshape(-1, N_IN).sum(axis=0)
    return frames_last(gin, m.featFirst), gw, gb


def data(shape, kW, dW, featFirst=False, seed=1):
    """x and a gradOutput for it, both in the module's layout."""
    T = shape[-1] if featFirst else shape[-2]
    out_shape = list(shape)
    out_shape[-1 if featFirst else -2] = n_out(T, kW, dW)
    return uniform(shape, seed), uniform(tuple(out_shape), seed + 1)


LAYOUTS = [((10, N_IN), False), ((2, 10, N_IN), False), ((N_IN, 10), True), ((2, N_IN, 10), True)]
LAYOUT_IDS = ["2D", "3D", "2D-featFirst", "3D-featFirst"]


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("shape, featFirst", LAYOUTS, ids=LAYOUT_IDS)
def test_forward_and_backward_match_numpy(shape, featFirst, kW, dW):
    m = make(kW, dW, featFirst)
    x, g = data(shape, kW, dW, featFirst)
    out = m.forward(x)
    assert out.shape == g.shape and out.flags.c_contiguous
    np.testing.assert_allclose(out, numpy_forward(m, x), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    want_gin, want_gw, want_gb = numpy_backward(m, x, g, 0.5)
    np.testing.assert_allclose(m.backward(x, g, 0.5), want_gin, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-13, atol=1e-14)


def test_without_bias():
    m = make(bias=False)
    x, g = data((2, 9, N_IN), 3, 2)
    np.testing.assert_allclose(m.forward(x), numpy_forward(m, x), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    want_gin, want_gw, _ = numpy_backward(m, x, g)
    np.testing.assert_allclose(m.backward(x, g), want_gin, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-13, atol=1e-14)
    assert len(m.parameters()[0]) == 1
    assert repr(m) == "nn.TemporalRowConvolution(3, kW=3, dW=2, without bias)"


def test_featFirst_is_the_transpose_of_frames_first():
    a, b = make(3, 2), make(3, 2, featFirst=True)
    b.weight[...], b.bias[...] = a.weight, a.bias
    x, g = data((2, 9, N_IN), 3, 2)
    np.testing.assert_array_equal(b.forward(np.swapaxes(x, 1, 2).copy()), np.swapaxes(a.forward(x), 1, 2))
    np.testing.assert_array_equal(b.backward(np.swapaxes(x, 1, 2).copy(), np.swapaxes(g, 1, 2).copy()),
                                  np.swapaxes(a.backward(x, g), 1, 2))


@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("featFirst", [False, True], ids=["framesFirst", "featFirst"])
def test_matches_torch_depthwise_conv1d(featFirst, kW, dW):
    torch = torch_or_skip()
    m = make(kW, dW, featFirst)
    x, g = data((2, N_IN, 10) if featFirst else (2, 10, N_IN), kW, dW, featFirst)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)

    def conv(t):
        t = t if featFirst else t.transpose(1, 2)
        y = torch.nn.functional.conv1d(t, w, b, stride=dW, groups=N_IN)
        return y if featFirst else y.transpose(1, 2)
    out, gin = torch_forward_backward(conv, x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch7_range():
    m = nn.TemporalRowConvolution(50, 4)
    bound = 1 / np.sqrt(50 * 4)
    assert m.weight.shape == (50, 1, 4) and m.dW == 1 and not m.featFirst
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01) and np.all(np.abs(m.bias) <= 0.01)


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
def test_noncontiguous_weight_and_bias():
    m = make()
    x, g = data((2, 9, N_IN), 3, 2)
    out, gin = m.forward(x).copy(), m.backward(x, g).copy()
    m.weight, m.bias = noncontiguous_views(m.weight)[2][1], noncontiguous_views(m.bias)[1][1]
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_repr():
    assert repr(nn.TemporalRowConvolution(3, 4, 2, True)) == "nn.TemporalRowConvolution(3, kW=4, dW=2, featFirst)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args", [(0, 3), (3, 0), (3, 3, 0), (3, -1, 1)])
def test_constructor_refuses_non_positive_sizes(args):
    full = args + (1,) * (3 - len(args))
    got = ", ".join(f"{k}={v!r}" for k, v in zip(("inputFrameSize", "kW", "dW"), full))
    with raises_exactly(ValueError, f"TemporalRowConvolution: inputFrameSize, kW, dW must be positive integers, "
                                    f"got {got}"):
        nn.TemporalRowConvolution(*args)


@pytest.mark.parametrize("featFirst, shape, expected", [
    (False, (9, 4), "2D [nInputFrame, 3] or 3D [batch, nInputFrame, 3], got 2D of size [9, 4]"),
    (False, (2, N_IN, 9), "2D [nInputFrame, 3] or 3D [batch, nInputFrame, 3], got 3D of size [2, 3, 9]"),
    (True, (2, 9, N_IN), "2D [3, nInputFrame] or 3D [batch, 3, nInputFrame] (featFirst), got 3D of size [2, 9, 3]"),
    (True, (N_IN,), "2D [3, nInputFrame] or 3D [batch, 3, nInputFrame] (featFirst), got 1D of size [3]"),
])
def test_wrong_feature_count_or_dimension(featFirst, shape, expected):
    with raises_exactly(thnn.THNNError, f"TemporalRowConvolution_updateOutput: input must be {expected}"):
        make(featFirst=featFirst).forward(np.zeros(shape))


def test_sequence_shorter_than_kW():
    with raises_exactly(thnn.THNNError, "TemporalRowConvolution_updateOutput: input must be at least kW = 3 "
                                        "frames long, got 3D of size [2, 3, 2]"):
        make(3, 1, featFirst=True).forward(np.zeros((2, N_IN, 2)))


@pytest.mark.parametrize("kW, dW", [(0, 1), (3, 0)])
def test_kernel_refuses_non_positive_kW_dW(kW, dW):
    k = thnn.Double
    x, w = np.zeros((5, N_IN)), np.zeros((N_IN, 1, max(kW, 1)))
    message = f"kW and dW must be positive, got kW = {kW}, dW = {dW}"
    with raises_exactly(thnn.THNNError, "TemporalRowConvolution_updateOutput: " + message):
        k.TemporalRowConvolution_updateOutput(x, None, w, None, kW, dW, False)
    with raises_exactly(thnn.THNNError, "TemporalRowConvolution_updateGradInput: " + message):
        k.TemporalRowConvolution_updateGradInput(x, np.zeros((5, N_IN)), None, w, kW, dW, False)
    with raises_exactly(thnn.THNNError, "TemporalRowConvolution_accGradParameters: " + message):
        k.TemporalRowConvolution_accGradParameters(x, np.zeros((5, N_IN)), w.copy(), None, kW, dW, False, 1.0)


def test_kernel_checks_the_weight_against_kW():
    with raises_exactly(thnn.THNNError, "TemporalRowConvolution_updateOutput: weight must be 3D [inputFrameSize, "
                                        "1, kW = 3], got 3D of size [3, 1, 2]"):
        thnn.Double.TemporalRowConvolution_updateOutput(np.zeros((5, N_IN)), None, np.zeros((N_IN, 1, 2)), None,
                                                        3, 1, False)


@pytest.mark.parametrize("featFirst, g_shape, expected", [
    (False, (2, 5, N_IN), "[2, 4, 3]"),    # one frame too many
    (False, (2, N_IN, 4), "[2, 4, 3]"),    # the featFirst layout
    (True, (2, 4, N_IN), "[2, 3, 4]"),     # the frames-first layout
])
def test_mismatched_gradOutput(featFirst, g_shape, expected):
    m = make(3, 2, featFirst)
    x = uniform((2, N_IN, 10) if featFirst else (2, 10, N_IN))
    m.forward(x)
    described = f"3D of size [{', '.join(map(str, g_shape))}]"
    for verb in ("updateGradInput", "accGradParameters"):
        with raises_exactly(thnn.THNNError, f"TemporalRowConvolution_{verb}: gradOutput must be 3D of size "
                                            f"{expected}, got {described}"):
            getattr(m, verb)(x, np.zeros(g_shape))
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_float32_input_to_float64_module():
    with raises_exactly(TypeError, "TemporalRowConvolution: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward(uniform((9, N_IN)).astype(np.float32))
