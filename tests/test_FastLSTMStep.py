"""nn_legacy.FastLSTMStep: one FastLSTM step through THNN's fused LSTM
kernel, against torch.nn.LSTMCell."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import torch_or_skip, uniform
from rnn_checks import TOL, check_sequence

D, H, N = 3, 4, 5


def test_matches_torch_lstm_cell():
    torch = torch_or_skip()
    nn.manualSeed(0)
    m = nn.FastLSTMStep(D, H)
    x, h, c = uniform((N, D), 1), uniform((N, H), 2), uniform((N, H), 3)
    gh, gc = uniform((N, H), 4), uniform((N, H), 5)
    rows = R.fast_to_torch_rows(H)
    cell = torch.nn.LSTMCell(D, H).double()
    with torch.no_grad():
        cell.weight_ih.copy_(torch.from_numpy(m.i2g.weight[rows]))
        cell.weight_hh.copy_(torch.from_numpy(m.o2g.weight[rows]))
        cell.bias_ih.copy_(torch.from_numpy(m.i2g.bias[rows]))
        cell.bias_hh.zero_()
    tx, th, tc = (torch.tensor(a, requires_grad=True) for a in (x, h, c))
    ty, tcy = cell(tx, (th, tc))
    ((ty * torch.from_numpy(gh)).sum() + (tcy * torch.from_numpy(gc)).sum()).backward()
    y, cy = m.forward([x, h, c])
    np.testing.assert_allclose(y, ty.detach().numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(cy, tcy.detach().numpy(), rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    gx, gh0, gc0 = m.backward([x, h, c], [gh, gc])
    for a, t in ((gx, tx), (gh0, th), (gc0, tc)):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.i2g.gradWeight[rows], cell.weight_ih.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.o2g.gradWeight[rows], cell.weight_hh.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_gradients_and_one_sample():
    nn.manualSeed(1)
    m = nn.FastLSTMStep(D, H)
    assert check_sequence(m, [uniform((N, D), 6), uniform((N, H), 7), uniform((N, H), 8)]) < TOL
    y1 = m.forward([uniform((N, D), 6)[0], uniform((N, H), 7)[0], uniform((N, H), 8)[0]])
    yb = m.forward([uniform((N, D), 6), uniform((N, H), 7), uniform((N, H), 8)])
    np.testing.assert_allclose(y1[0], yb[0][0], rtol=1e-13)


def test_errors():
    m = nn.FastLSTMStep(D, H)
    with pytest.raises(ValueError, match=r"FastLSTMStep: input must be 1D \[3\] or 2D \[batch, 3\]"):
        m.forward([np.zeros((N, D + 1)), np.zeros((N, H)), np.zeros((N, H))])
    with pytest.raises(TypeError, match=r"FastLSTMStep: input must be a table \(list\), got ndarray"):
        m.forward(np.zeros((N, D)))
    with pytest.raises(ValueError, match=r"FastLSTMStep: input c must be of size \[5, 4\]"):
        m.forward([np.zeros((N, D)), np.zeros((N, H)), np.zeros((N, H + 1))])
    assert repr(m) == "nn.FastLSTMStep(3 -> 4)"
