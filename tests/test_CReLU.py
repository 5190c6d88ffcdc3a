"""nn_legacy.CReLU: [max(0, x), max(0, -x)] joined along the feature dim, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_matches_torch, raises_exactly, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy

# (nInputDims, input shape, feature dim)
LAYOUTS = [(1, (5,), 0), (1, (3, 5), 1), (3, (3, 2, 2), 0), (3, (2, 3, 2, 2), 1), (2, (4, 3), 0)]
IDS = ["1D sample", "1D batch", "3D sample", "3D batch", "2D sample"]


def with_zeros(shape, seed=1):
    x = uniform(shape, seed)
    x.reshape(-1)[::5] = 0.0
    return x


def crelu(x, dim):
    return np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], axis=dim)


def out_shape(shape, dim):
    return shape[:dim] + (2 * shape[dim],) + shape[dim + 1:]


@pytest.mark.parametrize("n_dims, shape, dim", LAYOUTS, ids=IDS)
def test_matches_numpy(n_dims, shape, dim):
    m = nn.CReLU(n_dims)
    x, g = with_zeros(shape), uniform(out_shape(shape, dim), 2)
    np.testing.assert_array_equal(m.forward(x), crelu(x, dim))
    first, second = np.split(g, 2, axis=dim)
    np.testing.assert_array_equal(m.backward(x, g), np.where(x > 0, first, 0) - np.where(x < 0, second, 0))


@pytest.mark.parametrize("n_dims, shape, dim", LAYOUTS, ids=IDS)
def test_matches_torch(n_dims, shape, dim):
    torch = torch_or_skip()
    F = torch.nn.functional
    x, g = with_zeros(shape), uniform(out_shape(shape, dim), 2)
    check_matches_torch(nn.CReLU(n_dims), lambda t: torch.cat([F.relu(t), F.relu(-t)], dim=dim), x, g)


@pytest.mark.parametrize("n_dims, shape, dim", LAYOUTS, ids=IDS)
def test_jacobian(n_dims, shape, dim):
    x = with_zeros(shape, 3)
    report = assert_input_jacobian(nn.CReLU(n_dims), x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_in_place_masks_gradOutput_like_torch7s_in_place_relu():
    x, g = with_zeros((3, 4)), uniform((3, 8), 2)
    expected = nn.CReLU(1).forward(x), nn.CReLU(1).backward(x, g.copy())
    m = nn.CReLU(1, inplace=True)
    x_in, g_in = x.copy(), g.copy()
    np.testing.assert_array_equal(m.forward(x_in), expected[0])
    np.testing.assert_array_equal(x_in, x)  # the output is twice as large: the input is left alone
    np.testing.assert_array_equal(m.backward(x_in, g_in), expected[1])
    np.testing.assert_array_equal(g_in, np.where(expected[0] > 0, g, 0))
    assert_input_jacobian(nn.CReLU(1, inplace=True), x, kinks=(0,))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.CReLU(1), uniform((4, 5), 1), uniform((4, 10), 2), "the output")


def test_wrong_number_of_dims():
    with raises_exactly(ValueError, "CReLU: input must be 3D (one sample) or 4D (a batch) for nInputDims=3, "
                                    "got 2D of size [3, 4]"):
        nn.CReLU(3).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "CReLU: nInputDims must be at least 1, got 0"):
        nn.CReLU(0)


def test_repr():
    assert repr(nn.CReLU(3)) == "nn.CReLU(3)"
    assert repr(nn.CReLU(1, inplace=True)) == "nn.CReLU(1, in-place)"
