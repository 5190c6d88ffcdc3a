"""nn_legacy.Abs and the Abs_* kernels: y = |x|."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout
from layer_checks import (assert_input_jacobian, check_forward_backward, check_matches_torch, check_nan_at,
                          torch_or_skip, uniform, with_zeros)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = with_zeros(shape), uniform(shape, 2)
    check_forward_backward(nn.Abs(), x, g, np.abs(x), np.where(x >= 0, g, -g))


def test_gradient_at_zero_is_torch7s_plus_one():
    m = nn.Abs()
    x = np.array([-0.0, 0.0, -1e-300])
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, np.full(3, 2.0)), [2.0, 2.0, -2.0])


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    # no zeros: torch's sign(0) is 0
    check_matches_torch(nn.Abs(), torch.abs, uniform(shape, 1), uniform(shape, 2))


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kink(shape):
    x = with_zeros(shape, 3)
    report = assert_input_jacobian(nn.Abs(), x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_nan_propagates():
    check_nan_at(nn.Abs(), uniform((3, 4), 1), (2, 0), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(nn.Abs)


def test_repr():
    assert repr(nn.Abs()) == "nn.Abs"
