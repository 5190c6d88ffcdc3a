"""nn_legacy.DontCast: a module kept in its own dtype when the model is converted."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, assert_parameter_jacobians, raises_exactly, uniform
from t7_writer import T7Object, t7_bytes


def linear():
    nn.manualSeed(0)
    return nn.Linear(4, 3)


def test_type_leaves_the_module_alone():
    inner = linear()
    model = nn.Sequential().add(nn.DontCast(inner, castin=True)).add(nn.Tanh())
    model.float()
    assert inner.weight.dtype == np.float64 and model.modules[0].outputType == np.float32
    x, g = uniform((2, 4), 1), uniform((2, 3), 2)
    y = model.forward(x.astype(np.float32))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, np.tanh(linear().forward(x)), rtol=1e-6)
    gin = model.backward(x.astype(np.float32), g.astype(np.float32))
    assert gin.dtype == np.float32
    reference = nn.Sequential().add(linear()).add(nn.Tanh())
    reference.forward(x)
    reference.zeroGradParameters()
    np.testing.assert_allclose(gin, reference.backward(x, g), rtol=1e-6)
    np.testing.assert_allclose(inner.gradWeight, reference.modules[0].gradWeight, rtol=1e-6)
    assert inner.gradWeight.dtype == np.float64


def test_without_casts_arrays_pass_through():
    inner = linear()
    m = nn.DontCast(inner)
    m.float()
    assert m.moduleType is None and inner.weight.dtype == np.float64
    x = uniform((2, 4))
    assert m.forward(x) is inner.output
    with pytest.raises(TypeError, match="input is float32 but the module is float64"):
        m.forward(x.astype(np.float32))


def test_castout_only():
    inner = linear()
    m = nn.DontCast(inner, castin=False, castout=True)
    m.float()
    y = m.forward(uniform((2, 4)))
    assert y.dtype == np.float32 and inner.output.dtype == np.float64
    gin = m.backward(uniform((2, 4)), uniform((2, 3)).astype(np.float32))
    assert gin is inner.gradInput and gin.dtype == np.float64


def test_gradients_in_float64():
    m = nn.DontCast(linear(), True)
    x = uniform((3, 4), 1)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_module_type_is_found_or_asked_for():
    assert nn.DontCast(linear(), True).moduleType == np.float64
    assert nn.DontCast(linear().float(), True).moduleType == np.float32
    with raises_exactly(ValueError, "DontCast: cannot tell the module's dtype (it has no output or parameters yet): "
                                    "give moduleType, the 4th argument"):
        nn.DontCast(nn.Tanh(), True)
    assert nn.DontCast(nn.Tanh(), True, True, np.float32).moduleType == np.float32


def test_tables_are_cast_entry_by_entry():
    m = nn.DontCast(nn.CAddTable(), True, True, np.float64).float()
    x = [uniform((2, 3), 1).astype(np.float32), uniform((2, 3), 2).astype(np.float32)]
    y = m.forward(x)
    assert y.dtype == np.float32
    grads = m.backward(x, np.ones((2, 3), np.float32))
    assert [g.dtype for g in grads] == [np.float32, np.float32]


def test_loads_from_a_torch7_file(tmp_path):
    w, b = uniform((3, 4), 1), uniform((3,), 2)
    empty = {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True}
    inner = T7Object("nn.Linear", dict(empty, weight=w, bias=b, gradWeight=w * 0, gradBias=b * 0))
    path = tmp_path / "dc.t7"
    path.write_bytes(t7_bytes(T7Object("nn.DontCast", dict(empty, modules={1: inner}, castin=True, castout=True,
                                                              moduleType="torch.DoubleTensor"))))
    m = nn.load_lua(str(path))
    assert m.moduleType == np.float64 and m.castin and m.castout
    x = uniform((2, 4), 3).astype(np.float32)
    m.float()
    np.testing.assert_allclose(m.forward(x), x @ w.T + b, rtol=1e-6)
