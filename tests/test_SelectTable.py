"""nn_legacy.SelectTable: entry index of a table."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7


def table(n=3, seed=1):
    return [uniform((2,), seed), [uniform((3,), seed + 1), uniform((1, 2), seed + 2)], uniform((4,), seed + 3)][:n]


@pytest.mark.parametrize("index,k", [(0, 0), (1, 1), (-1, 2), (-3, 0)])
def test_selects_the_entry_itself(index, k):
    m = nn.SelectTable(index)
    t = table()
    assert m.forward(t) is t[k]
    g = [a + 1 for a in t[k]] if isinstance(t[k], list) else t[k] + 1
    gin = m.backward(t, g)
    for i, (entry, grad) in enumerate(zip(t, gin)):
        expected = g if i == k else [np.zeros_like(a) for a in entry] if isinstance(entry, list) else 0 * entry
        if isinstance(entry, list):
            for a, b in zip(grad, expected):
                np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_array_equal(grad, expected)
    assert gin[k] is not g   # a copy: gradOutput's arrays stay the caller's


def test_bad_input():
    m = nn.SelectTable(3)
    with raises_exactly(ValueError, "SelectTable: index 3 is out of range for a table of 3 entries"):
        m.forward(table())
    with raises_exactly(ValueError, "SelectTable: index -4 is out of range for a table of 3 entries"):
        nn.SelectTable(-4).forward(table())
    with raises_exactly(TypeError, "SelectTable: input must be a table (list), got ndarray"):
        m.forward(uniform((3,)))
    with raises_exactly(ValueError, "SelectTable: gradOutput must be of size [2] like the output, "
                                    "got 1D of size [3]"):
        nn.SelectTable(0).backward(table(), uniform((3,)))
    with raises_exactly(TypeError, "SelectTable: gradOutput must be a table (list), got ndarray"):
        nn.SelectTable(1).backward(table(), uniform((3,)))


def test_from_torch7_counts_from_zero():
    assert from_torch7("nn.SelectTable", index=2.0).index == 1
    assert from_torch7("nn.SelectTable", index=-1.0).index == -1


def test_repr():
    assert repr(nn.SelectTable(-1)) == "nn.SelectTable(-1)"


def test_tuples_are_tables_too():
    m = nn.SelectTable(1)
    inner = (uniform((2,), 1), uniform((3,), 2))
    t = (uniform((4,), 3), inner)
    assert m.forward(t) is inner
    gin = m.backward(t, [inner[0] + 1, inner[1] + 1])
    np.testing.assert_array_equal(gin[1][1], inner[1] + 1)
    assert m.backward(t, [inner[0], inner[1]]) is gin   # the same layout again: the same buffers
