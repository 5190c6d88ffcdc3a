"""nn_legacy.TemporalConvolution and the TemporalConvolution_* kernels:
y[t] = W (x[t*dW], ..., x[t*dW + kW - 1]) + b."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, noncontiguous_views, raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)

N_IN, N_OUT = 3, 4
# (kW, dW): overlapping windows, adjacent windows, frames skipped between windows, a single tap
WINDOWS = [(3, 1), (3, 2), (2, 2), (2, 3), (1, 1), (5, 2)]
WINDOW_IDS = ["k3d1", "k3d2", "k2d2", "k2d3", "k1d1", "k5d2"]


def make(kW=3, dW=2):
    return nn.TemporalConvolution(N_IN, N_OUT, kW, dW)


def n_out(n_frames, kW, dW):
    return (n_frames - kW) // dW + 1


def numpy_forward(m, x):
    """Output by the docstring's formula, one window at a time."""
    T = x.shape[-2]
    frames = [x[..., t * m.dW:t * m.dW + m.kW, :].reshape(x.shape[:-2] + (-1,)) for t in range(n_out(T, m.kW, m.dW))]
    return np.stack([u @ m.weight.T + m.bias for u in frames], axis=-2)


def numpy_backward(m, x, g, scale=1.0):
    """(gradInput, gradWeight, gradBias) by the docstring's formulas."""
    gin = np.zeros_like(x)
    gw, gb = np.zeros_like(m.weight), np.zeros_like(m.bias)
    for t in range(g.shape[-2]):
        window = slice(t * m.dW, t * m.dW + m.kW)
        gin[..., window, :] += (g[..., t, :] @ m.weight).reshape(x.shape[:-2] + (m.kW, N_IN))
        u = x[..., window, :].reshape(-1, m.kW * N_IN)
        gw += scale * g[..., t, :].reshape(-1, N_OUT).T @ u
        gb += scale * g[..., t, :].reshape(-1, N_OUT).sum(axis=0)
    return gin, gw, gb


def data(shape, kW, dW, seed=1):
    x = uniform(shape, seed)
    return x, uniform(shape[:-2] + (n_out(shape[-2], kW, dW), N_OUT), seed + 1)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("shape", [(11, N_IN), (2, 11, N_IN)], ids=["2D", "3D"])
