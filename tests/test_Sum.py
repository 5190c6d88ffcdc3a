"""nn_legacy.Sum: the sum along a dim (divided by its size with sizeAverage)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import torch_forward_backward, uniform
from numpy_checks import from_torch7
from reduction_checks import DIMS, check_reduction, out_shape


@pytest.mark.parametrize("sizeAverage", [False, True], ids=["sum", "average"])
@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis, sizeAverage):
    dim, n, shape = args
    m = nn.Sum(dim, n, sizeAverage)
    x = uniform(shape, 1)
    expected = x.sum(axis=axis) / (shape[axis] if sizeAverage else 1)
    np.testing.assert_allclose(m.forward(x), expected.reshape(out_shape(shape, axis)), rtol=1e-14)
    g = uniform(out_shape(shape, axis), 2)
    spread = np.expand_dims(g.reshape(expected.shape), axis) / (shape[axis] if sizeAverage else 1)
    np.testing.assert_array_equal(m.backward(x, g), np.broadcast_to(spread, shape))


def test_matches_torch_sum():
    x, g = uniform((3, 4, 5), 1), uniform((3, 5), 2)
    out, gin = torch_forward_backward(lambda t: t.sum(1), x, g)
    m = nn.Sum(1)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_1D_input_gives_size_1():
    assert nn.Sum().forward(np.array([1.0, 2.0, 4.0])).tolist() == [7.0]


def test_common_checks():
    check_reduction(lambda d, n: nn.Sum(d, n), "Sum")


def test_from_torch7_keeps_sizeAverage():
    assert from_torch7("nn.Sum", dimension=1.0, sizeAverage=True).sizeAverage is True
    assert from_torch7("nn.Sum", dimension=1.0).sizeAverage is False
