"""nn_legacy.CMaxTable: elementwise maximum over a table."""
import numpy as np

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import torch_or_skip, uniform


def test_matches_numpy():
    t = inputs(3)
    winner = np.argmax(np.stack(t), axis=0)
    check_against(nn.CMaxTable(), t, np.maximum(np.maximum(t[0], t[1]), t[2]),
                  lambda g: [np.where(winner == i, g, 0) for i in range(3)])


def test_matches_torch():
    torch = torch_or_skip()
    a, b = inputs(2)
    ta, tb = (torch.from_numpy(x.copy()).requires_grad_(True) for x in (a, b))
    out = torch.maximum(ta, tb)
    g = uniform((3, 4), 9)
    out.backward(torch.from_numpy(g))
    m = nn.CMaxTable()
    np.testing.assert_array_equal(m.forward([a, b]), out.detach().numpy())
    for got, x in zip(m.backward([a, b], g), (ta, tb)):
        np.testing.assert_array_equal(got, x.grad.numpy())


def test_ties_go_to_the_first_and_nan_wins():
    a, b, c = np.array([1.0, 2.0, 0.0]), np.array([1.0, np.nan, 3.0]), np.array([0.0, 5.0, 3.0])
    m = nn.CMaxTable()
    out = m.forward([a, b, c])
    assert out[0] == 1 and np.isnan(out[1]) and out[2] == 3
    gin = m.backward([a, b, c], np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(gin[0], [1, 0, 0])
    np.testing.assert_array_equal(gin[1], [0, 2, 3])
    np.testing.assert_array_equal(gin[2], [0, 0, 0])


def test_common_checks():
    # uniform draws: no two entries within 1e-3 of each other, so no tie moves under the perturbation
    t = inputs(3, (3, 4)) + inputs(3, (4,))
    assert all(np.min(np.abs(np.diff(np.sort(np.stack(t[k:k + 3]), axis=0), axis=0))) > 1e-3 for k in (0, 3))
    check_elementwise_table(nn.CMaxTable, 3)
