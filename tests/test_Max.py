"""nn_legacy.Max: the maximum along a dim, its 0-based position in indices."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_nan_propagates, torch_or_skip, uniform
from reduction_checks import DIMS, check_reduction, out_shape


@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis):
    dim, n, shape = args
    m = nn.Max(dim, n)
    x = uniform(shape, 1)
    np.testing.assert_array_equal(m.forward(x), x.max(axis=axis).reshape(out_shape(shape, axis)))
    np.testing.assert_array_equal(m.indices, x.argmax(axis=axis).reshape(out_shape(shape, axis)))
    g = uniform(out_shape(shape, axis), 2)
    expected = np.zeros_like(x)
    np.put_along_axis(expected, np.expand_dims(x.argmax(axis=axis), axis),
                      np.expand_dims(g.reshape(x.max(axis=axis).shape), axis), axis)
    np.testing.assert_array_equal(m.backward(x, g), expected)


def test_matches_torch_max_with_indices():
    torch = torch_or_skip()
    x, g = uniform((3, 4, 5), 1), uniform((3, 5), 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    values, indices = torch.max(tx, 1)
    values.backward(torch.from_numpy(g))
    m = nn.Max(1)
    np.testing.assert_array_equal(m.forward(x), values.detach().numpy())
    np.testing.assert_array_equal(m.indices, indices.numpy())
    np.testing.assert_array_equal(m.backward(x, g), tx.grad.numpy())


def test_ties_go_to_the_first_and_nan_wins():
    m = nn.Max(1)
    x = np.array([[1.0, 3.0, 3.0], [2.0, np.nan, 5.0]])
    out = m.forward(x)
    assert out[0] == 3 and np.isnan(out[1]) and m.indices.tolist() == [1, 1]
    np.testing.assert_array_equal(m.backward(x, np.array([1.0, 2.0])), [[0, 1, 0], [0, 2, 0]])
    check_nan_propagates(nn.Max(1), uniform((2, 3), 1), (0, 2), np.array([True, False]), uniform((2,), 2))


@pytest.mark.parametrize("shape,dim", [((5,), 0), ((3, 4), 1), ((2, 3, 2), 0)])
def test_jacobian_away_from_ties(shape, dim):
    x = uniform(shape, 1)
    top2 = np.sort(x, axis=dim).take([-1, -2], axis=dim)
    assert np.all(np.abs(np.diff(top2, axis=dim)) > 1e-3)   # a perturbation of 1e-6 changes no maximum
    assert_input_jacobian(nn.Max(dim), x)


def test_common_checks():
    check_reduction(lambda d, n: nn.Max(d, n), "Max")


def test_clearState_drops_indices():
    m = nn.Max(0)
    m.forward(uniform((3,)))
    assert m.clearState().indices is None
