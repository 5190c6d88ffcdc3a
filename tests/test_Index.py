"""nn_legacy.Index: entries of input[0] picked along dimension by the indices input[1]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7

INDICES = np.array([2, 0, 2, 3])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_matches_numpy(dim):
    m = nn.Index(dim)
    x = uniform((4, 5), 1)
    out = m.forward([x, INDICES])
    np.testing.assert_array_equal(out, np.take(x, INDICES, axis=dim))
    g = uniform(out.shape, 2)
    gin = m.backward([x, INDICES], g)
    expected = np.zeros_like(x)
    for k, i in enumerate(INDICES):   # a repeated index collects every slice
        np.moveaxis(expected, dim, 0)[i] += np.moveaxis(g, dim, 0)[k]
    np.testing.assert_allclose(gin[0], expected, rtol=1e-15)
    assert gin[1].dtype == INDICES.dtype and gin[1].shape == INDICES.shape and not gin[1].any()


def test_matches_torch_index_select():
    torch = torch_or_skip()
    x, g = uniform((3, 5, 2), 1), uniform((3, 4, 2), 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    out = torch.index_select(tx, 1, torch.from_numpy(INDICES))
    out.backward(torch.from_numpy(g))
    m = nn.Index(1)
    np.testing.assert_array_equal(m.forward([x, INDICES]), out.detach().numpy())
    np.testing.assert_allclose(m.backward([x, INDICES], g)[0], tx.grad.numpy(), rtol=1e-15)


def test_bad_input():
    m = nn.Index(1)
    x = uniform((3, 5))
    with raises_exactly(TypeError, "Index: input must be a list [tensor, indices], got ndarray"):
        m.forward(x)
    with raises_exactly(TypeError, "Index: input[1] must be a 1D integer array of indices, got 1D of size [2] "
                                   "of float64"):
        m.forward([x, np.array([0.0, 1.0])])
    with raises_exactly(TypeError, "Index: input[1] must be a 1D integer array of indices, got 2D of size "
                                   "[1, 2] of int64"):
        m.forward([x, np.array([[0, 1]])])
    with raises_exactly(ValueError, "Index: input[1][1] = 5 is out of range for size 5 of dimension 1 of "
                                    "input[0] 2D of size [3, 5]"):
        m.forward([x, np.array([0, 5])])
    with raises_exactly(ValueError, "Index: input[1][0] = -1 is out of range for size 5 of dimension 1 of "
                                    "input[0] 2D of size [3, 5]"):
        m.forward([x, np.array([-1])])
    with raises_exactly(ValueError, "Index: dimension 1 is out of range for input[0] 1D of size [5]"):
        m.forward([uniform((5,)), INDICES])
    with raises_exactly(ValueError, "Index: gradOutput must be of size [3, 4] like the output, got 2D of size "
                                    "[3, 5]"):
        m.backward([x, INDICES], x)


def test_from_torch7_counts_from_zero():
    assert from_torch7("nn.Index", dimension=2.0).dimension == 1


def test_repr():
    assert repr(nn.Index(1)) == "nn.Index(1)"
