"""nn_legacy.TanhShrink: y = x - tanh(x), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_forward_backward, check_matches_torch, check_nan_at, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = uniform(shape, 1, -4, 4), uniform(shape, 2)
    check_forward_backward(nn.TanhShrink(), x, g, x - np.tanh(x), g * np.tanh(x) ** 2, (1e-15, 0), (1e-15, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.TanhShrink(), torch.nn.functional.tanhshrink, uniform(shape, 1, -4, 4), uniform(shape, 2),
                        (1e-14, 1e-16), (1e-13, 1e-16))


def test_large_inputs_shift_by_one():
    np.testing.assert_array_equal(nn.TanhShrink().forward(np.array([-50.0, 50.0])), [-49.0, 49.0])


def test_nan_propagates():
    check_nan_at(nn.TanhShrink(), uniform((3, 4), 1), (0, 3), uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.TanhShrink(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.TanhShrink()) == "nn.TanhShrink"
