"""nn_legacy.ZipTable: [[a1, a2], [b1, b2]] -> [[a1, b1], [a2, b2]]."""
import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def table():
    return [[uniform((2,), 1), uniform((3,), 2), uniform((1,), 3)], [uniform((4,), 4), uniform((2, 2), 5),
                                                                     uniform((2,), 6)]]


def test_zips_the_entries_themselves():
    m = nn.ZipTable()
    t = table()
    out = m.forward(t)
    assert len(out) == 3 and all(out[j][i] is t[i][j] for i in range(2) for j in range(3))
    g = [[a + 1 for a in pair] for pair in out]
    gin = m.backward(t, g)
    assert len(gin) == 2 and all(gin[i][j] is g[j][i] for i in range(2) for j in range(3))


def test_bad_input():
    m = nn.ZipTable()
    t = table()
    with raises_exactly(ValueError, "ZipTable: input[1] has 2 entries but input[0] has 3: tables of one length "
                                    "are zipped"):
        m.forward([t[0], t[1][:2]])
    with raises_exactly(TypeError, "ZipTable: input[0] must be a table (list), got ndarray"):
        m.forward([uniform((2,)), t[1]])
    with raises_exactly(ValueError, "ZipTable: gradOutput[1] must be a table of 2 entries like output[1], "
                                    "got 1 entry"):
        m.backward(t, [[uniform((2,))] * 2, [uniform((2,))], [uniform((2,))] * 2])
