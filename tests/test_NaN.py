"""nn_legacy.NaN: raises where a NaN first appears, saying where it came from."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, assert_parameter_jacobians, raises_exactly, uniform
from numpy_checks import from_torch7


def linear():
    nn.manualSeed(0)
    return nn.Linear(3, 2)


def test_passes_values_through():
    m = nn.NaN(linear(), id=7)
    x, g = uniform((4, 3), 1), uniform((4, 2), 2)
    assert m.forward(x) is m.modules[0].output
    np.testing.assert_array_equal(m.output, linear().forward(x))
    assert m.backward(x, g) is m.modules[0].gradInput
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)
    assert repr(m) == "nn.NaN(7) @ nn.Linear(3 -> 2)"


def test_ids_count_up():
    a, b = nn.NaN(nn.Tanh()), nn.NaN(nn.Tanh())
    assert b.id == a.id + 1


@pytest.mark.parametrize("where", ["input", "parameters", "output"])
def test_nan_in_the_output_says_where_it_came_from(where):
    m = nn.NaN(nn.Sequential().add(linear()).add(nn.Log()), id=1)
    x = uniform((2, 3), 1)
    if where == "input":
        x[0, 1] = np.nan
    elif where == "parameters":
        m.modules[0].modules[0].bias[1] = np.nan
    else:
        x = -np.abs(x) * 0   # log(0 @ W + b) with b < 0 somewhere: NaN from the module itself
        m.modules[0].modules[0].bias[:] = -1
    with raises_exactly(FloatingPointError, f"NaN found in {where} of module :\n" + repr(m)):
        m.forward(x)


@pytest.mark.parametrize("where", ["gradOutput", "gradInput", "gradParameters"])
def test_nan_going_back(where):
    m = nn.NaN(linear(), id=1)
    x, g = uniform((2, 3), 1), uniform((2, 2), 2)
    m.forward(x)
    if where == "gradOutput":
        g[1, 1] = np.nan
    elif where == "gradInput":
        m.modules[0].weight[0, 0] = np.inf
        g[:, 0] = 0             # inf * 0 = NaN in gradInput, while output and gradOutput are finite
    else:
        m.modules[0].gradWeight[0, 0] = np.nan
        with raises_exactly(FloatingPointError, "NaN found in gradParameters of module :\n" + repr(m)):
            m.accGradParameters(x, g)
        return
    with raises_exactly(FloatingPointError, f"NaN found in {where} of module :\n" + repr(m)):
        m.backward(x, g)


def test_tables_are_searched():
    m = nn.NaN(nn.CAddTable(), id=2)
    with raises_exactly(FloatingPointError, "NaN found in input of module :\nnn.NaN(2) @ nn.CAddTable"):
        m.forward([np.ones(2), np.array([1.0, np.nan])])


def test_loads_from_torch7_fields():
    m = from_torch7("nn.NaN", id=3.0, modules=[linear()])
    with raises_exactly(FloatingPointError, "NaN found in input of module :\nnn.NaN(3.0) @ nn.Linear(3 -> 2)"):
        m.forward(np.full(3, np.nan))
