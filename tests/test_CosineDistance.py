"""nn_legacy.CosineDistance: the cosine similarity per pair of rows."""
import numpy as np

import nn_legacy as nn
from layer_checks import torch_or_skip, uniform
from row_pair_checks import check_1D_gives_size_1, check_row_pair, pair

EPS = 1e-12


def test_matches_numpy():
    m = nn.CosineDistance()
    a, b = pair()
    na, nb = (np.sum(a * a, axis=1) + EPS), (np.sum(b * b, axis=1) + EPS)
    y = np.sum(a * b, axis=1) / np.sqrt(na * nb)
    np.testing.assert_allclose(m.forward([a, b]), y, rtol=1e-14)
    g = uniform((5,), 9)
    ga, gb = m.backward([a, b], g)
    s = 1 / np.sqrt(na * nb)
    np.testing.assert_allclose(ga, g[:, None] * (b * s[:, None] - y[:, None] * a / na[:, None]), rtol=1e-12)
    np.testing.assert_allclose(gb, g[:, None] * (a * s[:, None] - y[:, None] * b / nb[:, None]), rtol=1e-12)
    check_1D_gives_size_1(m, a[0], b[0], y[0])


def test_matches_torch_cosine_similarity():
    torch = torch_or_skip()
    a, b = pair()
    ta, tb = (torch.from_numpy(x.copy()).requires_grad_(True) for x in (a, b))
    out = torch.nn.functional.cosine_similarity(ta, tb, dim=1)
    g = uniform((5,), 9)
    out.backward(torch.from_numpy(g))
    m = nn.CosineDistance()
    np.testing.assert_allclose(m.forward([a, b]), out.detach().numpy(), rtol=1e-12)
    for got, x in zip(m.backward([a, b], g), (ta, tb)):
        np.testing.assert_allclose(got, x.grad.numpy(), rtol=1e-11, atol=1e-15)


def test_zero_vectors_stay_finite():
    m = nn.CosineDistance()
    a, b = np.zeros((1, 3)), uniform((1, 3), 1)
    assert m.forward([a, b])[0] == 0
    ga, gb = m.backward([a, b], np.ones(1))
    assert np.all(np.isfinite(ga)) and np.all(gb == 0)


def test_common_checks():
    check_row_pair(nn.CosineDistance)
