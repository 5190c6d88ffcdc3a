"""nn_legacy.TotalVariation: identity forward, a TV penalty's gradient added
on the way back (fast-neural-style's regularizer)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (JACOBIAN_TOL, STEP, raises_exactly, uniform)
from t7_writer import T7Object, t7_bytes


def lua_backward(x, g, strength):
    """fast-neural-style's TotalVariation.lua updateGradInput, transcribed
    (its x_diff / y_diff slices, 1-based ranges made 0-based)."""
    grad = np.zeros_like(x)
    x_diff = x[:, :, :-1, :-1] - x[:, :, :-1, 1:]
    y_diff = x[:, :, :-1, :-1] - x[:, :, 1:, :-1]
    grad[:, :, :-1, :-1] += x_diff + y_diff
    grad[:, :, :-1, 1:] -= x_diff
    grad[:, :, 1:, :-1] -= y_diff
    return grad * strength + g


@pytest.mark.parametrize("strength", [1e-3, 1.0, 2.5])
def test_forward_is_the_input_and_backward_matches_the_lua_layer(strength):
    x, g = uniform((2, 3, 5, 6), 1), uniform((2, 3, 5, 6), 2)
    m = nn.TotalVariation(strength)
    assert m.forward(x) is x
    np.testing.assert_allclose(m.backward(x, g), lua_backward(x, g, strength), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 2, 3, 4), (1, 2, 2)])
def test_backward_adds_the_gradient_of_the_penalty(shape):
    """backward(x, g) - g is dE/dx, checked by central differences of E."""
    m = nn.TotalVariation(0.7)
    x = uniform(shape, 3)
    analytic = m.backward(x, np.zeros(shape)).copy()
    numeric = np.zeros(shape)
    for i in np.ndindex(*shape):
        plus, minus = x.copy(), x.copy()
        plus[i] += STEP
        minus[i] -= STEP
        numeric[i] = (m.penalty(plus) - m.penalty(minus)) / (2 * STEP)
    assert np.abs(analytic - numeric).max() < JACOBIAN_TOL


def test_penalty():
    x = np.array([[[1.0, 2.0], [4.0, 0.0]]])
    # one corner pixel: (1 - 2)^2 + (1 - 4)^2 = 10
    assert nn.TotalVariation(2).penalty(x) == 10.0


def test_buffer_reuse():
    m = nn.TotalVariation(0.5)
    x, g = uniform((3, 2, 4, 5), 1), uniform((3, 2, 4, 5), 2)
    fresh = m.clone()
    first = m.backward(x, g)
    kept = first.copy()
    second = m.backward(x[:2], g[:2])
    np.testing.assert_array_equal(first, kept)
    np.testing.assert_array_equal(second, fresh.backward(x[:2], g[:2]))
    assert m.backward(x[1:], g[1:]) is second


def test_bad_input():
    with raises_exactly(TypeError, "TotalVariation: strength must be a number, got '1'"):
        nn.TotalVariation("1")
    m = nn.TotalVariation(1)
    with raises_exactly(ValueError, "TotalVariation: input planes must be at least 2x2, got 3D of size [2, 1, 5]"):
        m.forward(uniform((2, 1, 5)))
    with raises_exactly(TypeError, "TotalVariation: input must be float32 or float64, got int64"):
        m.forward(np.zeros((1, 3, 3), np.int64))
    with raises_exactly(ValueError, "TotalVariation: gradOutput must be of size [1, 3, 3] like the input, got 3D of "
                                    "size [1, 3, 4]"):
        m.backward(uniform((1, 3, 3)), uniform((1, 3, 4)))


def test_loads_from_a_fast_neural_style_file(tmp_path):
    f = tmp_path / "tv.t7"
    f.write_bytes(t7_bytes(T7Object("nn.TotalVariation", {"strength": 1e-6, "x_diff": np.zeros((1, 3, 2, 2)),
                                                           "y_diff": np.zeros((1, 3, 2, 2)), "train": True})))
    m = nn.load_lua(str(f))
    assert isinstance(m, nn.TotalVariation) and m.strength == 1e-6 and "x_diff" not in vars(m)
    x, g = uniform((1, 3, 4, 4), 1), uniform((1, 3, 4, 4), 2)
    np.testing.assert_allclose(m.backward(x, g), lua_backward(x, g, 1e-6), rtol=1e-14)


def test_repr():
    assert repr(nn.TotalVariation(1e-5)) == "nn.TotalVariation(1e-05)"