def test_forward_and_backward_match_numpy(shape, kW, dW):
    m = make(kW, dW)
    x, g = data(shape, kW, dW)
    out = m.forward(x)
    assert out.shape == shape[:-2] + (n_out(11, kW, dW), N_OUT)
    np.testing.assert_allclose(out, numpy_forward(m, x), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    want_gin, want_gw, want_gb = numpy_backward(m, x, g, 0.5)
    np.testing.assert_allclose(gin, want_gin, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-13, atol=1e-14)
    m.backward(x, g, 0.5)  # gradients accumulate
    np.testing.assert_allclose(m.gradWeight, 2 * want_gw, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, 2 * want_gb, rtol=1e-13, atol=1e-14)


def test_a_hand_computed_example():
    """One feature in, one out, kW = 2, dW = 1: y[t] = w0 x[t] + w1 x[t+1] + b."""
    m = nn.TemporalConvolution(1, 1, 2)
    m.weight[...] = [[2.0, -1.0]]
    m.bias[...] = [0.5]
    x = np.array([[1.0], [3.0], [4.0]])
    np.testing.assert_array_equal(m.forward(x), [[2 - 3 + 0.5], [6 - 4 + 0.5]])
    np.testing.assert_array_equal(m.backward(x, np.array([[1.0], [10.0]])), [[2.0], [-1 + 20.0], [-10.0]])


def test_frames_after_the_last_window_get_no_gradient():
    m = make(kW=2, dW=3)
    x, g = data((9, N_IN), 2, 3)  # windows at frames 0-1, 3-4, 6-7: frames 2, 5, 8 unused
    m.forward(x)
    gin = m.backward(x, g)
    assert not gin[[2, 5, 8]].any()
    assert gin[[0, 1, 3, 4, 6, 7]].all()


@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
def test_matches_torch_conv1d(kW, dW):
    """torch's conv1d with the weight [out, kW*in] reshaped to [out, in, kW]."""
    torch = torch_or_skip()
    m = make(kW, dW)
    x, g = data((2, 11, N_IN), kW, dW)
    w = torch.from_numpy(m.weight.reshape(N_OUT, kW, N_IN).transpose(0, 2, 1).copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.conv1d(t.transpose(1, 2), w, b, stride=dW).transpose(1, 2), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-14)
    torch_gw = w.grad.numpy().transpose(0, 2, 1).reshape(N_OUT, kW * N_IN)
    np.testing.assert_allclose(m.gradWeight, torch_gw, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch7_range():
    m = nn.TemporalConvolution(4, 30, 5)
    bound = 1 / np.sqrt(4 * 5)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01) and np.all(np.abs(m.bias) <= 0.01)


def test_layout_of_weight_and_defaults():
    m = nn.TemporalConvolution(3, 4, 5)
    assert m.weight.shape == (4, 15) and m.bias.shape == (4,) and m.dW == 1
    assert m.gradWeight.shape == (4, 15) and m.gradBias.shape == (4,)


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
def test_noncontiguous_weight_and_bias():
    m = make()
    x, g = data((2, 9, N_IN), 3, 2)
    out, gin = m.forward(x).copy(), m.backward(x, g).copy()
    m.weight, m.bias = noncontiguous_views(m.weight)[0][1], noncontiguous_views(m.bias)[1][1]
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_repr():
    assert repr(nn.TemporalConvolution(3, 4, 5)) == "nn.TemporalConvolution(3 -> 4, kW=5, dW=1)"


def test_inside_a_sequential():
    model = nn.Sequential().add(make(3, 1)).add(nn.Tanh()).add(nn.TemporalConvolution(N_OUT, 2, 2, 2))
    assert_input_jacobian(model, uniform((2, 9, N_IN), 4))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args", [(0, 4, 3, 1), (3, 0, 3, 1), (3, 4, 0, 1), (3, 4, 3, 0), (3, 4, -2, 1),
                                  (3, 4, "2", 1)])
def test_constructor_refuses_non_positive_sizes(args):
    got = ", ".join(f"{k}={v!r}" for k, v in zip(("inputFrameSize", "outputFrameSize", "kW", "dW"), args))
    with raises_exactly(ValueError, "TemporalConvolution: inputFrameSize, outputFrameSize, kW, dW must be "
                                    f"positive integers, got {got}"):
        nn.TemporalConvolution(*args)


@pytest.mark.parametrize("shape, described", [
    ((9, 4), "2D of size [9, 4]"),
    ((2, 9, 2), "3D of size [2, 9, 2]"),
    ((9,), "1D of size [9]"),
    ((1, 2, 9, N_IN), "4D of size [1, 2, 9, 3]"),
])
def test_wrong_feature_count_or_dimension(shape, described):
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateOutput: input must be 2D [nInputFrame, 3] or "
                                        f"3D [batch, nInputFrame, 3], got {described}"):
        make().forward(np.zeros(shape))


def test_sequence_shorter_than_kW():
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateOutput: input must be at least kW = 3 frames "
                                        "long, got 3D of size [2, 2, 3]"):
        make(3, 1).forward(np.zeros((2, 2, N_IN)))


def test_sequence_of_exactly_kW_frames_gives_one_output_frame():
    m = make(3, 5)
    x = uniform((3, N_IN))
    np.testing.assert_allclose(m.forward(x), numpy_forward(m, x), rtol=1e-13)
    assert m.output.shape == (1, N_OUT)


