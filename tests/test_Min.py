"""nn_legacy.Min: the minimum along a dim, its 0-based position in indices."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, torch_or_skip, uniform
from reduction_checks import DIMS, check_reduction, out_shape


@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis):
    dim, n, shape = args
    m = nn.Min(dim, n)
    x = uniform(shape, 1)
    np.testing.assert_array_equal(m.forward(x), x.min(axis=axis).reshape(out_shape(shape, axis)))
    np.testing.assert_array_equal(m.indices, x.argmin(axis=axis).reshape(out_shape(shape, axis)))
    g = uniform(out_shape(shape, axis), 2)
    expected = np.zeros_like(x)
    np.put_along_axis(expected, np.expand_dims(x.argmin(axis=axis), axis),
                      np.expand_dims(g.reshape(x.min(axis=axis).shape), axis), axis)
    np.testing.assert_array_equal(m.backward(x, g), expected)


def test_matches_torch_min_with_indices():
    torch = torch_or_skip()
    x, g = uniform((3, 4, 5), 1), uniform((4, 5), 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    values, indices = torch.min(tx, 0)
    values.backward(torch.from_numpy(g))
    m = nn.Min(0)
    np.testing.assert_array_equal(m.forward(x), values.detach().numpy())
    np.testing.assert_array_equal(m.indices, indices.numpy())
    np.testing.assert_array_equal(m.backward(x, g), tx.grad.numpy())


def test_ties_go_to_the_first_and_nan_wins():
    m = nn.Min(0)
    out = m.forward(np.array([2.0, -1.0, -1.0]))
    assert out.tolist() == [-1.0] and m.indices.tolist() == [1]
    assert np.isnan(m.forward(np.array([0.0, np.nan, -5.0]))[0]) and m.indices.tolist() == [1]


@pytest.mark.parametrize("shape,dim", [((5,), 0), ((3, 4), -1)])
def test_jacobian_away_from_ties(shape, dim):
    x = uniform(shape, 1)
    low2 = np.sort(x, axis=dim).take([0, 1], axis=dim)
    assert np.all(np.abs(np.diff(low2, axis=dim)) > 1e-3)
    assert_input_jacobian(nn.Min(dim), x)


def test_common_checks():
    check_reduction(lambda d, n: nn.Min(d, n), "Min")


def test_is_not_a_Max():
    assert not isinstance(nn.Min(), nn.Max)
