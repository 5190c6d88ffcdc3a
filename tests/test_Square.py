"""nn_legacy.Square and the Square_* kernels: y = x^2."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout
from layer_checks import (check_nan_propagates, torch_forward_backward, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Square()
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), x * x)
    np.testing.assert_array_equal(m.backward(x, g), 2 * x * g)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    out, gin = torch_forward_backward(torch.square, x, g)
    m = nn.Square()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15, atol=0)


def test_nan_propagates():
    x = uniform((3, 4), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[1, 1] = True
    check_nan_propagates(nn.Square(), x, (1, 1), mask, uniform((3, 4), 2))


def test_overflow_gives_inf_not_a_crash():
    m = nn.Square().float()
    out = m.forward(np.array([1e20, -1e20, 3.0], dtype=np.float32))
    np.testing.assert_array_equal(out, [np.inf, np.inf, 9.0])


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(nn.Square)


def test_repr():
    assert repr(nn.Square()) == "nn.Square"
