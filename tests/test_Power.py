"""nn_legacy.Power: y = x^p, in numpy."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, check_nan_at, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy

# (p, low, high): non-integer powers on positive inputs only
POWERS = [(2, -2, 2), (3, -2, 2), (0.5, 0.1, 3), (-1.5, 0.2, 3), (1, -2, 2)]


@pytest.mark.parametrize("p, low, high", POWERS, ids=lambda v: str(v))
def test_matches_numpy(p, low, high):
    m = nn.Power(p)
    x, g = uniform((4, 5), 1, low, high), uniform((4, 5), 2)
    np.testing.assert_array_equal(m.forward(x), np.power(x, float(p)))
    np.testing.assert_allclose(m.backward(x, g), g * p * np.power(x, p - 1.0), rtol=1e-15, atol=0)


@pytest.mark.parametrize("p, low, high", POWERS, ids=lambda v: str(v))
def test_matches_torch(p, low, high):
    torch = torch_or_skip()
    x, g = uniform((4, 5), 1, low, high), uniform((4, 5), 2)
    check_matches_torch(nn.Power(p), lambda t: torch.pow(t, p), x, g, (1e-15, 0), (1e-14, 0))


def test_power_zero_has_zero_gradient_even_at_zero():
    m = nn.Power(0)
    x = np.array([0.0, -2.0, 3.0])
    np.testing.assert_array_equal(m.forward(x), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(m.backward(x, np.ones(3)), [0.0, 0.0, 0.0])


def test_fractional_power_of_a_negative_number_is_nan_silently():
    m = nn.Power(0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(np.array([-4.0, 4.0]))
    assert np.isnan(out[0]) and out[1] == 2.0


def test_nan_propagates():
    check_nan_at(nn.Power(2), uniform((3, 4), 1), (1, 0), uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Power(2), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Power(2)) == "nn.Power(2)"
    assert repr(nn.Power(0.5)) == "nn.Power(0.5)"
