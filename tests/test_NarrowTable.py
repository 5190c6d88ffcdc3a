"""nn_legacy.NarrowTable: length consecutive entries of a table from offset on."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7


def table(n=5):
    return [uniform((i + 1,), i) for i in range(n)]


CASES = {"two from 1": ((1, 2), slice(1, 3)), "default length 1": ((2,), slice(2, 3)),
         "to the end": ((1, -1), slice(1, 5)), "all but the last": ((0, -2), slice(0, 4)),
         "negative offset": ((-2, 2), slice(3, 5))}


@pytest.mark.parametrize("args,part", CASES.values(), ids=CASES.keys())
def test_takes_the_entries_themselves(args, part):
    m = nn.NarrowTable(*args)
    t = table()
    out = m.forward(t)
    assert len(out) == len(t[part]) and all(a is b for a, b in zip(out, t[part]))
    g = [a * 2 for a in out]
    gin = m.backward(t, g)
    positions = range(len(t))[part]
    for i, (x, grad) in enumerate(zip(t, gin)):
        np.testing.assert_array_equal(grad, g[i - positions.start] if i in positions else np.zeros_like(x))


def test_bad_input():
    with raises_exactly(ValueError, "NarrowTable: offset 4 and length 2 do not fit in a table of 5 entries"):
        nn.NarrowTable(4, 2).forward(table())
    with raises_exactly(ValueError, "NarrowTable: offset 2 and length -5 do not fit in a table of 5 entries"):
        nn.NarrowTable(2, -5).forward(table())
    with raises_exactly(ValueError, "NarrowTable: length must not be 0 (a negative one counts from the end)"):
        nn.NarrowTable(0, 0)
    with raises_exactly(ValueError, "NarrowTable: gradOutput must be a table of 2 entries like the output, "
                                    "got 1 entry"):
        nn.NarrowTable(1, 2).backward(table(), [uniform((2,))])


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.NarrowTable", offset=2.0, length=-1.0)
    assert (m.offset, m.length) == (1, -1)


def test_repr():
    assert repr(nn.NarrowTable(1, 2)) == "nn.NarrowTable(1, 2)"
