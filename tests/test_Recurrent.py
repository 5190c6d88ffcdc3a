"""nn_legacy.Recurrent: the rnn package's simple recurrent network."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

D, H, N, T = 3, 4, 2, 5
X = uniform((T, N, D), 1)


def test_formula_and_parameters():
    nn.manualSeed(0)
    m = nn.Recurrent(H, nn.Linear(D, H), nn.Linear(H, H), nn.Tanh(), 3)
    start, Wi, bi, Wf, bf = m.parameters()[0]
    assert start.shape == (H,) and m.rho == 3
    h = np.tanh(X[0] @ Wi.T + bi + start)
    np.testing.assert_allclose(m.forward(X[0]), h, rtol=1e-14)
    for x in X[1:]:
        h = np.tanh(x @ Wi.T + bi + h @ Wf.T + bf)
        np.testing.assert_allclose(m.forward(x), h, rtol=1e-13)
    m.forget()
    h0 = uniform((N, H), 2)
    m.setStartState(h0)                       # then step 1 is a step like the others
    np.testing.assert_allclose(m.forward(X[0]), np.tanh(X[0] @ Wi.T + bi + h0 @ Wf.T + bf), rtol=1e-14)


def test_defaults_and_refusals():
    m = nn.Recurrent(nn.Add(H), nn.Linear(D, H), nn.Linear(H, H))
    assert isinstance(m.transferModule, nn.Sigmoid) and isinstance(m.mergeModule, nn.CAddTable)
    assert "nn.Recurrent {" in repr(m)
    with pytest.raises(NotImplementedError, match="maskZero is not supported"):
        m.maskZero(1)
    with pytest.raises(TypeError, match="feedback must be a Module"):
        nn.Recurrent(H, nn.Linear(D, H), None)
