"""nn_legacy.MixtureTable: sum_i gater[..., i] * expert_i."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7

B, N = 4, 3


def experts_table(batch=B, shape=(2, 5), seed=2):
    lead = (batch,) if batch else ()
    return [uniform(lead + shape, seed + i) for i in range(N)]


def reference(gater, experts, g):
    """(output, dL/dgater, dL/dexperts) from the docstring's formulas, sample by sample."""
    gater2 = np.atleast_2d(gater)
    batch = gater.ndim == 2
    xs = [e if batch else e[None] for e in experts]
    g2 = g if batch else g[None]
    out = sum(gater2[:, i].reshape((-1,) + (1,) * (xs[i].ndim - 1)) * xs[i] for i in range(N))
    grad_gater = np.stack([(g2 * x).reshape(len(g2), -1).sum(axis=1) for x in xs], axis=1)
    grad_experts = [gater2[:, i].reshape((-1,) + (1,) * (xs[i].ndim - 1)) * g2 for i in range(N)]
    if not batch:
        out, grad_gater, grad_experts = out[0], grad_gater[0], [e[0] for e in grad_experts]
    return out, grad_gater, grad_experts


@pytest.mark.parametrize("batch", [B, None], ids=["batch", "one sample"])
def test_table_of_experts_matches_numpy(batch):
    m = nn.MixtureTable()
    gater, experts = uniform((batch, N) if batch else (N,), 1), experts_table(batch)
    g = uniform(experts[0].shape, 9)
    out, grad_gater, grad_experts = reference(gater, experts, g)
    np.testing.assert_allclose(m.forward([gater, experts]), out, rtol=1e-13)
    got = m.backward([gater, experts], g)
    np.testing.assert_allclose(got[0], grad_gater, rtol=1e-13)
    assert isinstance(got[1], list) and len(got[1]) == N
    for a, b in zip(got[1], grad_experts):
        np.testing.assert_allclose(a, b, rtol=1e-13)


@pytest.mark.parametrize("dim,batch", [(None, B), (2, B), (-1, B), (None, None), (1, None)])
def test_experts_in_one_array_match_the_table(dim, batch):
    gater, experts = uniform((batch, N) if batch else (N,), 1), experts_table(batch)
    axis = (1 if batch else 0) if dim is None else dim % (experts[0].ndim + 1)
    stacked = np.stack(experts, axis=axis)
    g = uniform(experts[0].shape, 9)
    out, grad_gater, grad_experts = reference(gater, experts, g)
    m = nn.MixtureTable(dim)
    np.testing.assert_allclose(m.forward([gater, stacked]), out, rtol=1e-13)
    got = m.backward([gater, stacked], g)
    np.testing.assert_allclose(got[0], grad_gater, rtol=1e-13)
    np.testing.assert_allclose(got[1], np.stack(grad_experts, axis=axis), rtol=1e-13)


def test_bad_input():
    m = nn.MixtureTable()
    gater = uniform((B, N))
    with raises_exactly(ValueError, "MixtureTable: input[1] must hold one expert per gater output (3), got 2"):
        m.forward([gater, experts_table()[:2]])
    with raises_exactly(ValueError, "MixtureTable: input[1][0] must start with the batch size 4 of the gater, "
                                    "got 3D of size [5, 2, 5]"):
        m.forward([gater, experts_table(5)])
    with raises_exactly(ValueError, "MixtureTable: input[1][2] must be of size [4, 2, 5] like input[1][0], "
                                    "got 3D of size [4, 2, 4]"):
        m.forward([gater, experts_table()[:2] + [uniform((B, 2, 4))]])
    with raises_exactly(ValueError, "MixtureTable: input[1] (the experts) must be of size [4, ...] with 3 at "
                                    "dim 1 (not 0) for a gater 2D of size [4, 3], got 3D of size [4, 2, 5]"):
        m.forward([gater, uniform((B, 2, 5))])
    with raises_exactly(ValueError, "MixtureTable: input[1] (the experts) must be of size [4, ...] with 3 at "
                                    "dim 0 (not 0) for a gater 2D of size [4, 3], got 3D of size [3, 4, 5]"):
        nn.MixtureTable(0).forward([gater, uniform((N, B, 5))])
    with raises_exactly(ValueError, "MixtureTable: input[0] (the gater) must be 1D [n] or 2D [batch, n], "
                                    "got 3D of size [1, 4, 3]"):
        m.forward([gater[None], experts_table()])
    with raises_exactly(TypeError, "MixtureTable: input[1][0] is float32 but the gater is float64"):
        m.forward([gater, [e.astype(np.float32) for e in experts_table()]])
    with raises_exactly(TypeError, "MixtureTable: input must be a list [gater, experts], got a list of 3"):
        m.forward([gater, gater, gater])
    with raises_exactly(ValueError, "MixtureTable: gradOutput must be of size [4, 2, 5] like the output, "
                                    "got 2D of size [4, 10]"):
        m.backward([gater, experts_table()], uniform((B, 10)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.MixtureTable", dim=3.0, batchSize=4.0, backwardSetup=True, size=np.array([4.0]))
    assert m.dim == 2 and not hasattr(m, "batchSize") and not hasattr(m, "size")
    assert from_torch7("nn.MixtureTable").dim is None


def test_repr():
    assert repr(nn.MixtureTable()) == "nn.MixtureTable" and repr(nn.MixtureTable(2)) == "nn.MixtureTable(2)"
