"""nn_legacy.LSTMCellFused and the LSTMFused_* kernels: one LSTM step from
precomputed gate pre-activations [inputGates, hiddenGates, cx] -> [hy, cy]."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_pickle, raises_exactly, torch_or_skip, uniform)
from table_checks import Slot

H, B = 3, 4
SLOTS = ["inputGates", "hiddenGates", "cx"]


def make(bias=True):
    return nn.LSTMCellFused(H, bias)


def table(batch=B, seed=1):
    lead = (batch,) if batch else ()
    return [uniform(lead + (4 * H,), seed), uniform(lead + (4 * H,), seed + 1), uniform(lead + (H,), seed + 2)]


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def numpy_lstm(m, t, g_h, g_c):
    """(hy, cy, dL/dgates, dL/dcx) by the docstring's formulas."""
    a = t[0] + t[1] + (m.inputBias + m.hiddenBias if m.inputBias is not None else 0)
    a_i, a_f, a_g, a_o = np.split(a, 4, axis=-1)
    i, f, g, o = sigmoid(a_i), sigmoid(a_f), np.tanh(a_g), sigmoid(a_o)
    cy = f * t[2] + i * g
    hy = o * np.tanh(cy)
    dc = g_h * o * (1 - np.tanh(cy) ** 2) + (g_c if g_c is not None else 0)
    d = np.concatenate([dc * g * i * (1 - i), dc * t[2] * f * (1 - f), dc * i * (1 - g ** 2),
                        g_h * np.tanh(cy) * o * (1 - o)], axis=-1)
    return hy, cy, d, dc * f


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("batch", [B, None], ids=["2D", "1D"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_forward_and_backward_match_numpy(batch, bias):
    m = make(bias)
    t = table(batch)
    g_h, g_c = uniform(t[2].shape, 8), uniform(t[2].shape, 9)
    hy, cy, d, d_cx = numpy_lstm(m, t, g_h, g_c)
    out = m.forward(t)
    assert isinstance(out, list) and len(out) == 2
    np.testing.assert_allclose(out[0], hy, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(out[1], cy, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    gin = m.backward(t, [g_h, g_c], 0.5)
    assert gin[0] is gin[1], "inputGates and hiddenGates share one gradient array"
    np.testing.assert_allclose(gin[0], d, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(gin[2], d_cx, rtol=1e-13, atol=1e-15)
    if bias:
        want = 0.5 * d.reshape(-1, 4 * H).sum(axis=0)
        np.testing.assert_allclose(m.gradInputBias, want, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(m.gradHiddenBias, want, rtol=1e-13, atol=1e-15)


def test_gradCy_None_means_zero():
    m = make()
    t = table()
    g_h = uniform((B, H), 8)
    m.forward(t)
    with_none = [a.copy() for a in m.backward(t, [g_h, None])]
    np.testing.assert_array_equal(with_none[0], m.backward(t, [g_h, np.zeros((B, H))])[0])
    np.testing.assert_allclose(with_none[0], numpy_lstm(m, t, g_h, None)[2], rtol=1e-13, atol=1e-15)


def test_storage_holds_the_activated_gates_and_the_input_is_untouched():
    m = make()
    t = table()
    before = [a.copy() for a in t]
    m.forward(t)
    a = t[0] + t[1] + m.inputBias + m.hiddenBias
    np.testing.assert_allclose(m.storage, np.concatenate([sigmoid(a[:, :2 * H]), np.tanh(a[:, 2 * H:3 * H]),
                                                          sigmoid(a[:, 3 * H:])], axis=1), rtol=1e-14)
    for x, y in zip(t, before):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_matches_torch_LSTMCell(bias):
    """With inputGates = x W_ih^T and hiddenGates = hx W_hh^T the cell is
    torch.nn.LSTMCell: same hy and cy, and the chain rule through the two
    products gives torch's gradients for x, hx, cx and both biases."""
    torch = torch_or_skip()
    n_in = 5
    cell = torch.nn.LSTMCell(n_in, H, bias=bias).double()
    x, hx, cx = uniform((B, n_in), 1), uniform((B, H), 2), uniform((B, H), 3)
    g_h, g_c = uniform((B, H), 4), uniform((B, H), 5)
    tx, thx, tcx = (torch.from_numpy(a).requires_grad_(True) for a in (x, hx, cx))
    ty, tc = cell(tx, (thx, tcx))
    torch.autograd.backward([ty, tc], [torch.from_numpy(g_h), torch.from_numpy(g_c)])
    W_ih, W_hh = cell.weight_ih.detach().numpy(), cell.weight_hh.detach().numpy()
    m = make(bias)
    if bias:
        m.inputBias[...] = cell.bias_ih.detach().numpy()
        m.hiddenBias[...] = cell.bias_hh.detach().numpy()
    t = [x @ W_ih.T, hx @ W_hh.T, cx]
    hy, cy = m.forward(t)
    np.testing.assert_allclose(hy, ty.detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(cy, tc.detach().numpy(), rtol=1e-12, atol=1e-14)
    m.zeroGradParameters()
    d, _, d_cx = m.backward(t, [g_h, g_c])
    np.testing.assert_allclose(d @ W_ih, tx.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d @ W_hh, thx.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d_cx, tcx.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d.T @ x, cell.weight_ih.grad.numpy(), rtol=1e-12, atol=1e-14)
    if bias:
        np.testing.assert_allclose(m.gradInputBias, cell.bias_ih.grad.numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(m.gradHiddenBias, cell.bias_hh.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_two_steps_chain_like_torch():
    """cy of one step is cx of the next; gradients flow back through both."""
    torch = torch_or_skip()
    cell = torch.nn.LSTMCell(2, H).double()
    xs = [uniform((B, 2), s) for s in (1, 2)]
    h0, c0 = uniform((B, H), 3), uniform((B, H), 4)
    g = uniform((B, H), 5)
    tc0 = torch.from_numpy(c0).requires_grad_(True)
    th, tc = cell(torch.from_numpy(xs[0]), (torch.from_numpy(h0), tc0))
    th, tc = cell(torch.from_numpy(xs[1]), (th, tc))
    th.backward(torch.from_numpy(g))
    W_ih, W_hh = cell.weight_ih.detach().numpy(), cell.weight_hh.detach().numpy()
    steps = [make(), make()]
    for s in steps:
        s.inputBias[...], s.hiddenBias[...] = cell.bias_ih.detach().numpy(), cell.bias_hh.detach().numpy()
    t1 = [xs[0] @ W_ih.T, h0 @ W_hh.T, c0]
    h1, c1 = steps[0].forward(t1)
    t2 = [xs[1] @ W_ih.T, h1 @ W_hh.T, c1]
    h2, _ = steps[1].forward(t2)
    np.testing.assert_allclose(h2, th.detach().numpy(), rtol=1e-12, atol=1e-14)
    d2, _, dc1 = steps[1].backward(t2, [g, None])
    d1, _, dc0 = steps[0].backward(t1, [d2 @ W_hh, dc1])
    np.testing.assert_allclose(dc0, tc0.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch_range():
    m = nn.LSTMCellFused(100)
    bound = 1 / np.sqrt(100)
    assert m.inputBias.shape == m.hiddenBias.shape == (400,)
    assert np.all(np.abs(m.inputBias) <= bound) and np.all(np.abs(m.hiddenBias) <= bound)
    assert m.inputBias.std() > bound / 4


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
def test_noncontiguous_gradOutput():
    m = make()
    t = table()
    g_h, g_c = uniform((B, H), 8), uniform((B, H), 9)
    m.forward(t)
    want = [a.copy() for a in m.backward(t, [g_h, g_c])]
    got = m.backward(t, [np.asfortranarray(g_h), g_c[::-1].copy()[::-1]])
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[2], want[2])


def test_batch_equals_samples():
    m = make()
    t, g_h, g_c = table(), uniform((B, H), 8), uniform((B, H), 9)
    m.zeroGradParameters()
    hy, cy = (a.copy() for a in m.forward(t))
    d = m.backward(t, [g_h, g_c])[0].copy()
    batch_bias = m.gradInputBias.copy()
    m.zeroGradParameters()
    for i in range(B):
        sample = [a[i] for a in t]
        out = m.forward(sample)
        np.testing.assert_allclose(out[0], hy[i], rtol=1e-15, atol=0)
        np.testing.assert_allclose(out[1], cy[i], rtol=1e-15, atol=0)
        np.testing.assert_allclose(m.backward(sample, [g_h[i], g_c[i]])[0], d[i], rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.gradInputBias, batch_bias, rtol=1e-13, atol=1e-15)


def test_buffer_reuse_across_batch_sizes():
    m = make()
    fresh = m.clone()
    big, small = table(4), table(2, seed=5)
    out1 = m.forward(big)
    grads1 = m.backward(big, [uniform((4, H), 9), None])
    kept = [a.copy() for a in out1 + grads1]
    out2 = m.forward(small)
    grads2 = m.backward(small, [uniform((2, H), 8), None])
    for a, b in zip(out1 + grads1, kept):
        np.testing.assert_array_equal(a, b, err_msg="an array handed out before the batch size changed was changed")
    storage = m.storage
    again = [a[::-1].copy() for a in small]
    out3 = m.forward(again)
    grads3 = m.backward(again, [uniform((2, H), 7), None])
    assert all(a is b for a, b in zip(out3, out2)) and m.storage is storage
    assert all(a is b for a, b in zip(grads3, grads2)), "gradInput arrays were not reused"
    for a, b in zip(out3, fresh.forward(again)):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(grads3, fresh.backward(again, [uniform((2, H), 7), None])):
        np.testing.assert_array_equal(a, b)


def test_pickle_round_trip():
    t = table()
    check_pickle(Slot(make(), t, 2), t[2], uniform((2 * B * H,), 9))
    m = make()
    m.forward(t)
    restored = pickle.loads(pickle.dumps(m))
    for a, b in zip(restored.forward(t), m.forward(t)):
        np.testing.assert_array_equal(a, b)


def test_repr():
    assert repr(nn.LSTMCellFused(4)) == "nn.LSTMCellFused(4)"
    assert repr(nn.LSTMCellFused(4, bias=False)) == "nn.LSTMCellFused(4, without bias)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("value, got", [(np.zeros((B, 4 * H)), "ndarray"), ((np.zeros(3),) * 4, "a tuple of 4")])
def test_input_must_be_a_list_of_three(value, got):
    with raises_exactly(TypeError, f"LSTMCellFused: input must be a list [inputGates, hiddenGates, cx], got {got}"):
        make().forward(value)


def test_gradOutput_must_be_a_list_of_two():
    m = make()
    t = table()
    m.forward(t)
    with raises_exactly(TypeError, "LSTMCellFused: gradOutput must be a list [gradHy, gradCy], got ndarray"):
        m.backward(t, np.zeros((B, H)))


def test_gates_of_the_wrong_size():
    t = table()
    t[0] = np.zeros((B, 3 * H))
    with raises_exactly(thnn.THNNError, "LSTMFused_updateOutput: input must be 2D of size [4, 12], "
                                        "got 2D of size [4, 9]"):
        make().forward(t)


@pytest.mark.parametrize("which", [0, 1])
def test_mismatched_gradOutput(which):
    m = make()
    t = table()
    m.forward(t)
    g = [np.zeros((B, H)), np.zeros((B, H))]
    g[which] = np.zeros((B, H + 1))
    name = ["gradOutput", "gradOutputCell"][which]
    with raises_exactly(thnn.THNNError, f"LSTMFused_updateGradInput: {name} must be shaped as cx (2D of size "
                                        "[4, 3]), got 2D of size [4, 4]"):
        m.backward(t, g)
    assert not m.gradInputBias.any()


def test_kernel_checks():
    k = thnn.Double
    gi, gh, cx = table()
    with raises_exactly(thnn.THNNError, "LSTMFused_updateOutput: bias1 and bias2 must be given together or both be "
                                        "None"):
        k.LSTMFused_updateOutput(gi, gh, None, np.zeros(4 * H), cx, None, None, None)
    with raises_exactly(thnn.THNNError, "LSTMFused_updateOutput: bias2 must be 1D of size [12], got 1D of size [9]"):
        k.LSTMFused_updateOutput(gi, gh, np.zeros(4 * H), np.zeros(3 * H), cx, None, None, None)
    with raises_exactly(thnn.THNNError, "LSTMFused_updateOutput: cx must be 1D [hiddenSize] or 2D [batch, "
                                        "hiddenSize], got 3D of size [1, 4, 3]"):
        k.LSTMFused_updateOutput(gi, gh, None, None, cx[None], None, None, None)
    with raises_exactly(thnn.THNNError, "LSTMFused_updateGradInput: storage must be 2D of size [4, 12], "
                                        "got 2D of size [4, 9]"):
        k.LSTMFused_updateGradInput(np.zeros((B, 3 * H)), None, cx, cx, cx, None, None)
    with raises_exactly(thnn.THNNError, "LSTMFused_updateGradInput: cy must be shaped as cx (2D of size [4, 3]), "
                                        "got 1D of size [3]"):
        k.LSTMFused_updateGradInput(gi, None, cx, cx[0], cx, None, None)


def test_backward_before_forward():
    with raises_exactly(RuntimeError, "LSTMCellFused: the backward pass needs the state of a forward pass first"):
        make().backward(table(), [np.zeros((B, H)), None])


def test_dtype_mixes():
    t = table()
    with raises_exactly(TypeError, "LSTMCellFused: inputGates is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward([t[0].astype(np.float32)] + t[1:])
    with raises_exactly(TypeError, "LSTMFused_updateOutput: hidden must be float64 like the other tensors, "
                                   "got float32"):
        make().forward([t[0], t[1].astype(np.float32), t[2]])
    m = make()
    m.forward(t)
    with raises_exactly(TypeError, "LSTMFused_updateGradInput: gradOutputCell must be float64 like the other "
                                   "tensors, got float32"):
        m.backward(t, [np.zeros((B, H)), np.zeros((B, H), np.float32)])
