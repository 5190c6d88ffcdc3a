"""nn_legacy.Log: y = log(x), in numpy."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_nan_propagates, torch_forward_backward,
                          torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def positive(shape, seed):
    return uniform(shape, seed, 0.1, 4)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Log()
    x, g = positive(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.log(x))
    np.testing.assert_array_equal(m.backward(x, g), g / x)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = positive(shape, 1), uniform(shape, 2)
    out, gin = torch_forward_backward(torch.log, x, g)
    m = nn.Log()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15, atol=0)


def test_zero_and_negative_inputs_give_ieee_values_silently():
    m = nn.Log()
    x = np.array([0.0, -1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
        grad = m.backward(x, np.ones(3))
    assert out[0] == -np.inf and np.isnan(out[1]) and out[2] == 0
    np.testing.assert_array_equal(grad, [np.inf, -1.0, 1.0])


def test_nan_propagates():
    mask = np.zeros((3, 4), dtype=bool)
    mask[2, 2] = True
    check_nan_propagates(nn.Log(), positive((3, 4), 1), (2, 2), mask, uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Log(), positive((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Log()) == "nn.Log"
