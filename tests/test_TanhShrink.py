"""nn_legacy.TanhShrink: y = x - tanh(x), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_nan_propagates, torch_forward_backward,
                          torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.TanhShrink()
    x, g = uniform(shape, 1, -4, 4), uniform(shape, 2)
    np.testing.assert_allclose(m.forward(x), x - np.tanh(x), rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), g * np.tanh(x) ** 2, rtol=1e-15, atol=0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1, -4, 4), uniform(shape, 2)
    out, gin = torch_forward_backward(torch.nn.functional.tanhshrink, x, g)
    m = nn.TanhShrink()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-16)


def test_large_inputs_shift_by_one():
    np.testing.assert_array_equal(nn.TanhShrink().forward(np.array([-50.0, 50.0])), [-49.0, 49.0])


def test_nan_propagates():
    mask = np.zeros((3, 4), dtype=bool)
    mask[0, 3] = True
    check_nan_propagates(nn.TanhShrink(), uniform((3, 4), 1), (0, 3), mask, uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.TanhShrink(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.TanhShrink()) == "nn.TanhShrink"
