"""nn_legacy.Squeeze: dims of size 1 removed (all, or one)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, uniform
from numpy_checks import from_torch7

# (dim, numInputDims, input shape, output shape)
CASES = {
    "all": (None, None, (2, 1, 3, 1), (2, 3)),
    "one dim": (1, None, (2, 1, 3, 1), (2, 3, 1)),
    "a dim of another size stays": (0, None, (2, 1, 3), (2, 1, 3)),
    "negative dim": (-1, None, (2, 1, 3, 1), (2, 1, 3)),
    "all ones keep one dim": (None, None, (1, 1), (1,)),
    "1D of size 1 stays": (0, None, (1,), (1,)),
    "a batch of one keeps its dim": (None, 2, (1, 1, 4), (1, 4)),
    "a batch of one sample of ones": (None, 2, (1, 1, 1), (1, 1)),
    "dim after the batch": (0, 2, (5, 1, 4), (5, 4)),
    "dim without a batch": (0, 2, (1, 4), (4,)),
}


@pytest.mark.parametrize("dim,n,in_shape,out_shape", CASES.values(), ids=CASES.keys())
def test_shapes(dim, n, in_shape, out_shape):
    m = nn.Squeeze(dim, n)
    x = uniform(in_shape, 1)
    out = m.forward(x)
    assert out.shape == out_shape and np.shares_memory(out, x)
    g = uniform(out_shape, 2)
    gin = m.backward(x, g)
    assert gin.shape == in_shape
    np.testing.assert_array_equal(gin.ravel(), g.ravel())


def test_matches_torch_squeeze():
    check_matches_torch(nn.Squeeze(), lambda t: t.squeeze(), uniform((2, 1, 3, 1), 1), uniform((2, 3), 2))


def test_bad_arguments():
    with raises_exactly(ValueError, "Squeeze: dim 2 is out of range for input 2D of size [3, 1]"):
        nn.Squeeze(2).forward(uniform((3, 1)))
    with raises_exactly(TypeError, "Squeeze: dim must be an integer, got 1.5"):
        nn.Squeeze(1.5)
    with raises_exactly(ValueError, "Squeeze: gradOutput must be of size [3] like the output, got 2D of size "
                                    "[3, 1]"):
        nn.Squeeze().backward(uniform((3, 1)), uniform((3, 1)))


def test_from_torch7():
    m = from_torch7("nn.Squeeze", dim=2.0, numInputDims=2.0)
    assert (m.dim, m.numInputDims) == (1, 2)
    assert from_torch7("nn.Squeeze").dim is None


def test_repr():
    assert repr(nn.Squeeze()) == "nn.Squeeze" and repr(nn.Squeeze(1)) == "nn.Squeeze(1)"
