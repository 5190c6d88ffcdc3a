"""nn_legacy.Padding: |pad| entries of value inserted along dim."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7
from table_module_checks import (check_table_batch_equals_samples)

V = 9.0
# (pad, index) -> the output for input [1, 2, 3, 4]
CASES = {
    "before all": ((-2, 0), [V, V, 1, 2, 3, 4]),
    "after the first": ((-2, 1), [1, V, V, 2, 3, 4]),
    "after all": ((2, 0), [1, 2, 3, 4, V, V]),
    "before the last": ((1, 1), [1, 2, 3, V, 4]),
    "before all, counted from the end": ((1, 4), [V, 1, 2, 3, 4]),
    "after all, counted from the start": ((-1, 4), [1, 2, 3, 4, V]),
    "no padding": ((0, 0), [1, 2, 3, 4]),
}


@pytest.mark.parametrize("args,expected", CASES.values(), ids=CASES.keys())
def test_where_the_padding_goes(args, expected):
    pad, index = args
    m = nn.Padding(0, pad, value=V, index=index)
    x = np.array([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(m.forward(x), expected)
    g = np.arange(len(expected), dtype=float) * 10
    kept = np.array(expected) != V
    np.testing.assert_array_equal(m.backward(x, g), g[kept])


def test_matches_torch_pad():
    torch = torch_or_skip()
    x, g = uniform((2, 3, 4), 1), uniform((2, 3, 7), 2)
    check_matches_torch(nn.Padding(1, 3, nInputDim=2, value=-1.5),
                        lambda t: torch.nn.functional.pad(t, (0, 3), value=-1.5), x, g)


def test_nInputDim_counts_dim_after_the_batch():
    m = nn.Padding(0, -1, nInputDim=2)
    assert m.forward(uniform((3, 4))).shape == (4, 4)
    assert m.forward(uniform((2, 3, 4))).shape == (2, 4, 4)
    check_table_batch_equals_samples(m, uniform((2, 3, 4), 1), uniform((2, 4, 4), 2))


def test_bad_arguments():
    with raises_exactly(ValueError, "Padding: index must be at least 0, got -1"):
        nn.Padding(0, 1, index=-1)
    with raises_exactly(TypeError, "Padding: value must be a number, got 'x'"):
        nn.Padding(0, 1, value="x")
    with raises_exactly(ValueError, "Padding: index 5 is beyond size 4 of dimension 1 of input 2D of size [3, 4]"):
        nn.Padding(1, 1, index=5).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "Padding: dim 2 is out of range for input 2D of size [3, 4]"):
        nn.Padding(2, 1).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "Padding: gradOutput must be of size [3, 5] like the output, "
                                    "got 2D of size [3, 4]"):
        nn.Padding(1, 1).backward(uniform((3, 4)), uniform((3, 4)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.Padding", dim=2.0, pad=-1.0, nInputDim=2.0, value=3.0, index=2.0,
                    outputSize=np.array([1.0]))
    assert (m.dim, m.pad, m.nInputDim, m.value, m.index) == (1, -1, 2, 3.0, 1)
    np.testing.assert_array_equal(m.forward(np.array([[1.0, 2.0]])), [[1, 3, 2]])


def test_repr():
    assert repr(nn.Padding(1, -2)) == "nn.Padding(1, -2)"
