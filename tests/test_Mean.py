"""nn_legacy.Mean: the mean along a dim (Sum with sizeAverage)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import torch_forward_backward, uniform
from reduction_checks import DIMS, check_reduction, out_shape


@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis):
    dim, n, shape = args
    m = nn.Mean(dim, n)
    x = uniform(shape, 1)
    np.testing.assert_allclose(m.forward(x), x.mean(axis=axis).reshape(out_shape(shape, axis)), rtol=1e-14)
    g = uniform(out_shape(shape, axis), 2)
    spread = np.expand_dims(g.reshape(x.mean(axis=axis).shape), axis) / shape[axis]
    np.testing.assert_array_equal(m.backward(x, g), np.broadcast_to(spread, shape))


def test_matches_torch_mean():
    x, g = uniform((3, 4, 5), 1), uniform((3, 4), 2)
    out, gin = torch_forward_backward(lambda t: t.mean(-1), x, g)
    m = nn.Mean(-1)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15)


def test_is_a_Sum_with_sizeAverage():
    m = nn.Mean(1, 2)
    assert isinstance(m, nn.Sum) and m.sizeAverage and (m.dimension, m.nInputDims) == (1, 2)


def test_common_checks():
    check_reduction(lambda d, n: nn.Mean(d, n), "Mean")
