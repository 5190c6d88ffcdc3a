"""nn_legacy.FastLSTM against torch.nn.LSTM over whole sequences, forward
and backward (inputs, initial state, every parameter)."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import torch_or_skip, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 5, 2, 6


@pytest.mark.parametrize("batch", [True, False], ids=["batch", "one sample"])
def test_matches_torch_lstm(batch):
    torch = torch_or_skip()
    nn.manualSeed(0)
    m = nn.FastLSTM(D, H)
    n = N if batch else 1
    xs, gs = uniform((T, n, D), 1), uniform((T, n, H), 2)
    h0, c0 = uniform((n, H), 3), uniform((n, H), 4)
    own = (lambda a: a) if batch else (lambda a: a[..., 0, :])     # one sample: no batch dim
    ys, gx, (gh0, gc0), (gW, gb, gU) = run_bptt(m, own(xs), own(gs), start=[own(h0), own(c0)])
    rows = R.fast_to_torch_rows(H)
    y, lstm, tx, th, tc = R.torch_lstm(m.i2g.weight[rows], m.o2g.weight[rows], m.i2g.bias[rows], xs, h0, c0)
    (y * torch.from_numpy(gs)).sum().backward()
    np.testing.assert_allclose(ys, own(y.detach().numpy()), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gx, own(tx.grad.numpy()), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gh0, own(th.grad.numpy()[0]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gc0, own(tc.grad.numpy()[0]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gW[rows], lstm.weight_ih_l0.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gU[rows], lstm.weight_hh_l0.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gb[rows], lstm.bias_ih_l0.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_layout_and_parameters():
    nn.manualSeed(1)
    m = nn.FastLSTM(D, H)
    assert m.i2g.weight.shape == (4 * H, D) and m.o2g.weight.shape == (4 * H, H) and m.o2g.bias is None
    assert [p.shape for p in m.parameters()[0]] == [(4 * H, D), (4 * H,), (4 * H, H)]
    assert nn.FastLSTM(4).outputSize == 4
    m.maskZero(1)
    assert m.i2g is m.recurrentModule.modules[0].i2g
    with pytest.raises(NotImplementedError, match="dropout inside the step"):
        nn.FastLSTM(D, H, 9999, None, None, True, 0.5)
