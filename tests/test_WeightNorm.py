"""nn_legacy.WeightNorm: weight = g * v / ||v||, gradients to g and v."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, uniform)
from table_module_checks import assert_table_jacobian, assert_table_parameter_jacobians


def make(outputDim=0):
    nn.manualSeed(3)
    return nn.WeightNorm(nn.Linear(5, 3), outputDim)


def weight_from(m):
    """g * v / sqrt(||v||^2 + 1e-4), slice by slice along outputDim, in numpy."""
    v, g = m.v, m.g
    w = g[:, None] * v / np.sqrt((v ** 2).sum(axis=1, keepdims=True) + 1e-4)
    shape = np.moveaxis(m.get(0).weight, m.outputDim, 0).shape
    return np.moveaxis(w.reshape(shape), 0, m.outputDim)


def test_parameters_are_v_g_and_the_bias():
    m = make()
    params, grads = m.parameters()
    assert [p.shape for p in params] == [(3, 5), (3,), (3,)]
    assert params[2] is m.get(0).bias and grads[2] is m.get(0).gradBias
    assert params[0] is m.v and params[1] is m.g and grads[0] is m.gradV and grads[1] is m.gradG
    # as Torch7 builds it: g the norms of v, the bias zero
    np.testing.assert_allclose(m.g, np.linalg.norm(m.v, axis=1), rtol=1e-15)
    np.testing.assert_array_equal(m.get(0).bias, 0)


@pytest.mark.parametrize("outputDim", [0, 1])
def test_forward_uses_the_normalised_weight(outputDim):
    m, x = make(outputDim), uniform((4, 5), 1)
    m.g[...] = uniform(m.g.shape, 2)
    m.get(0).bias[...] = uniform((3,), 3)
    out = m.forward(x)
    w = weight_from(m)
    np.testing.assert_allclose(m.get(0).weight, w, rtol=1e-14)
    np.testing.assert_allclose(out, x @ w.T + m.get(0).bias, rtol=1e-13)
    # each slice along outputDim has length |g| (up to the 1e-4 in the norm)
    lengths = np.linalg.norm(np.moveaxis(w, outputDim, 0).reshape(len(m.g), -1), axis=1)
    np.testing.assert_allclose(lengths, np.abs(m.g) * np.linalg.norm(m.v, axis=1)
                               / np.sqrt(np.linalg.norm(m.v, axis=1) ** 2 + 1e-4), rtol=1e-14)
    assert m.v.shape == ((3, 5) if outputDim == 0 else (5, 3))


@pytest.mark.parametrize("outputDim", [0, 1, 2])
def test_a_three_dimensional_weight(outputDim):
    nn.manualSeed(4)
    m = nn.WeightNorm(nn.Bilinear(3, 2, 4), outputDim)
    assert m.v.shape == (m.get(0).weight.shape[outputDim], 24 // m.get(0).weight.shape[outputDim])
    x = [uniform((2, 3), 6), uniform((2, 2), 7)]
    out = m.forward(x)
    np.testing.assert_allclose(m.get(0).weight, weight_from(m), rtol=1e-14)
    assert out.shape == (2, 4)
    assert_table_jacobian(m, x)
    assert_table_parameter_jacobians(m, x)


def test_gradients_accumulate_over_calls():
    """Torch7 recomputed gradV from the module's gradWeight, which it had
    overwritten with gradV: two backward calls did not add up.  Here they do."""
    m, x = make(), uniform((4, 5), 6)
    g1, g2 = uniform((4, 3), 7), uniform((4, 3), 8)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g1)
    m.backward(x, g2, 0.5)
    both = [a.copy() for a in m.parameters()[1]]
    m.zeroGradParameters()
    m.backward(x, g1 + 0.5 * g2)
    for a, b in zip(m.parameters()[1], both):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-16)


def test_updateParameters_steps_v_g_and_bias():
    m, x = make(), uniform((4, 5), 9)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, uniform((4, 3), 10))
    before = [p.copy() for p in m.parameters()[0]]
    m.updateParameters(0.1)
    for p, p0, d in zip(m.parameters()[0], before, m.parameters()[1]):
        np.testing.assert_allclose(p, p0 - 0.1 * d, rtol=1e-15)
    m.zeroGradParameters()
    assert not any(d.any() for d in m.parameters()[1])
    # the next forward uses the new v and g
    np.testing.assert_allclose(m.forward(x), x @ weight_from(m).T + m.get(0).bias, rtol=1e-13)


def test_flattenParameters_and_reset():
    m, x = make(), uniform((2, 5), 13)
    flat, grads = m.flattenParameters()
    assert flat.size == 15 + 3 + 3 == grads.size and m.flattenParameters()[0] is flat
    assert m.get(0).bias.base is flat
    out = m.forward(x).copy()
    flat[:] = 0.25
    assert not np.allclose(m.forward(x), out)
    m.reset()
    assert m.flattenParameters()[0] is flat   # drawn in place
    np.testing.assert_allclose(m.g, np.linalg.norm(m.v, axis=1), rtol=1e-15)


def test_bad_modules():
    with raises_exactly(TypeError, "WeightNorm: the module must have a non-empty float array weight, got Tanh "
                                   "with NoneType weight"):
        nn.WeightNorm(nn.Tanh())
    with raises_exactly(ValueError, "WeightNorm: outputDim must be a dimension of the weight (2D of size [3, 5]), "
                                    "got 2"):
        nn.WeightNorm(nn.Linear(5, 3), 2)
    m = make()
    m.get(0).weight = np.zeros((4, 5))
    with raises_exactly(ValueError, "WeightNorm: the module's weight [4, 5] does not fit v [3, 5] along "
                                    "outputDim 0"):
        m.forward(uniform((2, 5)))


def test_errors_name_their_place():
    with raises_exactly(ValueError, "WeightNorm (0) -> Linear_updateOutput: input must be 1D or 2D with 5 "
                                    "features, got 2D of size [2, 4]"):
        make().forward(uniform((2, 4)))


def test_repr():
    assert repr(make()) == "nn.WeightNorm [nn.Linear(5 -> 3)]"
