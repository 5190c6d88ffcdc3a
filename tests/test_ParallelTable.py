"""nn_legacy.ParallelTable: child i on entry i of the input table."""
import pickle

import numpy as np

import nn_legacy as nn
from layer_checks import check_acc_update, raises_exactly, uniform
from table_module_checks import (Flattened, assert_table_jacobian, assert_table_parameter_jacobians,
                                 check_table_buffer_reuse, check_table_float32, check_table_noncontiguous,
                                 check_table_pickle)


def make():
    return nn.ParallelTable(nn.Linear(5, 3), nn.Tanh(), nn.Sequential(nn.Linear(2, 4), nn.Sigmoid()))


def inputs(batch=4, seed=1):
    return [uniform((batch, 5), seed), uniform((batch, 3), seed + 1), uniform((batch, 2), seed + 2)]


def test_each_child_on_its_entry():
    m, x = make(), inputs()
    out = m.forward(x)
    lin, seq = m.get(0), m.get(2).get(0)
    np.testing.assert_allclose(out[0], x[0] @ lin.weight.T + lin.bias, rtol=1e-14)
    np.testing.assert_allclose(out[1], np.tanh(x[1]), rtol=1e-15)
    np.testing.assert_allclose(out[2], 1 / (1 + np.exp(-(x[2] @ seq.weight.T + seq.bias))), rtol=1e-14)
    assert all(o is c.output for o, c in zip(out, m.modules))


def test_gradient_of_each_entry_from_its_child():
    m, x = make(), inputs()
    g = [uniform((4, 3), 5), uniform((4, 3), 6), uniform((4, 4), 7)]
    m.forward(x)
    gin = m.backward(x, g)
    lin, seq = m.get(0), m.get(2).get(0)
    s = 1 / (1 + np.exp(-(x[2] @ seq.weight.T + seq.bias)))
    np.testing.assert_allclose(gin[0], g[0] @ lin.weight, rtol=1e-13)
    np.testing.assert_allclose(gin[1], g[1] * (1 - np.tanh(x[1]) ** 2), rtol=1e-13)
    np.testing.assert_allclose(gin[2], (g[2] * s * (1 - s)) @ seq.weight, rtol=1e-12)


def test_nested_tables():
    m = nn.ParallelTable(nn.ParallelTable(nn.Tanh(), nn.Linear(2, 2)), nn.Sigmoid())
    x = [[uniform((3,), 1), uniform((2,), 2)], uniform((4,), 3)]
    out = m.forward(x)
    assert [np.shape(o) for o in out[0]] == [(3,), (2,)] and out[1].shape == (4,)
    assert_table_jacobian(m, x)
    assert_table_parameter_jacobians(m, x)


def grads(batch=4, seed=10):
    return [uniform((batch, 3), seed), uniform((batch, 3), seed + 1), uniform((batch, 4), seed + 2)]


def test_table_properties():
    x, g = inputs(4, 9), grads()
    flat = Flattened(make(), x)
    check_acc_update(flat, flat.vector(), uniform((4 * 10,), 10))
    check_table_float32(make(), x, g)
    check_table_noncontiguous(make(), x, g)
    check_table_pickle(make(), x, g)
    check_table_buffer_reuse(make(), x, g, inputs(2, 30), grads(2, 40))
    m = make()
    expected = [o.copy() for o in m.forward(x)]
    for a, b in zip(pickle.loads(pickle.dumps(m)).forward(x), expected):
        np.testing.assert_array_equal(a, b)


def test_tables_are_reused_while_shapes_stay():
    m = make()
    out1 = m.forward(inputs(4))
    kept = [o.copy() for o in out1]
    out2 = m.forward(inputs(2))
    assert out2 is not out1
    for a, b in zip(out1, kept):
        np.testing.assert_array_equal(a, b)
    assert m.forward(inputs(2, 5)) is out2


def test_bad_tables():
    m = make()
    with raises_exactly(TypeError, "ParallelTable: input must be a table (list), got ndarray"):
        m.forward(uniform((4, 5)))
    with raises_exactly(ValueError, "ParallelTable: input must be a table of 3 entries like its modules, got 2 entries"):
        m.forward(inputs()[:2])
    with raises_exactly(ValueError, "ParallelTable: input must be a table of 3 entries like its modules, got 4 entries"):
        m.forward(inputs() + [uniform((4, 1))])   # Torch7 ignored the extra entry
    with raises_exactly(RuntimeError, "ParallelTable: backward needs the outputs of forward: call forward first"):
        m.backward(inputs(), [uniform((4, 3)), uniform((4, 3)), uniform((4, 4))])
    m.forward(inputs())
    with raises_exactly(ValueError, "ParallelTable: gradOutput must be a table of 3 entries like its modules, got 1 entry"):
        m.backward(inputs(), [uniform((4, 3))])


def test_child_errors_name_their_place():
    m = make()
    x = inputs()
    x[2] = uniform((4, 3))
    with raises_exactly(ValueError, "ParallelTable (2) -> Sequential (0) -> Linear_updateOutput: input must be "
                                    "1D or 2D with 2 features, got 2D of size [4, 3]"):
        m.forward(x)
    x = inputs()
    x[1] = x[1].astype(np.int64)
    with raises_exactly(TypeError, "ParallelTable (1) -> Tanh: input must be float32 or float64, got int64"):
        m.forward(x)


def test_repr():
    assert repr(nn.ParallelTable(nn.Linear(3, 2), nn.Tanh())) == (
        "nn.ParallelTable {\n  input\n    |`-> (0): nn.Linear(3 -> 2)\n     `-> (1): nn.Tanh\n"
        "     ... -> output\n}")
