"""nn_legacy.Abs and the Abs_* kernels: y = |x|."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout
from layer_checks import (assert_input_jacobian, check_nan_propagates, torch_forward_backward, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def input_with_zeros(shape, seed=1):
    x = uniform(shape, seed)
    x.reshape(-1)[::4] = 0.0
    return x


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Abs()
    x, g = input_with_zeros(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.abs(x))
    np.testing.assert_array_equal(m.backward(x, g), np.where(x >= 0, g, -g))


def test_gradient_at_zero_is_torch7s_plus_one():
    m = nn.Abs()
    x = np.array([-0.0, 0.0, -1e-300])
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, np.full(3, 2.0)), [2.0, 2.0, -2.0])


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)  # no zeros: torch's sign(0) is 0
    out, gin = torch_forward_backward(torch.abs, x, g)
    m = nn.Abs()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kink(shape):
    x = input_with_zeros(shape, 3)
    report = assert_input_jacobian(nn.Abs(), x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_nan_propagates():
    x = uniform((3, 4), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[2, 0] = True
    check_nan_propagates(nn.Abs(), x, (2, 0), mask, uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(nn.Abs)


def test_repr():
    assert repr(nn.Abs()) == "nn.Abs"
