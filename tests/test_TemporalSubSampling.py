"""nn_legacy.TemporalSubSampling and the TemporalSubSampling_* kernels:
y[t, c] = w[c] * sum_{k<kW} x[t*dW + k, c] + b[c]."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (noncontiguous_views, raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)

N_IN = 4
WINDOWS = [(3, 1), (3, 2), (2, 2), (2, 3), (1, 1)]
WINDOW_IDS = ["k3d1", "k3d2", "k2d2", "k2d3", "k1d1"]


def make(kW=3, dW=2):
    return nn.TemporalSubSampling(N_IN, kW, dW)


def n_out(n_frames, kW, dW):
    return (n_frames - kW) // dW + 1


def window_sums(x, kW, dW):
    return np.stack([x[..., t * dW:t * dW + kW, :].sum(axis=-2) for t in range(n_out(x.shape[-2], kW, dW))], axis=-2)


def numpy_backward(m, x, g, scale=1.0):
    gin = np.zeros_like(x)
    for t in range(g.shape[-2]):
        gin[..., t * m.dW:t * m.dW + m.kW, :] += (m.weight * g[..., t, :])[..., None, :]
    s = window_sums(x, m.kW, m.dW)
    gw = scale * (g * s).reshape(-1, N_IN).sum(axis=0)
    gb = scale * g.reshape(-1, N_IN).sum(axis=0)
    return gin, gw, gb


def data(shape, kW, dW, seed=1):
    return uniform(shape, seed), uniform(shape[:-2] + (n_out(shape[-2], kW, dW), N_IN), seed + 1)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("shape", [(10, N_IN), (3, 10, N_IN)], ids=["2D", "3D"])
def test_forward_and_backward_match_numpy(shape, kW, dW):
    m = make(kW, dW)
    x, g = data(shape, kW, dW)
    np.testing.assert_allclose(m.forward(x), m.weight * window_sums(x, kW, dW) + m.bias, rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    want_gin, want_gw, want_gb = numpy_backward(m, x, g, 0.5)
    np.testing.assert_allclose(m.backward(x, g, 0.5), want_gin, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-13, atol=1e-14)
    m.backward(x, g, 0.5)
    np.testing.assert_allclose(m.gradWeight, 2 * want_gw, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, 2 * want_gb, rtol=1e-13, atol=1e-14)


def test_a_hand_computed_example():
    m = nn.TemporalSubSampling(2, 2, 1)
    m.weight[...] = [2.0, -1.0]
    m.bias[...] = [0.0, 1.0]
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(m.forward(x), [[8.0, -5.0], [16.0, -9.0]])
    np.testing.assert_array_equal(m.backward(x, np.ones((2, 2))), [[2.0, -1.0], [4.0, -2.0], [2.0, -1.0]])


@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
def test_matches_torch_average_pooling(kW, dW):
    """y = w * kW * avg_pool1d(x) + b, through torch autograd."""
    torch = torch_or_skip()
    m = make(kW, dW)
    x, g = data((2, 10, N_IN), kW, dW)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(
        lambda t: w * kW * torch.nn.functional.avg_pool1d(t.transpose(1, 2), kW, dW).transpose(1, 2) + b, x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch7_range():
    m = nn.TemporalSubSampling(200, 4)
    bound = 1 / np.sqrt(4)
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
    m.weight, m.bias = noncontiguous_views(m.weight)[1][1], noncontiguous_views(m.bias)[2][1]
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_repr():
    assert repr(nn.TemporalSubSampling(4, 3)) == "nn.TemporalSubSampling(4, kW=3, dW=1)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args", [(0, 3, 1), (4, 0, 1), (4, 3, 0), (4, -3, 1)])
def test_constructor_refuses_non_positive_sizes(args):
    got = ", ".join(f"{k}={v!r}" for k, v in zip(("inputFrameSize", "kW", "dW"), args))
    with raises_exactly(ValueError, f"TemporalSubSampling: inputFrameSize, kW, dW must be positive integers, "
                                    f"got {got}"):
        nn.TemporalSubSampling(*args)


@pytest.mark.parametrize("shape, described", [((9, 3), "2D of size [9, 3]"), ((2, 9, 5), "3D of size [2, 9, 5]"),
                                              ((N_IN,), "1D of size [4]")])
def test_wrong_feature_count_or_dimension(shape, described):
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: input must be 2D [nInputFrame, 4] or "
                                        f"3D [batch, nInputFrame, 4], got {described}"):
        make().forward(np.zeros(shape))


def test_sequence_shorter_than_kW():
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: input must be at least kW = 3 frames "
                                        "long, got 2D of size [2, 4]"):
        make(3, 1).forward(np.zeros((2, N_IN)))


@pytest.mark.parametrize("kW, dW", [(0, 1), (3, 0), (-2, -2)])
def test_kernel_refuses_non_positive_kW_dW(kW, dW):
    k = thnn.Double
    x, w = np.zeros((5, N_IN)), np.zeros(N_IN)
    message = f"kW and dW must be positive, got kW = {kW}, dW = {dW}"
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: " + message):
        k.TemporalSubSampling_updateOutput(x, None, w, w, kW, dW, N_IN)
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateGradInput: " + message):
        k.TemporalSubSampling_updateGradInput(x, np.zeros((5, N_IN)), None, w, kW, dW)
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_accGradParameters: " + message):
        k.TemporalSubSampling_accGradParameters(x, np.zeros((5, N_IN)), w.copy(), w.copy(), kW, dW, 1.0)


def test_kernel_checks_inputFrameSize_and_bias():
    k = thnn.Double
    x, w = np.zeros((5, N_IN)), np.zeros(N_IN)
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: weight must be [inputFrameSize = 3], "
                                        "got 1D of size [4]"):
        k.TemporalSubSampling_updateOutput(x, None, w, w, 2, 1, 3)
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: bias must be 1D of size [4], "
                                        "got 1D of size [2]"):
        k.TemporalSubSampling_updateOutput(x, None, w, np.zeros(2), 2, 1, N_IN)
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_updateOutput: weight must be 1D [inputFrameSize], "
                                        "got 2D of size [1, 4]"):
        k.TemporalSubSampling_updateOutput(x, None, w[None], w, 2, 1, N_IN)


@pytest.mark.parametrize("g_shape, described", [((2, 4, N_IN), "3D of size [2, 4, 4]"),
                                                ((2, 3, 3), "3D of size [2, 3, 3]")])
def test_mismatched_gradOutput(g_shape, described):
    m = make(3, 2)
    x = uniform((2, 8, N_IN))
    m.forward(x)
    for verb in ("updateGradInput", "accGradParameters"):
        with raises_exactly(thnn.THNNError, f"TemporalSubSampling_{verb}: gradOutput must be 3D of size [2, 3, 4], "
                                            f"got {described}"):
            getattr(m, verb)(x, np.zeros(g_shape))
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_float64_input_to_float32_module():
    with raises_exactly(TypeError, "TemporalSubSampling: input is float64 but the module is float32; "
                                   "convert the input or call module.double()"):
        make().float().forward(uniform((9, N_IN)))


def test_accumulators_must_be_contiguous():
    m = make(3, 2)
    x, g = data((9, N_IN), 3, 2)
    m.forward(x)
    m.gradBias = noncontiguous_views(np.zeros(N_IN))[0][1]
    with raises_exactly(thnn.THNNError, "TemporalSubSampling_accGradParameters: gradBias must be contiguous "
                                        "(it is written in place)"):
        m.accGradParameters(x, g)
