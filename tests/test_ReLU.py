"""nn_legacy.ReLU: y = max(0, x), Threshold(0, 0) on the Threshold_* kernels."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, check_forward_backward, check_matches_torch, check_nan_at,
                          raises_exactly, torch_or_skip, uniform, with_zeros)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    x, g = with_zeros(shape), uniform(shape, 2)
    check_forward_backward(nn.ReLU(), x, g, np.maximum(x, 0), np.where(x > 0, g, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.ReLU(), torch.nn.functional.relu, uniform(shape, 1), uniform(shape, 2))


def test_is_a_threshold_at_zero():
    m = nn.ReLU()
    assert isinstance(m, nn.Threshold) and (m.threshold, m.val) == (0.0, 0.0)
    np.testing.assert_array_equal(m.forward(np.array([-0.0, 0.0, 1e-300, -1e-300])), [0, 0, 1e-300, 0])


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kink(shape):
    x = with_zeros(shape, 3)
    report = assert_input_jacobian(nn.ReLU(), x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_pickle_keeps_in_place_mode():
    restored = pickle.loads(pickle.dumps(nn.ReLU(inplace=True)))
    x = uniform((4, 5), 1)
    expected = np.maximum(x, 0)
    assert restored.inplace and restored.forward(x) is x
    np.testing.assert_array_equal(x, expected)


def test_nan_propagates():
    check_nan_at(nn.ReLU(), uniform((3, 4), 1), (1, 1), uniform((3, 4), 2))


def test_repr():
    assert repr(nn.ReLU()) == "nn.ReLU"
    assert repr(nn.ReLU(inplace=True)) == "nn.ReLU(in-place)"


# ---------------------------------------------------------------- in place
def test_in_place_is_the_same_arrays_with_the_same_values():
    x, g = with_zeros((4, 5)), uniform((4, 5), 2)
    out_of_place = nn.ReLU()
    expected_out = out_of_place.forward(x).copy()
    expected_grad = out_of_place.backward(x, g).copy()
    m = nn.ReLU(inplace=True)
    x_in, g_in = x.copy(), g.copy()
    assert m.forward(x_in) is x_in
    np.testing.assert_array_equal(x_in, expected_out)
    assert m.backward(x_in, g_in) is g_in
    np.testing.assert_array_equal(g_in, expected_grad)


def test_in_place_twice_on_new_arrays_of_the_same_shape():
    m = nn.ReLU(inplace=True)
    a, b = uniform((3, 4), 1), uniform((3, 4), 2)
    a_kept = np.maximum(a, 0)
    b_expected = np.maximum(b, 0)
    assert m.forward(a) is a
    assert m.forward(b) is b  # the earlier output array (a) is not written again
    np.testing.assert_array_equal(a, a_kept)
    np.testing.assert_array_equal(b, b_expected)


def test_in_place_after_out_of_place_use_of_the_same_module():
    m = nn.ReLU()
    x = uniform((3, 4), 1)
    held = m.forward(x)
    held_copy = held.copy()
    m.inplace = True
    y = uniform((3, 4), 2)
    assert m.forward(y) is y
    np.testing.assert_array_equal(held, held_copy)


# ---------------------------------------------------------------- bad input
def test_unsupported_number_of_dimensions():
    with raises_exactly(thnn.THNNError, f"Threshold_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got 0"):
        nn.ReLU().forward(np.array(1.0))
