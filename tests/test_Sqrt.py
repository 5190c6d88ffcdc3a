"""nn_legacy.Sqrt and the Sqrt_* kernels: y = sqrt(x + eps)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, raises_exactly, torch_or_skip,
                          uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def positive(shape, seed=1):
    return uniform(shape, seed, 0.1, 4.0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("eps", [0.0, 0.25])
def test_matches_numpy(shape, eps):
    x, g = positive(shape), uniform(shape, 2)
    y = np.sqrt(x + eps)
    check_forward_backward(nn.Sqrt(eps), x, g, y, g / (2 * y), None, (1e-15, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.Sqrt(0.25), lambda t: torch.sqrt(t + 0.25), positive(shape), uniform(shape, 2), None,
                        (1e-15, 0))


def test_zero_output_gives_zero_gradient_and_negative_input_nan():
    m = nn.Sqrt()
    x = np.array([0.0, 4.0, -1.0])
    out = m.forward(x)
    np.testing.assert_array_equal(out[:2], [0.0, 2.0])
    assert np.isnan(out[2])
    grad = m.backward(x, np.ones(3))
    np.testing.assert_array_equal(grad[:2], [0.0, 0.25])
    assert np.isnan(grad[2])


def test_eps_shifts_the_domain():
    m = nn.Sqrt(1.0)
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 0.0, 3.0])), [0.0, 1.0, 2.0])


def test_default_is_torch7s():
    assert nn.Sqrt().eps == 0.0


def test_nan_propagates():
    check_nan_at(nn.Sqrt(), positive((3, 4), 1), (0, 3), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(lambda: nn.Sqrt(0.5), low=0.0)


def test_repr():
    assert repr(nn.Sqrt()) == "nn.Sqrt"
    assert repr(nn.Sqrt(0.5)) == "nn.Sqrt(eps=0.5)"


def test_output_of_another_shape():
    """The backward pass needs the forward's output for this input."""
    m = nn.Sqrt()
    m.forward(positive((2, 3)))
    with raises_exactly(thnn.THNNError, "Sqrt_updateGradInput: output must be shaped as input "
                                        "(2D of size [3, 3]), got 2D of size [2, 3]"):
        m.backward(positive((3, 3)), uniform((3, 3)))
