"""nn_legacy.Sigmoid and the Sigmoid_* kernels: y = 1 / (1 + exp(-x)).
The checks it shares with Tanh run here over FAMILY."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, check_own_output_as_input,
                          forward_backward_silently, raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# Sigmoid and Tanh are one family: the checks they share run here over FAMILY,
# each with its numpy function, its derivative in terms of the output, torch's
# function and where the NaN goes; each file keeps the cases only it has.
FAMILY = {
    "Sigmoid": (sigmoid, lambda y: y * (1 - y), "sigmoid", (1, 2)),
    "Tanh": (np.tanh, lambda y: 1 - y * y, "tanh", (2, 0)),
}


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, name):
    fn, dfn = FAMILY[name][:2]
    x, g = uniform(shape, 1), uniform(shape, 2)
    y = fn(x)
    check_forward_backward(getattr(nn, name)(), x, g, y, g * dfn(y), (1e-15, 0), (1e-14, 1e-16))


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, name):
    torch = torch_or_skip()
    check_matches_torch(getattr(nn, name)(), getattr(torch, FAMILY[name][2]), uniform(shape, 1), uniform(shape, 2),
                        (1e-14, 1e-16), (1e-13, 1e-16))


@pytest.mark.parametrize("name", FAMILY)
def test_own_output_as_input_is_not_overwritten(name):
    fn = FAMILY[name][0]
    x = uniform((4, 5), 1)
    check_own_output_as_input(getattr(nn, name)(), x, lambda _: fn(fn(x)), (1e-15, 0))


@pytest.mark.parametrize("name", FAMILY)
def test_nan_propagates(name):
    check_nan_at(getattr(nn, name)(), uniform((3, 4), 1), FAMILY[name][3], uniform((3, 4), 2))


@pytest.mark.parametrize("name", FAMILY)
def test_repr(name):
    assert repr(getattr(nn, name)()) == f"nn.{name}"


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("ndim", [0, thnn.MAX_DIM + 1])
def test_unsupported_number_of_dimensions(ndim, name):
    with raises_exactly(thnn.THNNError, f"{name}_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got {ndim}"):
        getattr(nn, name)().forward(np.zeros((1,) * ndim))


def test_saturates_without_overflow():
    out, grad = forward_backward_silently(nn.Sigmoid(), np.array([-800.0, -40.0, 0.0, 40.0, 800.0]))
    np.testing.assert_allclose(out, [0, sigmoid(-40.0), 0.5, 1, 1], rtol=1e-15, atol=0)
    assert np.all(np.isfinite(grad)) and grad[0] == 0 and grad[-1] == 0 and grad[2] == 0.25


def test_broadcast_input_with_zero_strides():
    x = np.broadcast_to(uniform((5,), 1), (4, 5))
    np.testing.assert_array_equal(nn.Sigmoid().forward(x), nn.Sigmoid().forward(np.ascontiguousarray(x)))


def test_most_dimensions_accepted():
    x = uniform((1, 2) * (thnn.MAX_DIM // 2), 1)
    np.testing.assert_allclose(nn.Sigmoid().forward(x), sigmoid(x), rtol=1e-15, atol=0)
