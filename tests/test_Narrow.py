"""nn_legacy.Narrow: input[..., offset:offset + length, ...] (a copy), 0-based."""
import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import T7Error
from layer_checks import check_matches_torch, raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7

# (dimension, offset, length) -> the slice of a [3, 6] input it takes
CASES = {
    "dim 1": ((1, 2, 3), np.s_[:, 2:5]),
    "dim 0 length 1": ((0, 1, 1), np.s_[1:2, :]),
    "to the end (-1)": ((1, 2, -1), np.s_[:, 2:]),
    "all but the last (-2)": ((1, 0, -2), np.s_[:, :5]),
    "negative dim": ((-1, 1, 2), np.s_[:, 1:3]),
    "negative offset": ((1, -2, 2), np.s_[:, 4:6]),
}


@pytest.mark.parametrize("args,index", CASES.values(), ids=CASES.keys())
def test_matches_numpy_slicing(args, index):
    m = nn.Narrow(*args)
    x = uniform((3, 6), 1)
    out = m.forward(x)
    np.testing.assert_array_equal(out, x[index])
    assert not np.shares_memory(out, x)
    g = uniform(out.shape, 2)
    expected = np.zeros_like(x)
    expected[index] = g
    np.testing.assert_array_equal(m.backward(x, g), expected)


def test_matches_torch_narrow():
    torch = torch_or_skip()
    x, g = uniform((4, 5, 6), 1), uniform((4, 3, 6), 2)
    check_matches_torch(nn.Narrow(1, 1, 3), lambda t: torch.narrow(t, 1, 1, 3), x, g)


def test_other_dtypes_move_as_they_are():
    m = nn.Narrow(0, 1, 2)
    np.testing.assert_array_equal(m.forward(np.arange(5)), [1, 2])
    assert m.output.dtype == np.int64


def test_bad_arguments():
    with raises_exactly(TypeError, "Narrow: offset must be an integer, got 1.5"):
        nn.Narrow(0, 1.5)
    with raises_exactly(ValueError, "Narrow: length must not be 0 (a negative one counts from the end)"):
        nn.Narrow(0, 1, 0)
    x = uniform((3, 4))
    with raises_exactly(ValueError, "Narrow: offset 2 and length 3 do not fit in size 4 of dimension 1 of "
                                    "input 2D of size [3, 4]"):
        nn.Narrow(1, 2, 3).forward(x)
    with raises_exactly(ValueError, "Narrow: offset 4 and length 1 do not fit in size 4 of dimension 1 of "
                                    "input 2D of size [3, 4]"):
        nn.Narrow(1, 4).forward(x)
    with raises_exactly(ValueError, "Narrow: offset 2 and length -4 do not fit in size 4 of dimension 1 of "
                                    "input 2D of size [3, 4]"):
        nn.Narrow(1, 2, -4).forward(x)
    with raises_exactly(ValueError, "Narrow: dimension 2 is out of range for input 2D of size [3, 4]"):
        nn.Narrow(2, 0).forward(x)
    with raises_exactly(TypeError, "Narrow: input must be a numpy array, got list"):
        nn.Narrow(0, 0).forward([1.0, 2.0])
    m = nn.Narrow(1, 1, 2)
    with raises_exactly(ValueError, "Narrow: gradOutput must be of size [3, 2] like the output, "
                                    "got 2D of size [3, 4]"):
        m.backward(x, x)


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.Narrow", dimension=2.0, index=3.0, length=-1.0)
    assert (m.dimension, m.index, m.length) == (1, 2, -1)
    np.testing.assert_array_equal(m.forward(np.arange(10).reshape(2, 5)), [[2, 3, 4], [7, 8, 9]])
    m = from_torch7("nn.Narrow", dimension=-1.0, index=1.0, length=2.0)
    assert (m.dimension, m.index) == (-1, 0)


def test_repr():
    assert repr(nn.Narrow(1, 2, -1)) == "nn.Narrow(1, 2, -1)"


def _torch7_window(size, index, length):
    """The 0-based entries torch/nn's Narrow:updateOutput (since ee700e2) takes, for its 1-based index: a
    negative length counts from the end; a negative index means index 1 with length size - length."""
    if length < 0:
        length = size - index + length + 2
    if index < 0:
        index, length = 1, size - length
    return np.arange(index - 1, index - 1 + length)


@pytest.mark.parametrize("index, length", [(-1, 2), (-2, 3), (-1, 6), (-2, -5), (2, -2), (3, 2)])
def test_a_torch7_negative_offset_loads_as_torch7_read_it(index, length):
    """Torch7 read a negative offset as offset 1 with length size - length (the first entries), not as a count
    from the end (checked against files a real Lua Torch7 wrote)."""
    x = uniform((3, 7), 4)
    m = from_torch7("nn.Narrow", dimension=2.0, index=float(index), length=float(length))
    window = _torch7_window(7, index, length)
    np.testing.assert_array_equal(m.forward(x), x[:, window])
    gy = uniform((3, len(window)), 5)
    expected = np.zeros_like(x)
    expected[:, window] = gy
    np.testing.assert_array_equal(m.backward(x, gy), expected)


@pytest.mark.parametrize("index, length", [(-4, -3), (-1, -3)])
def test_a_torch7_negative_offset_that_narrows_to_nothing_is_refused(index, length):
    with pytest.raises(T7Error, match="narrow to nothing"):
        from_torch7("nn.Narrow", dimension=2.0, index=float(index), length=float(length))
