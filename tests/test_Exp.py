"""nn_legacy.Exp: y = exp(x), in numpy."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_forward_backward, check_matches_torch, check_nan_at, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_forward_backward(nn.Exp(), x, g, np.exp(x), g * np.exp(x))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.Exp(), torch.exp, uniform(shape, 1), uniform(shape, 2), (1e-15, 0), (1e-15, 0))


def test_gradient_comes_from_the_output_of_the_forward_pass():
    m = nn.Exp()
    x, g = uniform((3,), 1), uniform((3,), 2)
    m.forward(x)
    np.testing.assert_array_equal(m.updateGradInput(x, g), g * m.output)


def test_overflow_gives_inf_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = nn.Exp().forward(np.array([1000.0, -1000.0]))
    np.testing.assert_array_equal(out, [np.inf, 0.0])


def test_nan_propagates():
    check_nan_at(nn.Exp(), uniform((3, 4), 1), (1, 2), uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Exp(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Exp()) == "nn.Exp"
