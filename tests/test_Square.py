"""nn_legacy.Square and the Square_* kernels: y = x^2."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout
from layer_checks import check_forward_backward, check_matches_torch, check_nan_at, torch_or_skip, uniform

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_forward_backward(nn.Square(), x, g, x * x, 2 * x * g)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.Square(), torch.square, uniform(shape, 1), uniform(shape, 2), None, (1e-15, 0))


def test_nan_propagates():
    check_nan_at(nn.Square(), uniform((3, 4), 1), (1, 1), uniform((3, 4), 2))


def test_overflow_gives_inf_not_a_crash():
    m = nn.Square().float()
    out = m.forward(np.array([1e20, -1e20, 3.0], dtype=np.float32))
    np.testing.assert_array_equal(out, [np.inf, np.inf, 9.0])


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(nn.Square)


def test_repr():
    assert repr(nn.Square()) == "nn.Square"
