"""nn_legacy.AddConstant: y = x + c, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy, check_in_place

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.AddConstant(2.5)
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), x + 2.5)
    grad = m.backward(x, g)
    np.testing.assert_array_equal(grad, g)
    assert grad is not g


def test_matches_torch():
    torch_or_skip()
    check_matches_torch(nn.AddConstant(-3.25), lambda t: t + (-3.25), uniform((4, 5), 1), uniform((4, 5), 2))


def test_in_place_adds_into_the_input_and_restores_it_going_back():
    x = np.round(uniform((4, 5), 1) * 1024) / 1024  # x + 0.5 - 0.5 is exactly x for these
    x_kept = x.copy()
    x_in = check_in_place(lambda: nn.AddConstant(0.5), lambda: nn.AddConstant(0.5, inplace=True), x,
                          uniform((4, 5), 2))
    np.testing.assert_array_equal(x_in, x_kept)  # restored by the backward pass, as in Torch7


def test_bad_arrays():
    check_bad_arrays_numpy(nn.AddConstant(1), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.AddConstant(3)) == "nn.AddConstant(3)"
    assert repr(nn.AddConstant(0.5, inplace=True)) == "nn.AddConstant(0.5, in-place)"
