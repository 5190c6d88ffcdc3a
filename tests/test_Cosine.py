"""nn_legacy.Cosine: y_k = cos(angle between x and w_k) for rows w_k of weight, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

N_IN, N_OUT = 4, 3
EPS = 1e-12


@pytest.mark.parametrize("shape", [(N_IN,), (5, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = nn.Cosine(N_IN, N_OUT)
    x, g = uniform(shape, 1), uniform(shape[:-1] + (N_OUT,), 2)
    x2, g2, w = np.atleast_2d(x), np.atleast_2d(g), m.weight
    nx = np.linalg.norm(x2, axis=1, keepdims=True)
    nw = np.linalg.norm(w, axis=1)
    y = x2 @ w.T / ((nx + EPS) * (nw + EPS))
    np.testing.assert_allclose(m.forward(x), y.reshape(g.shape), rtol=1e-14, atol=1e-16)
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    want_gin = (g2 / (nw + EPS)) @ w / (nx + EPS) - (g2 * y).sum(axis=1, keepdims=True) * x2 / (nx * (nx + EPS))
    want_gw = (g2.T @ (x2 / (nx + EPS)) - (g2 * y).sum(axis=0)[:, None] * w / nw[:, None]) / (nw[:, None] + EPS)
    np.testing.assert_allclose(gin, want_gin.reshape(x.shape), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, 0.5 * want_gw, rtol=1e-12, atol=1e-15)


def test_matches_torch():
    torch = torch_or_skip()
    m = nn.Cosine(N_IN, N_OUT)
    x, g = uniform((5, N_IN), 1), uniform((5, N_OUT), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    fn = lambda t: torch.nn.functional.cosine_similarity(t[:, None, :], w[None], dim=-1)  # noqa: E731
    out, gin = torch_forward_backward(fn, x, g)
    m.zeroGradParameters()
    # torch guards the norms differently (max(|w| |x|, 1e-8)) from Torch7's +1e-12 on each norm:
    # the results differ by about 1e-12 / |v| relative, and the norms here are above 0.1
    assert min(np.linalg.norm(x, axis=1).min(), np.linalg.norm(m.weight, axis=1).min()) > 0.1
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_values_are_cosines():
    m = nn.Cosine(2, 3)
    m.weight[...] = [[1, 0], [0, 2], [-3, 0]]
    np.testing.assert_allclose(m.forward(np.array([[2.0, 0.0], [1.0, 1.0]])),
                               [[1, 0, -1], [np.sqrt(0.5), np.sqrt(0.5), -np.sqrt(0.5)]], rtol=1e-11)


def test_zero_input_gives_zero_not_nan():
    m = nn.Cosine(N_IN, N_OUT)
    x = np.zeros((2, N_IN))
    np.testing.assert_array_equal(m.forward(x), 0)
    m.zeroGradParameters()
    gin = m.backward(x, np.ones((2, N_OUT)))
    assert np.all(np.isfinite(gin)) and np.all(np.isfinite(m.gradWeight))


def test_reset_bound_uses_the_number_of_rows_as_torch7():
    m = nn.Cosine(100, 4)
    assert np.all(np.abs(m.weight) <= 1 / 2) and m.weight.std() > 1 / 8


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Cosine(N_IN, N_OUT), uniform((3, N_IN), 1), uniform((3, N_OUT), 2), "the output")


def test_wrong_input_size():
    with raises_exactly(ValueError, "Cosine: input must be 1D [4] or 2D [batch, 4], got 3D of size [2, 3, 4]"):
        nn.Cosine(N_IN, N_OUT).forward(uniform((2, 3, 4)))


def test_repr():
    assert repr(nn.Cosine(4, 3)) == "nn.Cosine(4 -> 3)"
