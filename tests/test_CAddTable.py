"""nn_legacy.CAddTable: input[0] + input[1] + ..."""
import numpy as np
import pytest

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7


@pytest.mark.parametrize("n", [1, 2, 4])
def test_matches_numpy(n):
    t = inputs(n)
    expected = t[0].copy()
    for x in t[1:]:
        expected += x
    check_against(nn.CAddTable(), t, expected, lambda g: [g] * n)


def test_matches_torch():
    torch = torch_or_skip()
    t = inputs(3)
    ts = [torch.from_numpy(x.copy()).requires_grad_(True) for x in t]
    out = ts[0] + ts[1] + ts[2]
    np.testing.assert_array_equal(nn.CAddTable().forward(t), out.detach().numpy())


def test_in_place_writes_into_input_0():
    t, g = inputs(3), uniform((3, 4), 9)
    expected = nn.CAddTable().forward(t).copy()
    x0 = t[0]
    m = nn.CAddTable(inplace=True)
    assert m.forward(t) is x0
    np.testing.assert_array_equal(x0, expected)
    gin = m.backward(t, g)
    assert len(gin) == 3 and all(a is g for a in gin)


def test_in_place_needs_a_writeable_input():
    x = uniform((3,))
    x.flags.writeable = False
    with raises_exactly(ValueError, "CAddTable: in-place mode writes into input[0], but it is read-only"):
        nn.CAddTable(True).forward([x, x])


def test_common_checks():
    check_elementwise_table(nn.CAddTable, 3)


def test_from_torch7():
    assert from_torch7("nn.CAddTable", inplace=True).inplace is True
    assert from_torch7("nn.CAddTable").inplace is False
