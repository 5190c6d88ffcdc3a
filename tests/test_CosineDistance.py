"""nn_legacy.CosineDistance: the cosine similarity per pair of rows."""
import numpy as np

import nn_legacy as nn
from layer_checks import check_table_matches_torch, torch_or_skip, uniform
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
    check_table_matches_torch(nn.CosineDistance(), lambda a, b: torch.nn.functional.cosine_similarity(a, b, dim=1),
                              pair(), uniform((5,), 9), (1e-12, 0), (1e-11, 1e-15))


def test_zero_vectors_stay_finite():
    m = nn.CosineDistance()
    a, b = np.zeros((1, 3)), uniform((1, 3), 1)
    assert m.forward([a, b])[0] == 0
    ga, gb = m.backward([a, b], np.ones(1))
    assert np.all(np.isfinite(ga)) and np.all(gb == 0)


def test_common_checks():
    check_row_pair(nn.CosineDistance)
