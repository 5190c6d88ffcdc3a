"""nn_legacy.SoftPlus and the SoftPlus_* kernels: y = log(1 + exp(beta x)) / beta."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout, t7_module
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, forward_backward_silently,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]
PARAMS = [(1.0, 20.0), (2.0, 3.0), (0.5, 20.0)]


def numpy_softplus(x, beta, threshold):
    """(y, dy/dx) by the formulas of the docstring."""
    bx = beta * x
    y = np.where(bx > threshold, x, np.log1p(np.exp(np.minimum(bx, threshold))) / beta)
    return y, np.where(bx > threshold, 1.0, 1 / (1 + np.exp(-bx)))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("beta, threshold", PARAMS)
def test_matches_numpy(shape, beta, threshold):
    x, g = uniform(shape, 1, -3, 3), uniform(shape, 2)
    y, dy = numpy_softplus(x, beta, threshold)
    check_forward_backward(nn.SoftPlus(beta, threshold), x, g, y, g * dy, (1e-15, 0), (1e-15, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("beta, threshold", PARAMS)
def test_matches_torch(shape, beta, threshold):
    torch = torch_or_skip()
    check_matches_torch(nn.SoftPlus(beta, threshold), lambda t: torch.nn.functional.softplus(t, beta, threshold),
                        uniform(shape, 1, -3, 3), uniform(shape, 2), (1e-15, 0), (1e-15, 0))


def test_linear_above_the_threshold():
    m = nn.SoftPlus(2, 3)
    x = np.array([1.4, 1.5, 1.6])  # beta x = 2.8, 3.0, 3.2
    np.testing.assert_array_equal(m.forward(x), [np.log1p(np.exp(2.8)) / 2, np.log1p(np.exp(3.0)) / 2, 1.6])
    np.testing.assert_array_equal(m.backward(x, np.ones(3))[2], 1.0)


def test_extreme_inputs_neither_overflow_nor_lose_the_tail():
    out, grad = forward_backward_silently(nn.SoftPlus(), np.array([-800.0, -40.0, 0.0, 40.0, 800.0]))
    np.testing.assert_allclose(out, [0, np.exp(-40.0), np.log(2), 40, 800], rtol=1e-15, atol=0)
    np.testing.assert_allclose(grad, [0, np.exp(-40.0), 0.5, 1, 1], rtol=1e-15, atol=0)


def test_defaults_are_torch7s():
    m = nn.SoftPlus()
    assert (m.beta, m.threshold) == (1.0, 20.0)


def test_nan_propagates():
    check_nan_at(nn.SoftPlus(), uniform((3, 4), 1), (0, 0), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(lambda: nn.SoftPlus(2, 3))


def test_repr():
    assert repr(nn.SoftPlus()) == "nn.SoftPlus(beta=1, threshold=20)"


@pytest.mark.parametrize("beta", [0, -1])
def test_non_positive_beta_is_refused(beta):
    with raises_exactly(ValueError, f"SoftPlus: beta must be > 0, got {float(beta)}"):
        nn.SoftPlus(beta)
    with raises_exactly(thnn.THNNError, f"SoftPlus_updateOutput: beta must be > 0, got {beta:g}"):
        thnn.Double.SoftPlus_updateOutput(uniform((3,)), None, beta, 20)


def test_loads_from_a_torch7_file(tmp_path):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.SoftPlus", {"beta": 2.0, "train": True}))
    assert isinstance(m, nn.SoftPlus) and (m.beta, m.threshold) == (2.0, 20.0)
    x = uniform((3,), 1)
    np.testing.assert_array_equal(m.forward(x), nn.SoftPlus(2).forward(x))
