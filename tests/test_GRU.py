"""nn_legacy.GRU against a direct transcription of the rnn package's GRU
formula (tests/rnn_reference.py), forward in numpy and backward through
torch autograd of the same formula, over whole sequences; and how it
differs from torch.nn.GRU."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import torch_or_skip, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 6


def test_forward_matches_the_rnn_package_formula():
    nn.manualSeed(0)
    m = nn.GRU(D, H)
    xs, h0 = uniform((T, N, D), 1), uniform((N, H), 2)
    m.setStartState(h0)
    ys = np.stack([m.forward(x).copy() for x in xs])
    np.testing.assert_allclose(ys, R.gru(xs, *m.parameters()[0], h0), rtol=1e-13, atol=1e-15)


def test_backward_matches_autograd_of_the_formula():
    torch_or_skip()
    nn.manualSeed(1)
    m = nn.GRU(D, H)
    xs, gs, h0 = uniform((T, N, D), 3), uniform((T, N, H), 4), uniform((N, H), 5)
    ys, gx, g0, grads = run_bptt(m, xs, gs, start=h0)
    y, (tgx, tg0, *tgrads) = R.autograd(R.gru_formula, [xs, h0] + m.parameters()[0], gs)
    np.testing.assert_allclose(ys, y, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gx, tgx, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g0, tg0, rtol=1e-12, atol=1e-14)
    for g, tg in zip(grads, tgrads):
        np.testing.assert_allclose(g, tg, rtol=1e-12, atol=1e-14)


def test_not_torch_gru():
    """torch.nn.GRU's reset gate scales W_hn h + b_hn; the rnn package's scales h
    before W_hn: with the same weights and no recurrent bias they differ."""
    torch = torch_or_skip()
    nn.manualSeed(2)
    m = nn.GRU(D, H)
    Wg, bg, Ug, Wn, bn, Un = m.parameters()[0]
    g = torch.nn.GRU(D, H).double()
    with torch.no_grad():
        g.weight_ih_l0.copy_(torch.from_numpy(np.concatenate([Wg, Wn])))
        g.weight_hh_l0.copy_(torch.from_numpy(np.concatenate([Ug, Un])))
        g.bias_ih_l0.copy_(torch.from_numpy(np.concatenate([bg, bn])))
        g.bias_hh_l0.zero_()
    xs = uniform((T, N, D), 6)
    ours = np.stack([m.forward(x).copy() for x in xs])
    theirs = g(torch.from_numpy(xs))[0].detach().numpy()
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)    # h0 = 0: r has nothing to scale
    assert np.abs(ours[1:] - theirs[1:]).max() > 1e-3


def test_parameters_and_options():
    m = nn.GRU(D, H)
    assert [p.shape for p in m.parameters()[0]] == [(2 * H, D), (2 * H,), (2 * H, H), (H, D), (H,), (H, H)]
    assert repr(m) == "nn.GRU(3 -> 4)"
    with pytest.raises(NotImplementedError, match=r"GRU: dropout inside the step \(p=0.25\)"):
        nn.GRU(D, H, 9999, 0.25)
    m.userPrevOutput = uniform((N, H), 7)
    x = uniform((N, D), 8)
    np.testing.assert_allclose(m.forward(x), R.gru([x], *m.parameters()[0], m.userPrevOutput)[0], rtol=1e-13)
