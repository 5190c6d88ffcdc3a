"""nn_legacy.Select: input[..., index, ...] with the dim removed (a copy)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, uniform
from numpy_checks import from_torch7

CASES = {"dim 0": ((0, 1), np.s_[1]), "dim 1": ((1, 2), np.s_[:, 2]), "last": ((1, -1), np.s_[:, 3]),
         "negative dim": ((-2, -3), np.s_[0])}


@pytest.mark.parametrize("args,index", CASES.values(), ids=CASES.keys())
def test_matches_numpy(args, index):
    m = nn.Select(*args)
    x = uniform((3, 4), 1)
    np.testing.assert_array_equal(m.forward(x), x[index])
    g = uniform(x[index].shape, 2)
    expected = np.zeros_like(x)
    expected[index] = g
    np.testing.assert_array_equal(m.backward(x, g), expected)


def test_matches_torch_select():
    check_matches_torch(nn.Select(1, -2), lambda t: t.select(1, -2), uniform((3, 4, 5), 1), uniform((3, 5), 2))


def test_selecting_from_1D_gives_0D():
    m = nn.Select(0, 2)
    x = uniform((4,), 1)
    assert m.forward(x).shape == () and m.output == x[2]
    np.testing.assert_array_equal(m.backward(x, np.array(5.0)), [0, 0, 5, 0])


def test_bad_arguments():
    x = uniform((3, 4))
    with raises_exactly(ValueError, "Select: index 4 is out of range for size 4 of dimension 1 of input "
                                    "2D of size [3, 4]"):
        nn.Select(1, 4).forward(x)
    with raises_exactly(ValueError, "Select: index -5 is out of range for size 4 of dimension 1 of input "
                                    "2D of size [3, 4]"):
        nn.Select(1, -5).forward(x)
    with raises_exactly(ValueError, "Select: dimension -3 is out of range for input 2D of size [3, 4]"):
        nn.Select(-3, 0).forward(x)
    with raises_exactly(TypeError, "Select: index must be an integer, got None"):
        nn.Select(0, None)
    with raises_exactly(ValueError, "Select: gradOutput must be of size [3] like the output, got 1D of size [4]"):
        nn.Select(1, 0).backward(x, uniform((4,)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.Select", dimension=1.0, index=-1.0)
    assert (m.dimension, m.index) == (0, -1)
    m = from_torch7("nn.Select", dimension=2.0, index=3.0)
    np.testing.assert_array_equal(m.forward(np.arange(8).reshape(2, 4)), [2, 6])
