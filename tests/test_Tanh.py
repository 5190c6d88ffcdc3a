"""nn_legacy.Tanh and the Tanh_* kernels: y = tanh(x).
Its values against numpy and torch, own-output, NaN, repr and dimension checks
run with Sigmoid's, over the family table in test_Sigmoid.py."""
import numpy as np

import nn_legacy as nn
from layer_checks import forward_backward_silently, uniform


def test_saturates_without_overflow():
    x = np.array([-800.0, -20.0, 0.0, 20.0, 800.0])
    out, grad = forward_backward_silently(nn.Tanh(), x)
    np.testing.assert_array_equal(out, np.tanh(x))
    assert out[0] == -1 and out[-1] == 1 and out[2] == 0
    assert grad[0] == 0 and grad[-1] == 0 and grad[2] == 1


def test_odd_function():
    m = nn.Tanh()
    x = uniform((4, 5), 1)
    plus = m.forward(x).copy()
    np.testing.assert_array_equal(m.forward(-x), -plus)
