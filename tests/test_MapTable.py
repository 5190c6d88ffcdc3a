"""nn_legacy.MapTable: one module, cloned with shared parameters, on every entry."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def make(shared=True):
    return nn.MapTable(nn.Sequential(nn.Linear(4, 3), nn.Tanh()), shared)


def inputs(n=3, batch=2, seed=1):
    return [uniform((batch, 4), seed + i) for i in range(n)]


def by_hand(model, x):
    lin = model.module.get(0)
    return np.tanh(x @ lin.weight.T + lin.bias)


def test_every_entry_through_the_same_function():
    m, x = make(), inputs()
    out = m.forward(x)
    assert len(out) == 3 and len(m.modules) == 3 and m.modules[0] is m.module
    for o, xi in zip(out, x):
        np.testing.assert_allclose(o, by_hand(m, xi), rtol=1e-14)


def test_clones_share_parameters_and_gradients():
    m = make()
    m.forward(inputs(3))
    lin = [c.get(0) for c in m.modules]
    for other in lin[1:]:
        for name in ("weight", "bias", "gradWeight", "gradBias"):
            assert getattr(other, name) is getattr(lin[0], name)
    assert len(m.parameters()[0]) == 2   # listed once


def test_gradients_of_all_entries_add_up_and_one_step_is_taken():
    m, x = make(), inputs(3)
    g = [uniform((2, 3), 10 + i) for i in range(3)]
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g)
    single = make()
    single.module = m.module.clone()
    single.modules = [single.module]
    total = [np.zeros_like(p) for p in single.parameters()[1]]
    for xi, gi in zip(x, g):
        single.zeroGradParameters()
        single.forward([xi])
        single.backward([xi], [gi])
        total = [t + d for t, d in zip(total, single.parameters()[1])]
    for a, b in zip(m.parameters()[1], total):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    before = [p.copy() for p in m.parameters()[0]]
    m.updateParameters(0.1)   # once for the module, not once per clone
    for p, p0, d in zip(m.parameters()[0], before, total):
        np.testing.assert_allclose(p, p0 - 0.1 * d, rtol=1e-13)


def test_unshared_clones_have_parameters_of_their_own():
    m, x = make(shared=False), inputs(2)
    m.forward(x)
    assert m.modules[1].get(0).weight is not m.module.get(0).weight
    assert len(m.parameters()[0]) == 4
    m.zeroGradParameters()
    m.backward(x, [uniform((2, 3), 5), uniform((2, 3), 6)])
    before = m.modules[1].get(0).weight.copy()
    m.updateParameters(0.1)   # every clone steps its own parameters
    np.testing.assert_allclose(m.modules[1].get(0).weight, before - 0.1 * m.modules[1].get(0).gradWeight)


def test_longer_and_shorter_tables():
    m = make()
    assert m.forward(inputs(1)) and len(m.modules) == 1
    m.forward(inputs(4))
    assert len(m.modules) == 4
    out = m.forward(inputs(2))
    assert len(out) == 2 and len(m.modules) == 4   # clones are kept
    assert m.forward([]) == []
    m.clearState()
    assert m.modules == [m.module] and m.output is None


def test_type_conversion_and_pickle_keep_the_clones_shared():
    m = make()
    m.forward(inputs(3))
    m.float()
    assert m.modules[2].get(0).weight is m.module.get(0).weight
    assert m.module.get(0).weight.dtype == np.float32
    restored = pickle.loads(pickle.dumps(m))
    assert restored.modules[2].get(0).weight is restored.module.get(0).weight
    assert restored.module is restored.modules[0]


def test_getParameters_with_clones():
    m = make()
    m.forward(inputs(3))
    flat, grads = m.getParameters()
    assert flat.size == 4 * 3 + 3 == grads.size
    assert m.getParameters()[0] is flat
    flat[:] = 0.5
    m.forward(inputs(5))   # new clones share the flat parameters too
    for c in m.modules:
        np.testing.assert_array_equal(c.get(0).weight, 0.5)
    assert m.modules[4].get(0).weight is m.module.get(0).weight
    assert m.getParameters()[0] is flat


def test_a_single_module():
    with raises_exactly(ValueError, "MapTable.add: a MapTable maps a single module, and it has one"):
        make().add(nn.Tanh())
    with raises_exactly(ValueError, "MapTable: there is no module to map; add one first"):
        nn.MapTable().forward(inputs())
    m = nn.MapTable().add(nn.Tanh())
    np.testing.assert_allclose(m.forward(inputs(1))[0], np.tanh(inputs(1)[0]))


def test_errors_name_the_entry():
    m, x = make(), inputs(3)
    x[2] = uniform((2, 5))
    with raises_exactly(ValueError, "MapTable (2) -> Sequential (0) -> Linear_updateOutput: input must be 1D or "
                                    "2D with 4 features, got 2D of size [2, 5]"):
        m.forward(x)
    with raises_exactly(TypeError, "MapTable: input must be a table (list), got ndarray"):
        m.forward(uniform((2, 4)))
    m.forward(inputs(3))
    with raises_exactly(ValueError, "MapTable: gradOutput must be a table of 3 entries like the input, got 2 entries"):
        m.backward(inputs(3), [uniform((2, 3)), uniform((2, 3))])


def test_repr():
    assert repr(nn.MapTable(nn.Linear(4, 3))) == "nn.MapTable {\n  nn.Linear(4 -> 3)\n}"
    assert repr(nn.MapTable(nn.Sequential(nn.Tanh()))) == (
        # Torch7 indents the module's further lines by 8
        "nn.MapTable {\n  nn.Sequential {\n          [input -> (0) -> output]\n          (0): nn.Tanh\n        }\n}")
    assert repr(nn.MapTable()) == "nn.MapTable { }"


@pytest.mark.parametrize("shared", [True, False])
def test_training_and_evaluate_reach_the_clones(shared):
    m = nn.MapTable(nn.Dropout(0.5), shared)
    m.forward(inputs(3))
    m.evaluate()
    assert not any(c.train for c in m.modules)
    x = inputs(3)
    for o, xi in zip(m.forward(x), x):
        np.testing.assert_array_equal(o, xi)
    m.training()
    assert all(c.train for c in m.modules)
