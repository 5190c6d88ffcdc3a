"""nn_legacy.SplitTable: an array cut into the table of its slices along a dim."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7

# (dimension, nInputDims, input shape) -> the numpy axis split
DIMS = {"dim 0": ((0, None, (3, 4)), 0), "dim 1": ((1, None, (3, 4)), 1), "negative": ((-1, None, (2, 3, 4)), 2),
        "after the batch": ((0, 1, (3, 4)), 1), "no batch": ((0, 1, (4,)), 0)}


@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis):
    dim, n, shape = args
    m = nn.SplitTable(dim, n)
    x = uniform(shape, 1)
    out = m.forward(x)
    assert isinstance(out, list) and len(out) == shape[axis]
    for i, part in enumerate(out):
        np.testing.assert_array_equal(part, np.take(x, i, axis=axis))
        assert np.shares_memory(part, x)   # views, as in Torch7
    g = [uniform(p.shape, 10 + i) for i, p in enumerate(out)]
    np.testing.assert_array_equal(m.backward(x, g), np.stack(g, axis=axis))


def test_matches_torch_unbind():
    torch = torch_or_skip()
    x = uniform((3, 4), 1)
    parts = torch.unbind(torch.from_numpy(x), 1)
    for part, expected in zip(nn.SplitTable(1).forward(x), parts):
        np.testing.assert_array_equal(part, expected.numpy())


def test_bad_input():
    m = nn.SplitTable(1)
    x = uniform((3, 4))
    with raises_exactly(ValueError, "SplitTable: dimension 1 is out of range for input 1D of size [4]"):
        m.forward(uniform((4,)))
    with raises_exactly(ValueError, "SplitTable: gradOutput must be a table of 4 entries like the output, "
                                    "got 3 entries"):
        m.backward(x, [uniform((3,))] * 3)
    with raises_exactly(ValueError, "SplitTable: gradOutput[2] must be of size [3] like the output, "
                                    "got 1D of size [4]"):
        m.backward(x, [uniform((3,))] * 2 + [uniform((4,))] * 2)
    with raises_exactly(TypeError, "SplitTable: gradOutput must be a table (list), got ndarray"):
        m.backward(x, x)


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.SplitTable", dimension=2.0, nInputDims=1.0)
    assert (m.dimension, m.nInputDims) == (1, 1)


def test_repr():
    assert repr(nn.SplitTable(1)) == "nn.SplitTable(1)"
