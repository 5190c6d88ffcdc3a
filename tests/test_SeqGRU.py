"""nn_legacy.SeqGRU: the rnn package's GRU over a whole sequence, against
GRU (its four matrices side by side) and the formula's transcription."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import check_buffer_reuse, check_float32, check_noncontiguous, check_pickle, torch_or_skip, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 6
X, G, H0 = uniform((T, N, D), 1), uniform((T, N, H), 2), uniform((N, H), 3)


def _m():
    nn.manualSeed(0)
    return nn.SeqGRU(D, H)


def _gru_weights(m):
    W, U, b = m.weight[:D], m.weight[D:], m.bias
    return W[:, :2 * H].T, b[:2 * H], U[:, :2 * H].T, W[:, 2 * H:].T, b[2 * H:], U[:, 2 * H:].T


def test_matches_gru_and_the_formula():
    torch_or_skip()
    m = _m()
    g = nn.GRU(D, H)
    for p, w in zip(g.parameters()[0], _gru_weights(m)):
        p[...] = w
    ys, gx, g0, grads = run_bptt(g, X, G, start=H0)
    np.testing.assert_allclose(m.forward([H0, X]), ys, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ys, R.gru(X, *_gru_weights(m), H0), rtol=1e-12, atol=1e-14)
    m.zeroGradParameters()
    gh0, gx2 = m.backward([H0, X], G)
    np.testing.assert_allclose(gx2, gx, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gh0, g0, rtol=1e-12, atol=1e-14)
    _, tg = R.autograd(R.gru_formula, [X, H0] + [np.ascontiguousarray(w) for w in _gru_weights(m)], G)
    np.testing.assert_allclose(m.gradWeight[:D, :2 * H].T, tg[2], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight[D:, 2 * H:].T, tg[7], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, np.concatenate([tg[3], tg[6]]), rtol=1e-12, atol=1e-14)


def test_layer_checks_and_options():
    m = _m()
    check_float32(m, X, G)
    check_noncontiguous(m, X, G)
    check_buffer_reuse(m, X, G, X[:, :1].copy(), G[:, :1].copy())
    check_pickle(m, X, G)
    full = m.forward(X).copy()
    m.remember()
    m.forget()
    m.forward(X[:2])
    np.testing.assert_allclose(m.forward(X[2:]), full[2:], rtol=1e-13, atol=1e-15)
    assert repr(m) == "nn.SeqGRU(3 -> 4)"
    with pytest.raises(ValueError, match=r"input must be x or \[h0, x\], got a table of 3"):
        m.forward([H0, H0, X])
    with pytest.raises(ValueError, match="remember: one of 'both', 'train', 'eval', 'neither', got 'always'"):
        m.remember("always")
