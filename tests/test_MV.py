"""nn_legacy.MV: op(M) @ v for a table [M, v], or a batch of them."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7


def operands(trans, batch=None, seed=1):
    """M and v for op(M) [3, 4]."""
    lead = (batch,) if batch else ()
    return [uniform(lead + ((4, 3) if trans else (3, 4)), seed), uniform(lead + (4,), seed + 1)]


@pytest.mark.parametrize("batch", [None, 5], ids=["2D", "3D"])
@pytest.mark.parametrize("trans", [False, True], ids=["plain", "trans"])
def test_matches_numpy(trans, batch):
    m = nn.MV(trans)
    mat, v = operands(trans, batch)
    opm = np.swapaxes(mat, -1, -2) if trans else mat
    out = m.forward([mat, v])
    np.testing.assert_allclose(out, np.einsum("...ij,...j->...i", opm, v), rtol=1e-13)
    g = uniform(out.shape, 3)
    gm, gv = m.backward([mat, v], g)
    outer = np.einsum("...i,...j->...ij", g, v)
    np.testing.assert_allclose(gm, np.swapaxes(outer, -1, -2) if trans else outer, rtol=1e-13)
    np.testing.assert_allclose(gv, np.einsum("...ij,...i->...j", opm, g), rtol=1e-13)


@pytest.mark.parametrize("batch", [None, 5], ids=["mv", "bmm"])
@pytest.mark.parametrize("trans", [False, True], ids=["plain", "trans"])
def test_matches_torch(trans, batch):
    torch = torch_or_skip()
    mat, v = operands(trans, batch)
    tm, tv = (torch.from_numpy(a.copy()).requires_grad_(True) for a in (mat, v))
    opm = tm.transpose(-1, -2) if trans else tm
    out = torch.bmm(opm, tv.unsqueeze(2)).squeeze(2) if batch else torch.mv(opm, tv)
    g = uniform(tuple(out.shape), 3)
    out.backward(torch.from_numpy(g))
    m = nn.MV(trans)
    np.testing.assert_allclose(m.forward([mat, v]), out.detach().numpy(), rtol=1e-13)
    gm, gv = m.backward([mat, v], g)
    np.testing.assert_allclose(gm, tm.grad.numpy(), rtol=1e-13)
    np.testing.assert_allclose(gv, tv.grad.numpy(), rtol=1e-13)


def test_bad_input():
    m = nn.MV()
    mat = uniform((3, 4))
    with raises_exactly(ValueError, "MV: op(input[0]) is [3, 4] (trans=False), which cannot multiply input[1] "
                                    "1D of size [3]"):
        m.forward([mat, uniform((3,))])
    with raises_exactly(ValueError, "MV: input must be a 2D matrix and a 1D vector, or a 3D batch of matrices and "
                                    "a 2D batch of vectors, got 2D of size [3, 4] and 2D of size [1, 4]"):
        m.forward([mat, uniform((1, 4))])
    with raises_exactly(TypeError, "MV: input[1] must be float32 or float64, got int64"):
        m.forward([mat, np.arange(4)])
    with raises_exactly(ValueError, "MV: gradOutput must be of size [3] like the output, got 1D of size [4]"):
        m.backward([mat, uniform((4,))], uniform((4,)))


def test_from_torch7():
    assert from_torch7("nn.MV", trans=True).trans is True


def test_repr():
    assert repr(nn.MV()) == "nn.MV(trans=False)"
