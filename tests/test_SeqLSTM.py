"""nn_legacy.SeqLSTM against torch.nn.LSTM and FastLSTM, and its rnn-package
options (initial states, remember, batchfirst, the user hooks)."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import (torch_or_skip, uniform)
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 6
X, G = uniform((T, N, D), 1), uniform((T, N, H), 2)
H0, C0 = uniform((N, H), 3), uniform((N, H), 4)


def _m():
    nn.manualSeed(0)
    return nn.SeqLSTM(D, H)


def test_matches_torch_lstm():
    torch = torch_or_skip()
    m = _m()
    cols = R.seq_to_torch_rows(H)
    Wx, Wh = m.weight[:D, cols].T.copy(), m.weight[D:, cols].T.copy()
    y, lstm, tx, th, tc = R.torch_lstm(Wx, Wh, m.bias[cols], X, H0, C0)
    (y * torch.from_numpy(G)).sum().backward()
    np.testing.assert_allclose(m.forward([C0, H0, X]), y.detach().numpy(), rtol=1e-12, atol=1e-14)
    m.zeroGradParameters()
    gc0, gh0, gx = m.backward([C0, H0, X], G)
    for a, b in ((gx, tx), (gh0, th), (gc0, tc)):
        np.testing.assert_allclose(a, b.grad.numpy().reshape(a.shape), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight[:D, cols].T, lstm.weight_ih_l0.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight[D:, cols].T, lstm.weight_hh_l0.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias[cols], lstm.bias_ih_l0.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert m.userGradPrevOutput is gh0 and m.userGradPrevCell is gc0


def test_is_fast_lstm_with_its_weights_rearranged():
    m = _m()
    f = nn.FastLSTM(D, H)
    i, fg, o, z = (slice(k * H, (k + 1) * H) for k in range(4))
    order = np.r_[i, z, fg, o]        # FastLSTM's gate rows i, z, f, o from SeqLSTM's columns i, f, o, z
    f.i2g.weight[...] = m.weight[:D, order].T
    f.o2g.weight[...] = m.weight[D:, order].T
    f.i2g.bias[...] = m.bias[order]
    ys, gx, _, grads = run_bptt(f, X, G)
    np.testing.assert_allclose(m.forward(X), ys, rtol=1e-12, atol=1e-14)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(X, G), gx, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight[:D, order].T, grads[0], rtol=1e-12, atol=1e-14)


def test_separate_verbs_equal_backward():
    m = _m()
    m.forward(X)
    m.zeroGradParameters()
    g1 = m.backward(X, G).copy()
    p1 = [g.copy() for g in m.parameters()[1]]
    m.zeroGradParameters()
    assert np.array_equal(m.updateGradInput(X, G), g1) and not np.abs(m.gradWeight).any()
    m.accGradParameters(X, G, 2.0)
    for g, g1_ in zip(m.parameters()[1], p1):
        np.testing.assert_allclose(g, 2 * g1_, rtol=1e-14, atol=1e-15)


def test_remember_user_states_and_hooks():
    m = _m()
    full = m.forward(X).copy()
    m.remember("both")
    m.forget()
    m.forward(X[:3])
    np.testing.assert_allclose(m.forward(X[3:]), full[3:], rtol=1e-13, atol=1e-15)   # continues
    m.remember("eval")
    np.testing.assert_allclose(m.forward(X[:3]), full[:3], rtol=1e-13)              # training: starts afresh
    m.remember("neither")
    m.userPrevOutput, m.userPrevCell = H0, C0
    with_states = m.forward(X).copy()
    np.testing.assert_allclose(with_states, m.forward([C0, H0, X]), rtol=1e-14)
    assert m.userPrevOutput is None                                                 # used once
    extra = uniform((N, H), 5)
    m.forward(X)
    g_plus = G.copy()
    g_plus[-1] += extra
    expected = m.backward(X, g_plus).copy()
    m.forward(X)
    m.gradPrevOutput = extra
    np.testing.assert_allclose(m.backward(X, G), expected, rtol=1e-13, atol=1e-15)


def test_batchfirst_and_reset():
    m = _m()
    full = m.forward(X).copy()
    m.batchfirst = True
    np.testing.assert_allclose(m.forward(np.ascontiguousarray(X.transpose(1, 0, 2))), full.transpose(1, 0, 2),
                               rtol=1e-14)
    assert np.all(m.bias[H:2 * H] == 1) and np.all(m.bias[:H] == 0)     # the forget gate's bias starts at 1
    with pytest.raises(NotImplementedError, match="SeqLSTMP"):
        nn.SeqLSTM(D, H, 2)


def test_errors():
    m = _m()
    with pytest.raises(ValueError, match=r"SeqLSTM: x must be 3D \[seqlen, batch, 3\], got 2D"):
        m.forward(X[0])
    with pytest.raises(ValueError, match=r"h0 must be float64 of size \[2, 4\], got float64 of size \[3, 4\]"):
        m.forward([np.zeros((3, H)), X])
    with pytest.raises(ValueError, match=r"input must be x, \[h0, x\] or \[c0, h0, x\], got a table of 4"):
        m.forward([H0, H0, H0, X])
    with pytest.raises(RuntimeError, match="backward needs a forward first"):
        _m().backward(X, G)
    m.forward(X)
    with pytest.raises(ValueError, match="gradOutput must be of size"):
        m.backward(X, G[:2])
