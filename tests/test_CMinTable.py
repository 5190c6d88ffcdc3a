"""nn_legacy.CMinTable: elementwise minimum over a table."""
import numpy as np

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import torch_or_skip, uniform


def test_matches_numpy():
    t = inputs(3)
    winner = np.argmin(np.stack(t), axis=0)
    check_against(nn.CMinTable(), t, np.minimum(np.minimum(t[0], t[1]), t[2]),
                  lambda g: [np.where(winner == i, g, 0) for i in range(3)])


def test_matches_torch():
    torch = torch_or_skip()
    a, b = inputs(2)
    ta, tb = (torch.from_numpy(x.copy()).requires_grad_(True) for x in (a, b))
    out = torch.minimum(ta, tb)
    g = uniform((3, 4), 9)
    out.backward(torch.from_numpy(g))
    m = nn.CMinTable()
    np.testing.assert_array_equal(m.forward([a, b]), out.detach().numpy())
    for got, x in zip(m.backward([a, b], g), (ta, tb)):
        np.testing.assert_array_equal(got, x.grad.numpy())


def test_ties_go_to_the_first():
    m = nn.CMinTable()
    a, b = np.array([1.0, 2.0]), np.array([1.0, 0.0])
    np.testing.assert_array_equal(m.forward([a, b]), [1, 0])
    gin = m.backward([a, b], np.array([5.0, 6.0]))
    np.testing.assert_array_equal(gin[0], [5, 0])
    np.testing.assert_array_equal(gin[1], [0, 6])


def test_is_not_a_CMaxTable():
    assert not isinstance(nn.CMinTable(), nn.CMaxTable)


def test_common_checks():
    t = inputs(3, (3, 4)) + inputs(3, (4,))
    assert all(np.min(np.abs(np.diff(np.sort(np.stack(t[k:k + 3]), axis=0), axis=0))) > 1e-3 for k in (0, 3))
    check_elementwise_table(nn.CMinTable, 3)
