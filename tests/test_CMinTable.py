"""nn_legacy.CMinTable: elementwise minimum over a table.
Its values against numpy and torch and the checks of every elementwise table
module run with CMaxTable's, over the family table in test_CMaxTable.py."""
import numpy as np

import nn_legacy as nn


def test_ties_go_to_the_first():
    m = nn.CMinTable()
    a, b = np.array([1.0, 2.0]), np.array([1.0, 0.0])
    np.testing.assert_array_equal(m.forward([a, b]), [1, 0])
    gin = m.backward([a, b], np.array([5.0, 6.0]))
    np.testing.assert_array_equal(gin[0], [5, 0])
    np.testing.assert_array_equal(gin[1], [0, 6])


def test_is_not_a_CMaxTable():
    assert not isinstance(nn.CMinTable(), nn.CMaxTable)
