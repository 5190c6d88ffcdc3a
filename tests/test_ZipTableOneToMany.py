"""nn_legacy.ZipTableOneToMany: [v, [a1, a2]] -> [[v, a1], [v, a2]]."""
import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def table(n=3):
    return [uniform((2,), 1), [uniform((i + 1,), 2 + i) for i in range(n)]]


def grads(t, seed=10):
    return [[uniform((2,), seed + i), uniform(a.shape, 20 + i)] for i, a in enumerate(t[1])]


def test_pairs_and_the_gradient_of_the_one_sums():
    m = nn.ZipTableOneToMany()
    t = table()
    out = m.forward(t)
    assert len(out) == 3 and all(pair[0] is t[0] and pair[1] is a for pair, a in zip(out, t[1]))
    g = grads(t)
    gin = m.backward(t, g)
    np.testing.assert_allclose(gin[0], g[0][0] + g[1][0] + g[2][0], rtol=1e-15)
    assert all(a is pair[1] for a, pair in zip(gin[1], g))


def test_bad_input():
    m = nn.ZipTableOneToMany()
    t = table()
    with raises_exactly(TypeError, "ZipTableOneToMany: input[0] must be a numpy array, got list"):
        m.forward([t[1], t[1]])
    with raises_exactly(TypeError, "ZipTableOneToMany: input[1] must be a table (list), got ndarray"):
        m.forward([t[0], t[0]])
    with raises_exactly(ValueError, "ZipTableOneToMany: gradOutput[1][0] must be of size [2] like output[1], "
                                    "got 1D of size [3]"):
        m.backward(t, [grads(t)[0], [uniform((3,)), t[1][1]], grads(t)[2]])
    with raises_exactly(ValueError, "ZipTableOneToMany: gradOutput must be a table of 3 entries like the output, "
                                    "got 2 entries"):
        m.backward(t, grads(t)[:2])
