"""nn_legacy.Normalize: y = x / ||x||_p for each sample, in numpy."""
import math

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_nan_propagates, raises_exactly,
                          torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

POWERS = [1, 1.5, 2, 3, math.inf]
IDS = ["p=1", "p=1.5", "p=2", "p=3", "p=inf"]
EPS = 1e-10


def norm(x, p):
    if math.isinf(p):
        return np.abs(x).max(axis=-1, keepdims=True) + EPS
    return (np.sum(np.abs(x) ** p, axis=-1, keepdims=True) + EPS) ** (1 / p)


@pytest.mark.parametrize("p", POWERS, ids=IDS)
@pytest.mark.parametrize("shape", [(5,), (4, 5)], ids=["1D", "2D"])
def test_forward_matches_numpy(p, shape):
    x = uniform(shape, 1)
    np.testing.assert_allclose(nn.Normalize(p).forward(x), x / norm(x, p), rtol=1e-14, atol=0)


def test_backward_matches_the_formula_for_p_2():
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    m = nn.Normalize(2)
    y = m.forward(x)
    n = norm(x, 2)
    expected = g / n - y * (g * y).sum(axis=1, keepdims=True) / n
    np.testing.assert_allclose(m.backward(x, g), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("p", POWERS, ids=IDS)
def test_matches_torch(p):
    torch = torch_or_skip()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.normalize(t, p=p, dim=1), x, g)
    m = nn.Normalize(p)
    # torch divides by max(||x||, 1e-12); Torch7 (and this layer) add eps = 1e-10 to sum |x|^p (to
    # max |x| for p = inf): values differ by a few eps / ||x|| relative to the largest ones
    n = norm(x, p).min()
    assert n > 0.5
    np.testing.assert_allclose(m.forward(x), out, rtol=4 * EPS / n, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=0, atol=4 * EPS / n * np.abs(gin).max())


def test_all_zero_sample_stays_finite():
    m = nn.Normalize(2)
    x = np.zeros((2, 3))
    x[1] = [3.0, 4.0, 0.0]
    out = m.forward(x)
    np.testing.assert_array_equal(out[0], 0)
    np.testing.assert_allclose(out[1], np.array([3.0, 4.0, 0.0]) / np.sqrt(25 + EPS), rtol=1e-15)
    assert np.all(np.isfinite(m.backward(x, np.ones((2, 3)))))


def test_unit_norm():
    out = nn.Normalize(3).forward(uniform((4, 6), 1))
    np.testing.assert_allclose(np.sum(np.abs(out) ** 3, axis=1), 1, rtol=1e-9)


def test_p_must_be_positive():
    with raises_exactly(ValueError, "Normalize: p must be positive (or math.inf), got 0"):
        nn.Normalize(0)


def test_nan_spreads_over_its_sample_only():
    mask = np.zeros((3, 4), dtype=bool)
    mask[1] = True
    check_nan_propagates(nn.Normalize(2), uniform((3, 4), 1), (1, 0), mask, uniform((3, 4), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Normalize(2), uniform((4, 5), 1), uniform((4, 5), 2))


def test_only_1d_and_2d_inputs():
    with raises_exactly(ValueError, "Normalize: input must be 1D [n] or 2D [batch, n], got 3D of size [2, 3, 4]"):
        nn.Normalize(2).forward(np.zeros((2, 3, 4)))


def test_repr():
    assert repr(nn.Normalize(2)) == "nn.Normalize(2)"
    assert repr(nn.Normalize(math.inf)) == "nn.Normalize(inf)"
