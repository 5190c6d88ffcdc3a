"""nn_legacy.MulConstant: y = c x, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy, check_in_place

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.MulConstant(-1.5)
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), -1.5 * x)
    np.testing.assert_array_equal(m.backward(x, g), -1.5 * g)


def test_matches_torch():
    torch_or_skip()
    check_matches_torch(nn.MulConstant(0.7), lambda t: t * 0.7, uniform((4, 5), 1), uniform((4, 5), 2))


def test_in_place_multiplies_into_the_input_and_restores_it_going_back():
    x = uniform((4, 5), 1)
    x_kept = x.copy()
    x_in = check_in_place(lambda: nn.MulConstant(4), lambda: nn.MulConstant(4, inplace=True), x,
                          uniform((4, 5), 2))
    np.testing.assert_array_equal(x_in, x_kept)  # a power of two: restored exactly


def test_in_place_needs_a_nonzero_constant():
    with raises_exactly(ValueError, "MulConstant: in-place mode divides the input by constant_scalar to restore "
                                    "it, so constant_scalar must not be 0"):
        nn.MulConstant(0, inplace=True)
    np.testing.assert_array_equal(nn.MulConstant(0).forward(np.ones(3)), np.zeros(3))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.MulConstant(2), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.MulConstant(3)) == "nn.MulConstant(3)"
    assert repr(nn.MulConstant(-0.5, inplace=True)) == "nn.MulConstant(-0.5, in-place)"
