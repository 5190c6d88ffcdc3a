"""nn_legacy.Transpose: dims swapped pair by pair (a contiguous copy)."""
import numpy as np

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, uniform
from numpy_checks import from_torch7


def test_pairs_apply_in_order():
    m = nn.Transpose((0, 3), (0, 2))
    x = uniform((2, 3, 4, 5), 1)
    out = m.forward(x)
    np.testing.assert_array_equal(out, np.swapaxes(np.swapaxes(x, 0, 3), 0, 2))
    assert out.shape == (4, 3, 5, 2) and out.flags.c_contiguous
    g = uniform(out.shape, 2)
    np.testing.assert_array_equal(m.backward(x, g), np.swapaxes(np.swapaxes(g, 0, 2), 0, 3))


def test_matches_torch_transpose():
    x, g = uniform((2, 3, 4), 1), uniform((4, 2, 3), 2)
    check_matches_torch(nn.Transpose((0, 2), (1, 2)), lambda t: t.transpose(0, 2).transpose(1, 2), x, g)


def test_no_pairs_copies():
    x = uniform((2, 3), 1)
    out = nn.Transpose().forward(x)
    np.testing.assert_array_equal(out, x)
    assert not np.shares_memory(out, x)


def test_bad_arguments():
    with raises_exactly(TypeError, "Transpose: every argument must be a pair of dims (a, b), got 1"):
        nn.Transpose(1, 2)
    with raises_exactly(ValueError, "Transpose: pair (0, 2) is out of range for input 2D of size [3, 4]"):
        nn.Transpose((0, 2)).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "Transpose: gradOutput must be of size [4, 3] like the output, "
                                    "got 2D of size [3, 4]"):
        nn.Transpose((0, 1)).backward(uniform((3, 4)), uniform((3, 4)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.Transpose", permutations=[[1.0, 2.0], [2.0, 3.0]])
    assert m.permutations == [(0, 1), (1, 2)]
    assert m.forward(uniform((2, 3, 4))).shape == (3, 4, 2)


def test_repr():
    assert repr(nn.Transpose((0, 1), (1, 2))) == "nn.Transpose((0, 1), (1, 2))"
