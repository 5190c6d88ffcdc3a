"""nn_legacy.Tanh and the Tanh_* kernels: y = tanh(x)."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_nan_propagates, raises_exactly, torch_forward_backward, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Tanh()
    x, g = uniform(shape, 1), uniform(shape, 2)
    y = np.tanh(x)
    np.testing.assert_allclose(m.forward(x), y, rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), g * (1 - y * y), rtol=1e-14, atol=1e-16)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    out, gin = torch_forward_backward(torch.tanh, x, g)
    m = nn.Tanh()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-16)


def test_saturates_without_overflow():
    m = nn.Tanh()
    x = np.array([-800.0, -20.0, 0.0, 20.0, 800.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
        grad = m.backward(x, np.ones(5))
    np.testing.assert_array_equal(out, np.tanh(x))
    assert out[0] == -1 and out[-1] == 1 and out[2] == 0
    assert grad[0] == 0 and grad[-1] == 0 and grad[2] == 1


def test_odd_function():
    m = nn.Tanh()
    x = uniform((4, 5), 1)
    plus = m.forward(x).copy()
    np.testing.assert_array_equal(m.forward(-x), -plus)


def test_own_output_as_input_is_not_overwritten():
    m = nn.Tanh()
    x = uniform((4, 5), 1)
    y = m.forward(x)
    kept = y.copy()
    z = m.forward(y)
    assert z is not y
    np.testing.assert_array_equal(y, kept)
    np.testing.assert_allclose(z, np.tanh(np.tanh(x)), rtol=1e-15, atol=0)


def test_nan_propagates():
    x = uniform((3, 4), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[2, 0] = True
    check_nan_propagates(nn.Tanh(), x, (2, 0), mask, uniform((3, 4), 2))


def test_repr():
    assert repr(nn.Tanh()) == "nn.Tanh"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("ndim", [0, thnn.MAX_DIM + 1])
def test_unsupported_number_of_dimensions(ndim):
    with raises_exactly(thnn.THNNError, f"Tanh_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got {ndim}"):
        nn.Tanh().forward(np.zeros((1,) * ndim))
