"""nn_legacy.GRUCellFused and the GRUFused_* kernels: one GRU step from
precomputed gate pre-activations [inputGates, hiddenGates, hx] -> hy."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_pickle, raises_exactly, torch_or_skip, uniform)
from table_checks import Slot

H, B = 3, 4
SLOTS = ["inputGates", "hiddenGates", "hx"]


def make(bias=True):
    return nn.GRUCellFused(H, bias)


def table(batch=B, seed=1):
    lead = (batch,) if batch else ()
    return [uniform(lead + (3 * H,), seed), uniform(lead + (3 * H,), seed + 1), uniform(lead + (H,), seed + 2)]


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def numpy_gru(m, t, g):
    """(hy, [dL/dinputGates, dL/dhiddenGates, dL/dhx], dL/dinputBias, dL/dhiddenBias) by the docstring."""
    gi, gh, hx = t
    if m.inputBias is not None:
        gi, gh = gi + m.inputBias, gh + m.hiddenBias
    a_r, a_z, a_n = np.split(gi, 3, axis=-1)
    h_r, h_z, h_n = np.split(gh, 3, axis=-1)
    r, z = sigmoid(a_r + h_r), sigmoid(a_z + h_z)
    n = np.tanh(a_n + r * h_n)
    hy = (1 - z) * n + z * hx
    d_z = g * (hx - n) * z * (1 - z)
    d_n = g * (1 - z) * (1 - n ** 2)
    d_r = d_n * h_n * r * (1 - r)
    d_in = np.concatenate([d_r, d_z, d_n], axis=-1)
    d_hid = np.concatenate([d_r, d_z, r * d_n], axis=-1)
    return hy, [d_in, d_hid, g * z], d_in.reshape(-1, 3 * H).sum(0), d_hid.reshape(-1, 3 * H).sum(0)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("batch", [B, None], ids=["2D", "1D"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_forward_and_backward_match_numpy(batch, bias):
    m = make(bias)
    t = table(batch)
    g = uniform(t[2].shape, 9)
    hy, grads, gb_in, gb_hid = numpy_gru(m, t, g)
    np.testing.assert_allclose(m.forward(t), hy, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    got = m.backward(t, g, 0.5)
    assert isinstance(got, list) and len(got) == 3
    for name, a, b in zip(SLOTS, got, grads):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-15, err_msg=name)
    if bias:
        np.testing.assert_allclose(m.gradInputBias, 0.5 * gb_in, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(m.gradHiddenBias, 0.5 * gb_hid, rtol=1e-13, atol=1e-15)
        m.backward(t, g, 0.5)
        np.testing.assert_allclose(m.gradInputBias, gb_in, rtol=1e-13, atol=1e-15)
    else:
        assert m.parameters() == ([], [])


def test_storage_holds_what_backward_needs():
    m = make()
    t = table()
    m.forward(t)
    gi, gh = t[0] + m.inputBias, t[1] + m.hiddenBias
    r = sigmoid(gi[:, :H] + gh[:, :H])
    z = sigmoid(gi[:, H:2 * H] + gh[:, H:2 * H])
    n = np.tanh(gi[:, 2 * H:] + r * gh[:, 2 * H:])
    np.testing.assert_allclose(m.storage, np.concatenate([r, z, n, t[2], gh[:, 2 * H:]], axis=1), rtol=1e-14)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_matches_torch_GRUCell(bias):
    """With inputGates = x W_ih^T and hiddenGates = hx W_hh^T the cell is
    torch.nn.GRUCell: same hy, and the chain rule through the two products
    gives torch's gradients for x, hx and both biases."""
    torch = torch_or_skip()
    n_in = 5
    cell = torch.nn.GRUCell(n_in, H, bias=bias).double()
    x, hx, g = uniform((B, n_in), 1), uniform((B, H), 2), uniform((B, H), 3)
    tx, thx = torch.from_numpy(x).requires_grad_(True), torch.from_numpy(hx).requires_grad_(True)
    ty = cell(tx, thx)
    ty.backward(torch.from_numpy(g))
    W_ih, W_hh = cell.weight_ih.detach().numpy(), cell.weight_hh.detach().numpy()
    m = make(bias)
    if bias:
        m.inputBias[...] = cell.bias_ih.detach().numpy()
        m.hiddenBias[...] = cell.bias_hh.detach().numpy()
    t = [x @ W_ih.T, hx @ W_hh.T, hx]
    np.testing.assert_allclose(m.forward(t), ty.detach().numpy(), rtol=1e-12, atol=1e-14)
    m.zeroGradParameters()
    d_in, d_hid, d_hx = m.backward(t, g)
    np.testing.assert_allclose(d_in @ W_ih, tx.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d_hid @ W_hh + d_hx, thx.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d_in.T @ x, cell.weight_ih.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d_hid.T @ hx, cell.weight_hh.grad.numpy(), rtol=1e-12, atol=1e-14)
    if bias:
        np.testing.assert_allclose(m.gradInputBias, cell.bias_ih.grad.numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(m.gradHiddenBias, cell.bias_hh.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch_range():
    m = nn.GRUCellFused(100)
    bound = 1 / np.sqrt(100)
    assert m.inputBias.shape == m.hiddenBias.shape == (300,)
    assert np.all(np.abs(m.inputBias) <= bound) and np.all(np.abs(m.hiddenBias) <= bound)
    assert m.inputBias.std() > bound / 4
    m.reset(0.01)
    assert np.all(np.abs(m.hiddenBias) <= 0.01)


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
def test_batch_equals_samples():
    m = make()
    t, g = table(), uniform((B, H), 9)
    m.zeroGradParameters()
    hy = m.forward(t).copy()
    grads = [a.copy() for a in m.backward(t, g)]
    batch_bias = (m.gradInputBias.copy(), m.gradHiddenBias.copy())
    m.zeroGradParameters()
    for i in range(B):
        sample = [a[i] for a in t]
        np.testing.assert_allclose(m.forward(sample), hy[i], rtol=1e-15, atol=0)
        for a, b in zip(m.backward(sample, g[i]), grads):
            np.testing.assert_allclose(a, b[i], rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.gradInputBias, batch_bias[0], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradHiddenBias, batch_bias[1], rtol=1e-13, atol=1e-15)


def test_buffer_reuse_across_batch_sizes():
    m, fresh = make(), None
    fresh = m.clone()
    big, small = table(4), table(2, seed=5)
    out1 = m.forward(big)
    grads1 = m.backward(big, uniform((4, H), 9))
    kept = [out1.copy()] + [a.copy() for a in grads1]
    out2 = m.forward(small)
    grads2 = m.backward(small, uniform((2, H), 8))
    for a, b in zip([out1] + grads1, kept):
        np.testing.assert_array_equal(a, b, err_msg="an array handed out before the batch size changed was changed")
    storage = m.storage
    again = [a[::-1].copy() for a in small]
    out3 = m.forward(again)
    grads3 = m.backward(again, uniform((2, H), 7))
    assert out3 is out2 and m.storage is storage
    assert all(a is b for a, b in zip(grads3, grads2)), "gradInput arrays were not reused"
    np.testing.assert_array_equal(out3, fresh.forward(again))
    for a, b in zip(grads3, fresh.backward(again, uniform((2, H), 7))):
        np.testing.assert_array_equal(a, b)


def test_pickle_round_trip():
    t = table()
    check_pickle(Slot(make(), t, 2), t[2], uniform((B, H), 9))
    m = make()
    m.forward(t)
    restored = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(restored.forward(t), m.forward(t))
    assert repr(restored) == "nn.GRUCellFused(3)"


def test_clearState_and_float():
    m = make()
    m.forward(table())
    m.clearState()
    assert m.output is None and m.storage is None
    m.float()
    assert m.inputBias.dtype == np.float32
    assert m.forward([a.astype(np.float32) for a in table()]).dtype == np.float32


def test_repr():
    assert repr(nn.GRUCellFused(4, bias=False)) == "nn.GRUCellFused(4, without bias)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("value, got", [(np.zeros((B, 3 * H)), "ndarray"), ([np.zeros(3)] * 2, "a list of 2")])
def test_input_must_be_a_list_of_three(value, got):
    with raises_exactly(TypeError, f"GRUCellFused: input must be a list [inputGates, hiddenGates, hx], got {got}"):
        make().forward(value)


@pytest.mark.parametrize("hidden", [0, -1, "2"])
def test_constructor_refuses_bad_sizes(hidden):
    with raises_exactly(ValueError, f"GRUCellFused: hiddenSize must be positive integers, got hiddenSize={hidden!r}"):
        nn.GRUCellFused(hidden)


def test_gates_of_the_wrong_size():
    t = table()
    t[1] = np.zeros((B, 3 * H + 1))
    with raises_exactly(thnn.THNNError, "GRUFused_updateOutput: hidden must be 2D of size [4, 9], "
                                        "got 2D of size [4, 10]"):
        make().forward(t)
    t = table()
    t[0] = np.zeros((B + 1, 3 * H))
    with raises_exactly(thnn.THNNError, "GRUFused_updateOutput: input must be 2D of size [4, 9], "
                                        "got 2D of size [5, 9]"):
        make().forward(t)


def test_hidden_size_of_the_module_and_of_the_state_must_agree():
    """A GRUCellFused(3) fed the gates and state of hiddenSize 2."""
    with raises_exactly(thnn.THNNError, "GRUFused_updateOutput: bias1 must be 1D of size [6], got 1D of size [9]"):
        make().forward([np.zeros((B, 6)), np.zeros((B, 6)), np.zeros((B, 2))])


def test_kernel_checks():
    k = thnn.Double
    gi, gh, hx = table()
    bias = np.zeros(3 * H)
    with raises_exactly(thnn.THNNError, "GRUFused_updateOutput: bias1 and bias2 must be given together or both be "
                                        "None"):
        k.GRUFused_updateOutput(gi, gh, bias, None, hx, None, None)
    with raises_exactly(thnn.THNNError, "GRUFused_updateOutput: hx must be 1D [hiddenSize] or 2D [batch, "
                                        "hiddenSize], got 3D of size [1, 4, 3]"):
        k.GRUFused_updateOutput(gi, gh, None, None, hx[None], None, None)
    with raises_exactly(thnn.THNNError, "GRUFused_updateGradInput: storage must be 1D [5*hiddenSize] or 2D "
                                        "[batch, 5*hiddenSize], got 2D of size [4, 9]"):
        k.GRUFused_updateGradInput(None, None, hx, None, gi)


@pytest.mark.parametrize("g_shape, described", [((B, H + 1), "2D of size [4, 4]"), ((H,), "1D of size [3]"),
                                                ((B + 1, H), "2D of size [5, 3]")])
def test_mismatched_gradOutput(g_shape, described):
    m = make()
    t = table()
    m.forward(t)
    with raises_exactly(thnn.THNNError, "GRUFused_updateGradInput: gradOutput must be 2D of size [4, 3], "
                                        f"got {described}"):
        m.backward(t, np.zeros(g_shape))
    assert not m.gradInputBias.any()


def test_backward_before_forward():
    with raises_exactly(RuntimeError, "GRUCellFused: the backward pass needs the storage of a forward pass first"):
        make().backward(table(), np.zeros((B, H)))


def test_dtype_mixes():
    t = table()
    with raises_exactly(TypeError, "GRUCellFused: inputGates is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward([t[0].astype(np.float32)] + t[1:])
    with raises_exactly(TypeError, "GRUFused_updateOutput: hx must be float64 like the other tensors, got float32"):
        make().forward(t[:2] + [t[2].astype(np.float32)])
    m = make()
    m.forward(t)
    with raises_exactly(TypeError, "GRUFused_updateGradInput: gradOutput must be float64 like the other tensors, "
                                   "got float32"):
        m.backward(t, np.zeros((B, H), np.float32))
