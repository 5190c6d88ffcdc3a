"""nn_legacy.Euclidean: y_j = ||x - w_j|| for centres w_j (columns of weight), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

N_IN, N_OUT = 4, 3


@pytest.mark.parametrize("shape", [(N_IN,), (5, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = nn.Euclidean(N_IN, N_OUT)
    x, g = uniform(shape, 1), uniform(shape[:-1] + (N_OUT,), 2)
    x2, g2 = np.atleast_2d(x), np.atleast_2d(g)
    diff = x2[:, :, None] - m.weight                       # [batch, in, out]
    y = np.sqrt((diff ** 2).sum(axis=1))
    np.testing.assert_allclose(m.forward(x), y.reshape(g.shape), rtol=1e-14, atol=0)
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    np.testing.assert_allclose(gin, np.einsum("bj,bij->bi", g2 / y, diff).reshape(x.shape), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, -0.5 * np.einsum("bj,bij->ij", g2 / y, diff), rtol=1e-13, atol=1e-15)


def test_matches_torch():
    torch = torch_or_skip()
    m = nn.Euclidean(N_IN, N_OUT)
    x, g = uniform((5, N_IN), 1), uniform((5, N_OUT), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: torch.cdist(t, w.T), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-13, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_zero_distance_gives_zero_gradient_not_nan():
    m = nn.Euclidean(N_IN, N_OUT)
    x = m.weight[:, 1].copy()
    out = m.forward(x)
    assert out[1] == 0
    m.zeroGradParameters()
    g = np.array([0.0, 1.0, 0.0])
    np.testing.assert_array_equal(m.backward(x, g), np.zeros(N_IN))
    np.testing.assert_array_equal(m.gradWeight, np.zeros((N_IN, N_OUT)))


def test_reset_draws_from_the_torch7_range():
    m = nn.Euclidean(16, 20)
    assert np.all(np.abs(m.weight) <= 1 / 4) and m.weight.std() > 1 / 16


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Euclidean(N_IN, N_OUT), uniform((3, N_IN), 1), uniform((3, N_OUT), 2), "the output")


def test_wrong_input_size():
    with raises_exactly(ValueError, "Euclidean: input must be 1D [4] or 2D [batch, 4], got 2D of size [3, 3]"):
        nn.Euclidean(N_IN, N_OUT).forward(uniform((3, 3)))
    with raises_exactly(ValueError, "Euclidean: sizes must be positive integers, got 0 -> 3"):
        nn.Euclidean(0, 3)


def test_repr():
    assert repr(nn.Euclidean(4, 3)) == "nn.Euclidean(4 -> 3)"
