"""nn_legacy.DotProduct: a.b per pair of rows."""
import numpy as np

import nn_legacy as nn
from layer_checks import check_table_matches_torch, uniform
from row_pair_checks import check_1D_gives_size_1, check_row_pair, pair


def test_matches_numpy():
    m = nn.DotProduct()
    a, b = pair()
    np.testing.assert_allclose(m.forward([a, b]), np.einsum("ij,ij->i", a, b), rtol=1e-14)
    g = uniform((5,), 9)
    ga, gb = m.backward([a, b], g)
    np.testing.assert_allclose(ga, g[:, None] * b, rtol=1e-15)
    np.testing.assert_allclose(gb, g[:, None] * a, rtol=1e-15)
    check_1D_gives_size_1(m, a[0], b[0], a[0] @ b[0])


def test_matches_torch():
    check_table_matches_torch(nn.DotProduct(), lambda a, b: (a * b).sum(1), pair(), uniform((5,), 9), (1e-14, 0),
                              (1e-15, 0))


def test_common_checks():
    check_row_pair(nn.DotProduct)
