"""nn_legacy.LinearWeightNorm: a Linear layer whose rows are g * v / ||v||."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_pickle,
                          raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import from_torch7

N_IN, N_OUT = 5, 3


def make(bias=True):
    m = nn.LinearWeightNorm(N_IN, N_OUT, bias)
    m.g[...] = uniform((N_OUT, 1), 9, 0.5, 2.0)
    return m


def weight(m):
    return m.g * m.v / np.sqrt((m.v ** 2).sum(axis=1, keepdims=True))


@pytest.mark.parametrize("shape", [(N_IN,), (4, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = make()
    x = uniform(shape, 1)
    np.testing.assert_allclose(m.forward(x), x @ weight(m).T + m.bias, rtol=1e-13)
    np.testing.assert_allclose(m.weight, weight(m), rtol=1e-15)


def test_matches_torch():
    torch = torch_or_skip()
    m = make()
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    v = torch.from_numpy(m.v.copy()).requires_grad_(True)
    gain = torch.from_numpy(m.g.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.linear(t, gain * v / v.norm(dim=1, keepdim=True), b), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.gradV, v.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradG, gain.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-13)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
@pytest.mark.parametrize("shape", [(N_IN,), (3, N_IN)], ids=["1D", "2D"])
def test_jacobians(shape, bias):
    m = make(bias)
    assert [p.shape for p in m.parameters()[0]] == [(N_OUT, N_IN), (N_OUT, 1)] + ([(N_OUT,)] if bias else [])
    x = uniform(shape, 3)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_gradients_accumulate_over_calls():
    """Torch7 turned all of gradV into v's gradient on each call; each call adds its own share here."""
    m = make()
    together = m.clone()
    x1, g1, x2, g2 = uniform((2, N_IN), 1), uniform((2, N_OUT), 2), uniform((3, N_IN), 3), uniform((3, N_OUT), 4)
    m.zeroGradParameters()
    m.forward(x1)
    m.backward(x1, g1)
    m.forward(x2)
    m.backward(x2, g2)
    together.zeroGradParameters()
    x, g = np.concatenate([x1, x2]), np.concatenate([g1, g2])
    together.forward(x)
    together.backward(x, g)
    for a, b in zip(m.parameters()[1], together.parameters()[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_common_checks():
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    check_acc_update(make(), x, g, 0.3)
    check_float32(make(), x, g)
    check_batch_equals_samples(make(), x, g)
    check_buffer_reuse(make(), x, g, uniform((2, N_IN), 3), uniform((2, N_OUT), 4))
    check_pickle(make(), x, g)


def test_reset_and_conversions():
    nn.manualSeed(0)
    m = nn.LinearWeightNorm(N_IN, N_OUT)
    np.testing.assert_allclose(m.g[:, 0], np.sqrt((m.v ** 2).sum(axis=1)), rtol=1e-15)
    assert np.all(np.abs(m.v) <= 1 / np.sqrt(N_IN))
    linear = nn.Linear(N_IN, N_OUT)
    wn = nn.LinearWeightNorm.fromLinear(linear)
    x = uniform((2, N_IN), 1)
    np.testing.assert_allclose(wn.forward(x), linear.forward(x), rtol=1e-13)
    wn = make()
    back = wn.toLinear()
    assert type(back) is nn.Linear
    np.testing.assert_allclose(back.forward(x), wn.forward(x), rtol=1e-14)
    assert repr(make(False)) == "nn.LinearWeightNorm(5 -> 3 without bias)"
    with raises_exactly(ValueError, "LinearWeightNorm: sizes must be positive, got 0 -> 3"):
        nn.LinearWeightNorm(0, 3)


def test_loads_from_torch7_fields():
    v, g, b = uniform((N_OUT, N_IN), 1), uniform((N_OUT, 1), 2), uniform((N_OUT,), 3)
    m = from_torch7("nn.LinearWeightNorm", v=v, gradV=v * np.nan, g=g, gradG=g * 0, bias=b, gradBias=b * 0,
                    weight=np.zeros((N_OUT, N_IN)), norm=np.zeros((N_OUT, 1)), scale=np.zeros((N_OUT, 1)),
                    eps=1e-16, inputSize=float(N_IN), outputSize=float(N_OUT), addBuffer=np.ones(2))
    assert not {"norm", "scale", "addBuffer", "inputSize"} & vars(m).keys() and np.all(m.gradV == 0)
    x = uniform((2, N_IN), 4)
    np.testing.assert_allclose(m.forward(x), x @ (g * v / np.sqrt((v ** 2).sum(1, keepdims=True))).T + b, rtol=1e-13)
