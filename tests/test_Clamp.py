"""nn_legacy.Clamp: y = min(max(x, min_value), max_value), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, check_matches_torch, check_nan_propagates, raises_exactly,
                          torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, check_in_place

LO, HI = -0.5, 1.25


def with_bounds(shape, seed=1):
    """Inputs spread over [-2, 2] with some elements exactly at the bounds."""
    x = uniform(shape, seed)
    x.reshape(-1)[::5] = LO
    x.reshape(-1)[2::5] = HI
    return x


@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)], ids=str)
def test_matches_numpy(shape):
    m = nn.Clamp(LO, HI)
    x, g = with_bounds(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.clip(x, LO, HI))
    np.testing.assert_array_equal(m.backward(x, g), np.where((x > LO) & (x < HI), g, 0))


def test_matches_torch_hardtanh_including_the_bounds():
    torch = torch_or_skip()
    x, g = with_bounds((4, 5)), uniform((4, 5), 2)
    check_matches_torch(nn.Clamp(LO, HI), lambda t: torch.nn.functional.hardtanh(t, LO, HI), x, g)


def test_matches_torch_clamp_away_from_the_bounds():
    """torch.clamp passes the gradient at the bounds themselves; elsewhere it agrees."""
    torch = torch_or_skip()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    assert not np.any((x == LO) | (x == HI))
    out, gin = torch_forward_backward(lambda t: torch.clamp(t, LO, HI), x, g)
    m = nn.Clamp(LO, HI)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_jacobian_away_from_the_bounds():
    x = with_bounds((3, 5), 3)
    report = assert_input_jacobian(nn.Clamp(LO, HI), x, kinks=(LO, HI))
    assert report.skipped == np.count_nonzero((x == LO) | (x == HI)) > 0


def test_in_place():
    check_in_place(lambda: nn.Clamp(LO, HI), lambda: nn.Clamp(LO, HI, inplace=True),
                   with_bounds((4, 5)), uniform((4, 5), 2))


def test_in_place_on_a_strided_input_writes_through_the_view():
    base = with_bounds((4, 6))
    view = base[:, ::2]
    expected = np.clip(view, LO, HI)
    untouched = base[:, 1::2].copy()
    m = nn.Clamp(LO, HI, inplace=True)
    assert m.forward(view) is view
    np.testing.assert_array_equal(base[:, ::2], expected)
    np.testing.assert_array_equal(base[:, 1::2], untouched)


def test_in_place_refuses_a_read_only_input():
    x = uniform((2, 3))
    x.flags.writeable = False
    with raises_exactly(ValueError, "Clamp: in-place mode writes into input, but it is read-only"):
        nn.Clamp(LO, HI, inplace=True).forward(x)


def test_bounds_must_be_ordered():
    with raises_exactly(ValueError, "Clamp: min_value must be below max_value, got min_value=1, max_value=1"):
        nn.Clamp(1, 1)


def test_nan_propagates_and_gets_no_gradient():
    mask = np.zeros((3, 4), dtype=bool)
    mask[2, 3] = True
    m = nn.Clamp(LO, HI)
    check_nan_propagates(m, uniform((3, 4), 1), (2, 3), mask, uniform((3, 4), 2))
    assert m.gradInput[2, 3] == 0


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Clamp(LO, HI), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Clamp(-1, 2.5)) == "nn.Clamp(-1, 2.5)"
    assert repr(nn.Clamp(0, 1, inplace=True)) == "nn.Clamp(0, 1, in-place)"
