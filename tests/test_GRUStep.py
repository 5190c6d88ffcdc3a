"""nn_legacy.GRUStep: one step of the rnn package's GRU."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from layer_checks import uniform
from rnn_checks import TOL, check_sequence

D, H, N = 3, 4, 5


def test_one_step_is_the_formula():
    nn.manualSeed(0)
    m = nn.GRUStep(D, H)
    x, h = uniform((N, D), 1), uniform((N, H), 2)
    np.testing.assert_allclose(m.forward([x, h]), R.gru([x], *m.parameters()[0], h)[0], rtol=1e-13)
    np.testing.assert_allclose(m.forward([x[0], h[0]]), m.forward([x, h])[0], rtol=1e-13)


def test_gradients():
    nn.manualSeed(1)
    assert check_sequence(nn.GRUStep(D, H), [uniform((N, D), 3), uniform((N, H), 4)]) < TOL


def test_errors():
    m = nn.GRUStep(D, H)
    with pytest.raises(ValueError, match=r"GRUStep: input h must be of size \[5, 4\] \(x is \[5, 3\]\), got \[5, 5\]"):
        m.forward([np.zeros((N, D)), np.zeros((N, H + 1))])
    with pytest.raises(RuntimeError, match="needs the gates of a forward pass"):
        nn.GRUStep(D, H).backward([np.zeros((N, D)), np.zeros((N, H))], np.zeros((N, H)))
    m.forward([np.zeros((N, D)), np.zeros((N, H))])
    with pytest.raises(ValueError, match="gradOutput must be float64 of size"):
        m.backward([np.zeros((N, D)), np.zeros((N, H))], np.zeros((N, H + 1)))
