"""nn_legacy.LinearNoBias (the rnn package's): y = W x, no bias."""
import numpy as np

import nn_legacy as nn
from layer_checks import (uniform)


def test_is_linear_without_bias():
    nn.manualSeed(0)
    m = nn.LinearNoBias(5, 3)
    assert m.bias is None and len(m.parameters()[0]) == 1 and repr(m) == "nn.LinearNoBias(5 -> 3)"
    x, g = uniform((4, 5), 1), uniform((4, 3), 2)
    np.testing.assert_allclose(m.forward(x), x @ m.weight.T, rtol=1e-13)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(x, g, 0.5), g @ m.weight, rtol=1e-13)
    np.testing.assert_allclose(m.gradWeight, 0.5 * g.T @ x, rtol=1e-13)
    np.testing.assert_allclose(m.forward(x[0]), x[0] @ m.weight.T, rtol=1e-13)


def test_reset_as_the_rnn_package():
    m = nn.LinearNoBias(16, 50)
    assert np.abs(m.weight).max() <= 1 / 4 and np.abs(m.weight).max() > 0.2
    m.reset(0.1)                                   # a standard deviation: U(-0.1 sqrt 3, 0.1 sqrt 3)
    assert np.abs(m.weight).max() <= 0.1 * np.sqrt(3) and np.abs(m.weight).max() > 0.15
    assert abs(m.weight.std() - 0.1) < 0.01
