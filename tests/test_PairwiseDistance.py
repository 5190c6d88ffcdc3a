"""nn_legacy.PairwiseDistance: ||a - b||_p per pair of rows."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7
from row_pair_checks import check_1D_gives_size_1, check_row_pair, pair


@pytest.mark.parametrize("p", [1, 2, 3, 1.5])
def test_matches_numpy(p):
    m = nn.PairwiseDistance(p)
    a, b = pair()
    d = a - b
    y = np.linalg.norm(d, ord=p, axis=1)
    np.testing.assert_allclose(m.forward([a, b]), y, rtol=1e-14)
    g = uniform((5,), 9)
    ga, gb = m.backward([a, b], g)
    expected = g[:, None] * np.sign(d) * np.abs(d) ** (p - 1) / y[:, None] ** (p - 1)
    np.testing.assert_allclose(ga, expected, rtol=1e-13)
    np.testing.assert_array_equal(gb, -ga)
    check_1D_gives_size_1(m, a[0], b[0], y[0])


@pytest.mark.parametrize("p", [1, 2, 3])
def test_matches_torch(p):
    torch = torch_or_skip()
    a, b = pair()
    ta, tb = (torch.from_numpy(x.copy()).requires_grad_(True) for x in (a, b))
    out = torch.nn.functional.pairwise_distance(ta, tb, p=p, eps=0)
    np.testing.assert_allclose(out.detach().numpy(), torch.cdist(ta[:, None], tb[:, None], p=p).detach().numpy()
                               .ravel(), rtol=1e-13)
    g = uniform((5,), 9)
    out.backward(torch.from_numpy(g))
    m = nn.PairwiseDistance(p)
    np.testing.assert_allclose(m.forward([a, b]), out.detach().numpy(), rtol=1e-14)
    ga, gb = m.backward([a, b], g)
    np.testing.assert_allclose(ga, ta.grad.numpy(), rtol=1e-13)
    np.testing.assert_allclose(gb, tb.grad.numpy(), rtol=1e-13)


def test_zero_distance_gives_zero_gradient_not_nan():
    a = uniform((2, 3), 1)
    b = a.copy()
    b[1] += 1
    m = nn.PairwiseDistance(2)
    assert m.forward([a, b])[0] == 0
    ga, _ = m.backward([a, b], np.ones(2))
    np.testing.assert_array_equal(ga[0], 0)
    assert np.all(np.isfinite(ga))


@pytest.mark.parametrize("p", [1, 2, 3])
def test_common_checks(p):
    check_row_pair(lambda: nn.PairwiseDistance(p))


def test_bad_p():
    for p in (0, -1, np.inf, "2", True):
        with raises_exactly(ValueError, f"PairwiseDistance: p must be a positive finite number, got {p!r}"):
            nn.PairwiseDistance(p)


def test_from_torch7():
    m = from_torch7("nn.PairwiseDistance", norm=2.0, diff=np.zeros(3), outExpand=np.zeros(1))
    assert m.norm == 2.0 and not hasattr(m, "diff")


def test_repr():
    assert repr(nn.PairwiseDistance(2)) == "nn.PairwiseDistance(2)"
