"""nn_legacy.MaskedSelect: the entries of input[0] where the mask input[1] is set."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform


def mask(shape, seed=0):
    return np.random.default_rng(seed).random(shape) < 0.5


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int64])
def test_matches_numpy_boolean_indexing(dtype):
    m = nn.MaskedSelect()
    x, where = uniform((3, 4), 1), mask((3, 4))
    out = m.forward([x, where.astype(dtype)])
    np.testing.assert_array_equal(out, x[where])
    g = uniform(out.shape, 2)
    gin = m.backward([x, where.astype(dtype)], g)
    expected = np.zeros_like(x)
    expected[where] = g
    np.testing.assert_array_equal(gin[0], expected)
    assert gin[1].dtype == np.dtype(dtype) and not gin[1].any()


def test_matches_torch_masked_select():
    torch = torch_or_skip()
    x, where = uniform((3, 4), 1), mask((3, 4))
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    out = torch.masked_select(tx, torch.from_numpy(where))
    g = uniform(out.shape, 2)
    out.backward(torch.from_numpy(g))
    m = nn.MaskedSelect()
    np.testing.assert_array_equal(m.forward([x, where]), out.detach().numpy())
    np.testing.assert_array_equal(m.backward([x, where], g)[0], tx.grad.numpy())


def test_bad_input():
    m = nn.MaskedSelect()
    x = uniform((3, 4))
    with raises_exactly(ValueError, "MaskedSelect: input[1] (the mask) must be of size [3, 4] like input[0], "
                                    "got 1D of size [12]"):
        m.forward([x, mask((12,))])
    with raises_exactly(ValueError, "MaskedSelect: input[1] (the mask) must hold only 0 and 1, got 2 at [0, 1]"):
        m.forward([x, np.array([[0, 2, 0, 0]] * 3)])
    with raises_exactly(TypeError, "MaskedSelect: input[1] (the mask) must be bool or integer, got float64"):
        m.forward([x, x])
    with raises_exactly(TypeError, "MaskedSelect: input must be a list [tensor, mask], got a list of 1"):
        m.forward([x])
    where = mask((3, 4))
    with raises_exactly(ValueError, f"MaskedSelect: gradOutput must be of size [{where.sum()}] like the output, "
                                    "got 1D of size [12]"):
        m.backward([x, where], uniform((12,)))
