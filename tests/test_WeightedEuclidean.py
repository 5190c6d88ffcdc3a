"""nn_legacy.WeightedEuclidean: y_j = ||c_j * (x - w_j)|| with a learned diagonal scaling c_j, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

N_IN, N_OUT = 4, 3


def make():
    m = nn.WeightedEuclidean(N_IN, N_OUT)
    m.diagCov[...] = uniform((N_IN, N_OUT), 9, 0.5, 1.5)  # starts at 1: give it values to check
    return m


@pytest.mark.parametrize("shape", [(N_IN,), (5, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = make()
    x, g = uniform(shape, 1), uniform(shape[:-1] + (N_OUT,), 2)
    x2, g2 = np.atleast_2d(x), np.atleast_2d(g)
    c = m.diagCov
    diff = x2[:, :, None] - m.weight
    y = np.sqrt(((c * diff) ** 2).sum(axis=1))
    np.testing.assert_allclose(m.forward(x), y.reshape(g.shape), rtol=1e-14, atol=0)
    m.zeroGradParameters()
    r = g2 / y
    gin = m.backward(x, g, 0.5)
    np.testing.assert_allclose(gin, np.einsum("bj,bij->bi", r, c ** 2 * diff).reshape(x.shape), rtol=1e-13,
                               atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, -0.5 * np.einsum("bj,bij->ij", r, c ** 2 * diff), rtol=1e-13,
                               atol=1e-15)
    np.testing.assert_allclose(m.gradDiagCov, 0.5 * np.einsum("bj,bij->ij", r, c * diff ** 2), rtol=1e-13,
                               atol=1e-15)


def test_matches_torch():
    torch = torch_or_skip()
    m = make()
    x, g = uniform((5, N_IN), 1), uniform((5, N_OUT), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    c = torch.from_numpy(m.diagCov.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: (c * (t[:, :, None] - w)).norm(dim=1), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.gradDiagCov, c.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_unit_scaling_is_the_plain_distance():
    m = nn.WeightedEuclidean(N_IN, N_OUT)
    assert np.all(m.diagCov == 1)
    plain = nn.Euclidean(N_IN, N_OUT)
    plain.weight[...] = m.weight
    x = uniform((3, N_IN), 1)
    np.testing.assert_array_equal(m.forward(x), plain.forward(x))


@pytest.mark.parametrize("shape", [(N_IN,), (3, N_IN)], ids=["1D", "2D"])
def test_jacobians(shape):
    m = make()
    x = uniform(shape, 3)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)
    assert len(m.parameters()[0]) == 2


def test_reset_restores_unit_scaling():
    m = make()
    m.reset()
    assert np.all(m.diagCov == 1) and np.all(np.abs(m.weight) <= 1 / 2)


def test_bad_arrays():
    check_bad_arrays_numpy(make(), uniform((3, N_IN), 1), uniform((3, N_OUT), 2), "the output")


def test_wrong_input_size():
    with raises_exactly(ValueError, "WeightedEuclidean: input must be 1D [4] or 2D [batch, 4], "
                                    "got 1D of size [5]"):
        make().forward(uniform((5,)))


def test_repr():
    assert repr(nn.WeightedEuclidean(4, 3)) == "nn.WeightedEuclidean(4 -> 3)"
