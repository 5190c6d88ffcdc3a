"""nn_legacy.SoftSign: y = x / (1 + |x|), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_forward_backward, check_matches_torch, check_nan_at, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = uniform(shape, 1, -5, 5), uniform(shape, 2)
    check_forward_backward(nn.SoftSign(), x, g, x / (1 + np.abs(x)), g / (1 + np.abs(x)) ** 2, (1e-15, 0), (1e-15, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.SoftSign(), torch.nn.functional.softsign, uniform(shape, 1, -5, 5), uniform(shape, 2),
                        (1e-15, 0), (1e-14, 0))


def test_saturates_at_plus_and_minus_one():
    out = nn.SoftSign().forward(np.array([-1e300, -np.inf, 0.0, np.inf, 1e300]))
    np.testing.assert_array_equal(out[[0, 2, 4]], [-1, 0, 1])
    assert np.isnan(out[1]) and np.isnan(out[3])  # inf / inf, as Torch7 and PyTorch give


def test_nan_propagates():
    check_nan_at(nn.SoftSign(), uniform((3, 4), 1), (2, 1), uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.SoftSign(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.SoftSign()) == "nn.SoftSign"
