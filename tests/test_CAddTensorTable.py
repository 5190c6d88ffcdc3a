"""nn_legacy.CAddTensorTable: [v, [t_0, ...]] -> [t_0 + v, ...], in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7
from table_module_checks import (assert_table_jacobian, check_table_buffer_reuse, check_table_float32,
                                 check_table_noncontiguous, check_table_pickle)

SHAPE = (3, 4)


def table(n=3, shape=SHAPE, seed=1):
    return [uniform(shape, seed), [uniform(shape, seed + 1 + i) for i in range(n)]]


@pytest.mark.parametrize("n", [1, 3])
def test_matches_numpy(n):
    m = nn.CAddTensorTable()
    x = table(n)
    gs = [uniform(SHAPE, 10 + i) for i in range(n)]
    out = m.forward(x)
    assert len(out) == n
    for o, t in zip(out, x[1]):
        np.testing.assert_array_equal(o, t + x[0])
    grad_v, grad_ts = m.backward(x, gs)
    np.testing.assert_allclose(grad_v, sum(gs), rtol=1e-15)
    for gt, g in zip(grad_ts, gs):
        np.testing.assert_array_equal(gt, g)
        assert not np.shares_memory(gt, g)


def test_jacobian():
    assert_table_jacobian(nn.CAddTensorTable(), table(3, (2, 3)))


def test_float32_noncontiguous_pickle():
    x, gs = table(2), [uniform(SHAPE, 10), uniform(SHAPE, 11)]
    check_table_float32(nn.CAddTensorTable(), x, gs)
    check_table_noncontiguous(nn.CAddTensorTable(), x, gs)
    check_table_pickle(nn.CAddTensorTable(), x, gs)


def test_buffer_reuse():
    check_table_buffer_reuse(nn.CAddTensorTable(), table(3), [uniform(SHAPE, i) for i in range(3)],
                             table(2, (2, 2)), [uniform((2, 2), i) for i in range(2)])


def test_bad_tables():
    m = nn.CAddTensorTable()
    with raises_exactly(TypeError, "CAddTensorTable: input must be a table [v, [t_0, t_1, ...]], got ndarray"):
        m.forward(uniform(SHAPE))
    with raises_exactly(TypeError, "CAddTensorTable: input must be a table [v, [t_0, t_1, ...]], got a table of "
                                   "3 entries"):
        m.forward([uniform(SHAPE)] * 3)
    with raises_exactly(ValueError, "CAddTensorTable: input[1] must be a table of at least 1 entry, got 0 entries"):
        m.forward([uniform(SHAPE), []])
    with raises_exactly(ValueError, "CAddTensorTable: input[1][1] must be of size [3, 4] like input[0], "
                                    "got 2D of size [4, 3]"):
        m.forward([uniform(SHAPE), [uniform(SHAPE), uniform((4, 3))]])
    with raises_exactly(TypeError, "CAddTensorTable: input[1][0] is float32 but the input is float64"):
        m.forward([uniform(SHAPE), [uniform(SHAPE).astype(np.float32)]])
    x = table(2)
    m.forward(x)
    with raises_exactly(ValueError, "CAddTensorTable: gradOutput must be a table of 2 entries like the output, "
                                    "got 1 entry"):
        m.backward(x, [uniform(SHAPE)])


def test_loads_from_torch7_fields():
    m = from_torch7("nn.CAddTensorTable", gradInput={})
    x = table(2)
    np.testing.assert_array_equal(m.forward(x)[1], x[1][1] + x[0])
    assert m.backward(x, [uniform(SHAPE), uniform(SHAPE)])[0].shape == SHAPE
