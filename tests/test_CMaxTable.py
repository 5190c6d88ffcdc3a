"""nn_legacy.CMaxTable: elementwise maximum over a table.

CMaxTable and CMinTable are one family: the checks they share run here over
FAMILY, each with its own numpy and torch reference; the cases only
CMinTable has are in test_CMinTable.py."""
import numpy as np
import pytest

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import check_table_matches_torch, torch_or_skip, uniform

# name -> (numpy elementwise extreme, numpy arg-extreme over a stack, torch's elementwise extreme)
FAMILY = {
    "CMaxTable": (np.maximum, np.argmax, "maximum"),
    "CMinTable": (np.minimum, np.argmin, "minimum"),
}


@pytest.mark.parametrize("name", FAMILY)
def test_matches_numpy(name):
    extreme, arg_extreme, _ = FAMILY[name]
    t = inputs(3)
    winner = arg_extreme(np.stack(t), axis=0)
    check_against(getattr(nn, name)(), t, extreme(extreme(t[0], t[1]), t[2]),
                  lambda g: [np.where(winner == i, g, 0) for i in range(3)])


@pytest.mark.parametrize("name", FAMILY)
def test_matches_torch(name):
    torch = torch_or_skip()
    check_table_matches_torch(getattr(nn, name)(), getattr(torch, FAMILY[name][2]), inputs(2), uniform((3, 4), 9))


@pytest.mark.parametrize("name", FAMILY)
def test_common_checks(name):
    # uniform draws: no two entries within 1e-3 of each other, so no tie moves under the perturbation
    t = inputs(3, (3, 4)) + inputs(3, (4,))
    assert all(np.min(np.abs(np.diff(np.sort(np.stack(t[k:k + 3]), axis=0), axis=0))) > 1e-3 for k in (0, 3))
    check_elementwise_table(getattr(nn, name), 3)


def test_ties_go_to_the_first_and_nan_wins():
    a, b, c = np.array([1.0, 2.0, 0.0]), np.array([1.0, np.nan, 3.0]), np.array([0.0, 5.0, 3.0])
    m = nn.CMaxTable()
    out = m.forward([a, b, c])
    assert out[0] == 1 and np.isnan(out[1]) and out[2] == 3
    gin = m.backward([a, b, c], np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(gin[0], [1, 0, 0])
    np.testing.assert_array_equal(gin[1], [0, 2, 3])
    np.testing.assert_array_equal(gin[2], [0, 0, 0])
