"""nn_legacy.MM: op(A) @ op(B) for a table [A, B] of matrices or batches of them."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7

TRANS = {"plain": (False, False), "transA": (True, False), "transB": (False, True), "both": (True, True)}


def operands(transA, transB, batch=None, seed=1):
    """A and B for op(A) [3, 4] and op(B) [4, 2]."""
    lead = (batch,) if batch else ()
    a = uniform(lead + ((4, 3) if transA else (3, 4)), seed)
    b = uniform(lead + ((2, 4) if transB else (4, 2)), seed + 1)
    return [a, b]


def op(m, trans):
    return np.swapaxes(m, -1, -2) if trans else m


@pytest.mark.parametrize("batch", [None, 5], ids=["2D", "3D"])
@pytest.mark.parametrize("trans", TRANS.values(), ids=TRANS.keys())
def test_matches_numpy(trans, batch):
    m = nn.MM(*trans)
    a, b = operands(*trans, batch)
    out = m.forward([a, b])
    np.testing.assert_allclose(out, op(a, trans[0]) @ op(b, trans[1]), rtol=1e-13)
    g = uniform(out.shape, 3)
    ga, gb = m.backward([a, b], g)
    np.testing.assert_allclose(ga, op(g @ np.swapaxes(op(b, trans[1]), -1, -2), trans[0]), rtol=1e-13)
    np.testing.assert_allclose(gb, op(np.swapaxes(op(a, trans[0]), -1, -2) @ g, trans[1]), rtol=1e-13)


@pytest.mark.parametrize("batch", [None, 5], ids=["mm", "bmm"])
@pytest.mark.parametrize("trans", TRANS.values(), ids=TRANS.keys())
def test_matches_torch(trans, batch):
    torch = torch_or_skip()
    a, b = operands(*trans, batch)
    ta, tb = (torch.from_numpy(v.copy()).requires_grad_(True) for v in (a, b))
    opa = ta.transpose(-1, -2) if trans[0] else ta
    opb = tb.transpose(-1, -2) if trans[1] else tb
    out = torch.bmm(opa, opb) if batch else torch.mm(opa, opb)
    g = uniform(tuple(out.shape), 3)
    out.backward(torch.from_numpy(g))
    m = nn.MM(*trans)
    np.testing.assert_allclose(m.forward([a, b]), out.detach().numpy(), rtol=1e-13)
    ga, gb = m.backward([a, b], g)
    np.testing.assert_allclose(ga, ta.grad.numpy(), rtol=1e-13)
    np.testing.assert_allclose(gb, tb.grad.numpy(), rtol=1e-13)


def test_bad_input():
    m = nn.MM()
    a = uniform((3, 4))
    with raises_exactly(ValueError, "MM: the matrices do not fit: op(input[0]) is [3, 4] and op(input[1]) is "
                                    "[3, 4] (transA=False, transB=False)"):
        m.forward([a, a])
    with raises_exactly(ValueError, "MM: input must be two 2D matrices or two 3D batches of matrices of one batch "
                                    "size, got 2D of size [3, 4] and 3D of size [1, 4, 2]"):
        m.forward([a, uniform((1, 4, 2))])
    with raises_exactly(ValueError, "MM: input must be two 2D matrices or two 3D batches of matrices of one batch "
                                    "size, got 3D of size [2, 3, 4] and 3D of size [3, 4, 2]"):
        m.forward([uniform((2, 3, 4)), uniform((3, 4, 2))])
    with raises_exactly(TypeError, "MM: input[1] is float32 but the input is float64"):
        m.forward([a, a.T.astype(np.float32)])
    with raises_exactly(TypeError, "MM: input must be a list [A, B], got ndarray"):
        m.forward(a)
    with raises_exactly(ValueError, "MM: gradOutput must be of size [3, 3] like the output, got 2D of size [3, 4]"):
        m.backward([a, a.T], a)


def test_from_torch7():
    m = from_torch7("nn.MM", transA=True, transB=False)
    assert (m.transA, m.transB) == (True, False)


def test_repr():
    assert repr(nn.MM(True)) == "nn.MM(transA=True, transB=False)"
