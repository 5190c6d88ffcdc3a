"""nn_legacy.Tanh and the Tanh_* kernels: y = tanh(x)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, check_own_output_as_input,
                          forward_backward_silently, raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    y = np.tanh(x)
    check_forward_backward(nn.Tanh(), x, g, y, g * (1 - y * y), (1e-15, 0), (1e-14, 1e-16))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.Tanh(), torch.tanh, uniform(shape, 1), uniform(shape, 2), (1e-14, 1e-16), (1e-13, 1e-16))


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


def test_own_output_as_input_is_not_overwritten():
    x = uniform((4, 5), 1)
    check_own_output_as_input(nn.Tanh(), x, lambda _: np.tanh(np.tanh(x)), (1e-15, 0))


def test_nan_propagates():
    check_nan_at(nn.Tanh(), uniform((3, 4), 1), (2, 0), uniform((3, 4), 2))


def test_repr():
    assert repr(nn.Tanh()) == "nn.Tanh"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("ndim", [0, thnn.MAX_DIM + 1])
def test_unsupported_number_of_dimensions(ndim):
    with raises_exactly(thnn.THNNError, f"Tanh_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got {ndim}"):
        nn.Tanh().forward(np.zeros((1,) * ndim))
