"""nn_legacy.CSubTable: input[0] - input[1]."""
import numpy as np

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import raises_exactly, torch_or_skip


def test_matches_numpy():
    a, b = inputs(2)
    check_against(nn.CSubTable(), [a, b], a - b, lambda g: [g, -g])


def test_matches_torch():
    torch = torch_or_skip()
    a, b = inputs(2)
    np.testing.assert_array_equal(nn.CSubTable().forward([a, b]), torch.sub(torch.from_numpy(a),
                                                                             torch.from_numpy(b)).numpy())


def test_needs_exactly_two():
    with raises_exactly(ValueError, "CSubTable: input must be a table of 2 entries, got 3 entries"):
        nn.CSubTable().forward(inputs(3))
    with raises_exactly(ValueError, "CSubTable: input must be a table of at least 2 entries, got 1 entry"):
        nn.CSubTable().forward(inputs(1))


def test_common_checks():
    check_elementwise_table(nn.CSubTable, 2)
