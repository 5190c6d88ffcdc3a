"""nn_legacy.LSTM (the rnn package's, with peepholes) against a
transcription of its formula: forward in numpy, backward through torch
autograd of the same formula, over whole sequences."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import torch_or_skip, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 6


def _weights(m):
    """The parameters by gate, as rnn_reference.lstm_peephole takes them."""
    p = m.parameters()[0]
    k, w = 0, {}
    for g in "fizo":
        n = 4 if m.cell2gate and g != "z" else 3
        w[g] = tuple(p[k:k + n])
        k += n
    return w


@pytest.mark.parametrize("cell2gate", [True, False], ids=["peepholes", "none"])
def test_forward_matches_the_formula(cell2gate):
    nn.manualSeed(0)
    m = nn.LSTM(D, H, cell2gate=cell2gate)
    xs, h0, c0 = uniform((T, N, D), 1), uniform((N, H), 2), uniform((N, H), 3)
    m.setStartState([h0, c0])
    ys = np.stack([m.forward(x).copy() for x in xs])
    np.testing.assert_allclose(ys, R.lstm_peephole(xs, _weights(m), h0, c0, cell2gate), rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(m.cell, m.getHiddenState()[1])


@pytest.mark.parametrize("cell2gate", [True, False], ids=["peepholes", "none"])
def test_backward_matches_autograd_of_the_formula(cell2gate):
    torch_or_skip()
    nn.manualSeed(1)
    m = nn.LSTM(D, H, cell2gate=cell2gate)
    xs, gs, h0, c0 = uniform((T, N, D), 4), uniform((T, N, H), 5), uniform((N, H), 6), uniform((N, H), 7)
    ys, gx, (gh0, gc0), grads = run_bptt(m, xs, gs, start=[h0, c0])
    y, (tgx, tgh0, tgc0, *tgrads) = R.autograd(R.lstm_peephole_formula, [xs, h0, c0] + m.parameters()[0], gs)
    for a, b in [(ys, y), (gx, tgx), (gh0, tgh0), (gc0, tgc0)] + list(zip(grads, tgrads)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_parameters_in_the_rnn_package_order():
    m = nn.LSTM(D, H)
    kinds = [type(x).__name__ for x in m.recurrentModule.modules]
    assert kinds == ["Linear", "LinearNoBias", "CMul"] * 2 + ["Linear", "LinearNoBias"] + \
        ["Linear", "LinearNoBias", "CMul"]
    assert len(m.parameters()[0]) == 15 and len(nn.LSTM(D, H, cell2gate=False).parameters()[0]) == 12
    assert nn.LSTM(3).outputSize == 3 and repr(m) == "nn.LSTM(3 -> 4)"
    with pytest.raises(NotImplementedError, match="dropout inside the step"):
        nn.LSTM(D, H, 9999, True, 0.5)
