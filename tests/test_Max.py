"""nn_legacy.Max: the maximum along a dim, its 0-based position in indices.

Max and Min are one family: the checks they share run here over FAMILY, each
with its own numpy/torch reference, torch dim and jacobian cases; the cases
only Min has are in test_Min.py."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_nan_propagates, torch_or_skip, uniform
from reduction_checks import DIMS, check_extreme_matches_numpy, check_extreme_matches_torch, check_reduction

# name -> (numpy extreme, numpy arg-extreme, torch dim and its gradOutput shape for a [3, 4, 5] input,
#          the positions in sorted order of the two candidates that must not tie)
FAMILY = {
    "Max": (np.max, np.argmax, 1, (3, 5), [-1, -2]),
    "Min": (np.min, np.argmin, 0, (4, 5), [0, 1]),
}
JACOBIAN_CASES = [("Max", (5,), 0), ("Max", (3, 4), 1), ("Max", (2, 3, 2), 0), ("Min", (5,), 0), ("Min", (3, 4), -1)]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis, name):
    dim, n, shape = args
    extreme, arg_extreme = FAMILY[name][:2]
    check_extreme_matches_numpy(getattr(nn, name)(dim, n), uniform(shape, 1), axis, extreme, arg_extreme)


@pytest.mark.parametrize("name", FAMILY)
def test_matches_torch_with_indices(name):
    torch = torch_or_skip()
    dim, g_shape = FAMILY[name][2:4]
    check_extreme_matches_torch(getattr(nn, name)(dim), getattr(torch, name.lower()), dim, uniform((3, 4, 5), 1),
                                uniform(g_shape, 2))


@pytest.mark.parametrize("name, shape, dim", JACOBIAN_CASES)
def test_jacobian_away_from_ties(name, shape, dim):
    x = uniform(shape, 1)
    best2 = np.sort(x, axis=dim).take(FAMILY[name][4], axis=dim)
    assert np.all(np.abs(np.diff(best2, axis=dim)) > 1e-3)   # a perturbation of 1e-6 changes no extreme
    assert_input_jacobian(getattr(nn, name)(dim), x)


@pytest.mark.parametrize("name", FAMILY)
def test_common_checks(name):
    check_reduction(lambda d, n: getattr(nn, name)(d, n), name)


def test_ties_go_to_the_first_and_nan_wins():
    m = nn.Max(1)
    x = np.array([[1.0, 3.0, 3.0], [2.0, np.nan, 5.0]])
    out = m.forward(x)
    assert out[0] == 3 and np.isnan(out[1]) and m.indices.tolist() == [1, 1]
    np.testing.assert_array_equal(m.backward(x, np.array([1.0, 2.0])), [[0, 1, 0], [0, 2, 0]])
    check_nan_propagates(nn.Max(1), uniform((2, 3), 1), (0, 2), np.array([True, False]), uniform((2,), 2))


def test_clearState_drops_indices():
    m = nn.Max(0)
    m.forward(uniform((3,)))
    assert m.clearState().indices is None


def test_host_values_are_take_along_axis_over_shapes_and_dims():
    """The host path takes the values by flat positions kept per (shape, dim): every dim of several shapes,
    ties, a NaN, and the positions made again when the shape or the dim changes."""
    rng = np.random.default_rng(5)
    for cls, arg in ((nn.Max, np.argmax), (nn.Min, np.argmin)):
        for shape in [(2, 3, 4), (5,), (1, 7), (3, 1, 2, 5)]:
            m = cls(0)
            for d in range(len(shape)):
                m.dimension = d
                for scale in (1.0, -2.0):
                    x = rng.standard_normal(shape) * scale
                    x.flat[::3] = 0.5
                    x.flat[-1] = np.nan if scale < 0 else x.flat[-1]
                    idx = np.expand_dims(arg(x, axis=d), d)
                    y = m.forward(x)
                    np.testing.assert_array_equal(y, np.take_along_axis(x, idx, axis=d).reshape(y.shape))
                    np.testing.assert_array_equal(m.indices, idx.reshape(y.shape))
