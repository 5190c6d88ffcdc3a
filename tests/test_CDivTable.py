"""nn_legacy.CDivTable: input[0] / input[1]."""
import numpy as np

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import check_table_matches_torch, raises_exactly, uniform


def test_matches_numpy():
    a, b = inputs(2, low=0.5)
    check_against(nn.CDivTable(), [a, b], a / b, lambda g: [g / b, -g * a / b ** 2])


def test_matches_torch():
    check_table_matches_torch(nn.CDivTable(), lambda a, b: a / b, inputs(2, low=0.5), uniform((3, 4), 9), None,
                              [(1e-15, 0), (1e-14, 0)])


def test_division_by_zero_gives_inf_quietly():
    out = nn.CDivTable().forward([np.array([1.0, -1.0, 0.0]), np.zeros(3)])
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])


def test_needs_exactly_two():
    with raises_exactly(ValueError, "CDivTable: input must be a table of 2 entries, got 3 entries"):
        nn.CDivTable().forward(inputs(3))


def test_common_checks():
    check_elementwise_table(nn.CDivTable, 2, low=0.5)   # divisors away from 0
