"""nn_legacy.FlattenTable: a nested table flattened depth first."""
import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def nested():
    return [uniform((2,), 1), [uniform((3,), 2), [uniform((1, 2), 3)], []], uniform((4,), 4)]


def test_flattens_depth_first_and_back():
    m = nn.FlattenTable()
    t = nested()
    out = m.forward(t)
    assert [a is b for a, b in zip(out, [t[0], t[1][0], t[1][1][0], t[2]])] == [True] * 4 and len(out) == 4
    g = [a + 1 for a in out]
    gin = m.backward(t, g)
    assert gin[0] is g[0] and gin[1][0] is g[1] and gin[1][1][0] is g[2] and gin[1][2] == [] and gin[2] is g[3]


def test_an_array_alone():
    x = uniform((3,), 1)
    out = nn.FlattenTable().forward(x)
    assert len(out) == 1 and out[0] is x


def test_bad_input():
    m = nn.FlattenTable()
    with raises_exactly(TypeError, "FlattenTable: input[1][1] must be a numpy array, got str"):
        m.forward([uniform((2,)), [uniform((2,)), "x"]])
    with raises_exactly(ValueError, "FlattenTable: gradOutput must be a table of 4 entries like the output, "
                                    "got 3 entries"):
        m.backward(nested(), [uniform((2,))] * 3)
    with raises_exactly(ValueError, "FlattenTable: gradOutput[1] must be of size [3] like the output, "
                                    "got 1D of size [2]"):
        m.backward(nested(), [uniform((2,))] * 4)
    np.testing.assert_array_equal(m.forward(nested())[0], nested()[0])
