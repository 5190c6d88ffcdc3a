"""nn_legacy.Log: y = log(x), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, forward_backward_silently,
                          torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def positive(shape, seed):
    return uniform(shape, seed, 0.1, 4)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = positive(shape, 1), uniform(shape, 2)
    check_forward_backward(nn.Log(), x, g, np.log(x), g / x)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.Log(), torch.log, positive(shape, 1), uniform(shape, 2), (1e-15, 0), (1e-15, 0))


def test_zero_and_negative_inputs_give_ieee_values_silently():
    out, grad = forward_backward_silently(nn.Log(), np.array([0.0, -1.0, 1.0]))
    assert out[0] == -np.inf and np.isnan(out[1]) and out[2] == 0
    np.testing.assert_array_equal(grad, [np.inf, -1.0, 1.0])


def test_nan_propagates():
    check_nan_at(nn.Log(), positive((3, 4), 1), (2, 2), uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Log(), positive((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Log()) == "nn.Log"