@pytest.mark.parametrize("kW, dW", [(0, 1), (3, 0), (-1, 1), (2, -3)])
def test_kernel_refuses_non_positive_kW_dW(kW, dW):
    k = thnn.Double
    x, w, b = np.zeros((5, N_IN)), np.zeros((N_OUT, N_IN)), np.zeros(N_OUT)
    message = f"kW and dW must be positive, got kW = {kW}, dW = {dW}"
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateOutput: " + message):
        k.TemporalConvolution_updateOutput(x, None, w, b, kW, dW, N_IN, N_OUT)
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateGradInput: " + message):
        k.TemporalConvolution_updateGradInput(x, np.zeros((5, N_OUT)), None, w, kW, dW)
    with raises_exactly(thnn.THNNError, "TemporalConvolution_accGradParameters: " + message):
        k.TemporalConvolution_accGradParameters(x, np.zeros((5, N_OUT)), w.copy(), b.copy(), kW, dW, 1.0)


def test_kernel_checks_the_frame_sizes_against_the_weight():
    k = thnn.Double
    x, w, b = np.zeros((5, N_IN)), np.zeros((N_OUT, 2 * N_IN)), np.zeros(N_OUT)
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateOutput: weight must be [outputFrameSize = 5, "
                                        "kW * inputFrameSize = 6], got 2D of size [4, 6]"):
        k.TemporalConvolution_updateOutput(x, None, w, b, 2, 1, N_IN, 5)
    with raises_exactly(thnn.THNNError, "TemporalConvolution_updateOutput: weight must be 2D [outputFrameSize, "
                                        "kW * inputFrameSize] with kW = 4, got 2D of size [4, 6]"):
        k.TemporalConvolution_updateOutput(x, None, w, b, 4, 1, N_IN, N_OUT)


@pytest.mark.parametrize("g_shape, described", [
    ((2, 4, N_OUT), "3D of size [2, 4, 4]"),   # one frame too many
    ((2, 3, 5), "3D of size [2, 3, 5]"),       # wrong feature count
    ((3, N_OUT), "2D of size [3, 4]"),         # batch dim missing
])
def test_mismatched_gradOutput(g_shape, described):
    m = make(3, 2)
    x = uniform((2, 8, N_IN))
    m.forward(x)
    for verb in ("updateGradInput", "accGradParameters"):
        with raises_exactly(thnn.THNNError, f"TemporalConvolution_{verb}: gradOutput must be 3D of size [2, 3, 4], "
                                            f"got {described}"):
            getattr(m, verb)(x, np.zeros(g_shape))
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_float32_input_to_float64_module():
    with raises_exactly(TypeError, "TemporalConvolution: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward(uniform((9, N_IN)).astype(np.float32))


def test_float32_weight_with_float64_input_at_the_kernel():
    with raises_exactly(TypeError, "TemporalConvolution_updateOutput: weight must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.TemporalConvolution_updateOutput(np.zeros((5, N_IN)), None, np.zeros((N_OUT, N_IN), np.float32),
                                                     np.zeros(N_OUT), 1, 1, N_IN, N_OUT)


def test_accumulators_must_be_contiguous_and_well_shaped():
    m = make(3, 2)
    x, g = data((9, N_IN), 3, 2)
    m.forward(x)
    m.gradWeight = noncontiguous_views(np.zeros_like(m.weight))[1][1]
    with raises_exactly(thnn.THNNError, "TemporalConvolution_accGradParameters: gradWeight must be contiguous "
                                        "(it is written in place)"):
        m.accGradParameters(x, g)
    m.gradWeight, m.gradBias = np.zeros_like(m.weight), np.zeros(N_OUT + 1)
    with raises_exactly(thnn.THNNError, "TemporalConvolution_accGradParameters: gradBias must be 1D of size [4], "
                                        "got 1D of size [5]"):
        m.accGradParameters(x, g)


def test_failed_call_leaves_the_previous_output_alone():
    m = make()
    x = uniform((9, N_IN))
    out = m.forward(x)
    kept = out.copy()
    with pytest.raises(thnn.THNNError):
        m.forward(np.zeros((9, N_IN + 1)))
    np.testing.assert_array_equal(out, kept)
    np.testing.assert_array_equal(m.forward(x), kept)
