"""nn_legacy.JoinTable: a table of arrays concatenated along a dim."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7


def table(axis, shape=(2, 3), sizes=(1, 3, 2), seed=1):
    shapes = [shape[:axis] + (n,) + shape[axis + 1:] for n in sizes]
    return [uniform(s, seed + i) for i, s in enumerate(shapes)]


# (dimension, nInputDims, sample shape, batch?) -> the numpy axis joined
DIMS = {"dim 0": ((0, None, (2, 3), False), 0), "dim 1": ((1, None, (2, 3), False), 1),
        "negative": ((-1, None, (2, 3), False), 1), "after the batch": ((0, 1, (4, 3), True), 1),
        "no batch": ((0, 1, (3,), False), 0)}


@pytest.mark.parametrize("args,axis", DIMS.values(), ids=DIMS.keys())
def test_matches_numpy(args, axis):
    dim, n, shape, _ = args
    m = nn.JoinTable(dim, n)
    t = table(axis, shape)
    out = m.forward(t)
    np.testing.assert_array_equal(out, np.concatenate(t, axis=axis))
    g = uniform(out.shape, 9)
    grads = m.backward(t, g)
    for part, expected in zip(grads, np.split(g, np.cumsum([x.shape[axis] for x in t])[:-1], axis=axis)):
        np.testing.assert_array_equal(part, expected)


def test_matches_torch_cat():
    torch = torch_or_skip()
    t = table(1)
    ts = [torch.from_numpy(x.copy()).requires_grad_(True) for x in t]
    out = torch.cat(ts, 1)
    g = uniform(tuple(out.shape), 9)
    out.backward(torch.from_numpy(g))
    m = nn.JoinTable(1)
    np.testing.assert_array_equal(m.forward(t), out.detach().numpy())
    for got, expected in zip(m.backward(t, g), ts):
        np.testing.assert_array_equal(got, expected.grad.numpy())


def test_one_entry_and_other_dtypes():
    x = np.arange(6).reshape(2, 3)
    out = nn.JoinTable(1).forward([x, x])
    assert out.dtype == x.dtype and out.shape == (2, 6)
    np.testing.assert_array_equal(nn.JoinTable(0).forward([x]), x)


def test_bad_input():
    m = nn.JoinTable(1)
    with raises_exactly(ValueError, "JoinTable: input[2] has size [4, 3], which cannot be joined along dimension 1 "
                                    "with size [5, 2] of input[0]"):
        m.forward([uniform((5, 2)), uniform((5, 1)), uniform((4, 3))])
    with raises_exactly(ValueError, "JoinTable: input[1] has size [5], which cannot be joined along dimension 0 "
                                    "with size [5, 2] of input[0]"):
        nn.JoinTable(0).forward([uniform((5, 2)), uniform((5,))])
    with raises_exactly(TypeError, "JoinTable: input[1] is float32 but input[0] is float64"):
        m.forward([uniform((5, 2)), uniform((5, 2)).astype(np.float32)])
    with raises_exactly(ValueError, "JoinTable: input must be a table of at least 1 entry, got 0 entries"):
        m.forward([])
    with raises_exactly(TypeError, "JoinTable: input must be a table (list), got ndarray"):
        m.forward(uniform((2, 2)))
    with raises_exactly(TypeError, "JoinTable: input[1] must be a numpy array, got list"):
        m.forward([uniform((2, 2)), [1.0]])
    with raises_exactly(ValueError, "JoinTable: dimension 1 is out of range for input[0] 1D of size [2]"):
        m.forward([uniform((2,))])
    with raises_exactly(ValueError, "JoinTable: gradOutput must be of size [5, 3] like the output, "
                                    "got 2D of size [5, 2]"):
        m.backward([uniform((5, 2)), uniform((5, 1))], uniform((5, 2)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.JoinTable", dimension=2.0, nInputDims=2.0)
    assert (m.dimension, m.nInputDims) == (1, 2)
    m = from_torch7("nn.JoinTable", dimension=-1.0)
    assert (m.dimension, m.nInputDims) == (-1, None)


def test_repr():
    assert repr(nn.JoinTable(1)) == "nn.JoinTable(1)"


@pytest.mark.parametrize("dimension,entry,error,message", [
    (5, "text", TypeError, "JoinTable: input[1] must be a numpy array, got str"),
    (1, np.zeros((2, 3), np.float32), TypeError, "JoinTable: input[1] is float32 but input[0] is float64"),
    (5, np.zeros((3, 3)), ValueError, "JoinTable: dimension 5 is out of range for input[0] 2D of size [2, 3]"),
    (1, np.zeros((3, 3)), ValueError, "JoinTable: input[1] has size [3, 3], which cannot be joined along "
                                      "dimension 1 with size [2, 3] of input[0]"),
    (0, np.zeros((2, 3, 1)), ValueError, "JoinTable: input[1] has size [2, 3, 1], which cannot be joined along "
                                         "dimension 0 with size [2, 3] of input[0]")],
    ids=["not an array before the dim", "dtype", "dim", "other dim", "ndim"])
def test_a_table_of_arrays_that_does_not_join_is_refused_in_the_checks_order(dimension, entry, error, message):
    """The usual case (a list of numpy arrays) is checked without the general checks; a table it does
    not accept gets the general checks' error, the first of them in their order (an entry that is not
    an array before a dim out of range)."""
    with raises_exactly(error, message):
        nn.JoinTable(dimension).forward([np.zeros((2, 3)), entry])


@pytest.mark.parametrize("dimension,nInputDims,axis", [(1, None, 1), (-1, None, 2), (0, 2, 1), (1, 2, 2), (0, None, 0)])
def test_lists_and_tuples_join_alike(dimension, nInputDims, axis):
    xs = table(axis, (2, 3, 4))
    m = nn.JoinTable(dimension, nInputDims)
    want = np.concatenate(xs, axis=axis)
    assert np.array_equal(m.forward(xs), want)
    assert np.array_equal(nn.JoinTable(dimension, nInputDims).forward(tuple(xs)), want)
