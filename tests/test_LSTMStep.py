"""nn_legacy.LSTMStep: one step of the rnn package's LSTM (with peepholes)."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import uniform
from rnn_checks import TOL, check_sequence

D, H, N = 3, 4, 5


@pytest.mark.parametrize("cell2gate", [True, False])
def test_gradients(cell2gate):
    nn.manualSeed(0)
    m = nn.LSTMStep(D, H, cell2gate)
    assert check_sequence(m, [uniform((N, D), 1), uniform((N, H), 2), uniform((N, H), 3)]) < TOL


def test_one_sample_and_the_cell():
    nn.manualSeed(1)
    m = nn.LSTMStep(D, H)
    x, h, c = uniform((N, D), 4), uniform((N, H), 5), uniform((N, H), 6)
    hy, cy = (a.copy() for a in m.forward([x, h, c]))
    p = m.parameters()[0]
    w = {"f": p[0:4], "i": p[4:8], "z": p[8:11], "o": p[11:15]}
    np.testing.assert_allclose(hy, R.lstm_peephole([x], w, h, c)[0], rtol=1e-13)
    one = m.forward([x[1], h[1], c[1]])
    np.testing.assert_allclose(one[0], hy[1], rtol=1e-13)
    np.testing.assert_allclose(one[1], cy[1], rtol=1e-13)


def test_errors():
    m = nn.LSTMStep(D, H)
    with pytest.raises(ValueError, match=r"LSTMStep: input c must be of size \[5, 4\] \(x is \[5, 3\]\), got \[5, 5\]"):
        m.forward([np.zeros((N, D)), np.zeros((N, H)), np.zeros((N, H + 1))])
    with pytest.raises(TypeError, match="input h must be a numpy array"):
        m.forward([np.zeros((N, D)), None, np.zeros((N, H))])
    assert repr(nn.LSTMStep(D, H, False)) == "nn.LSTMStep(3 -> 4, no peepholes)"
