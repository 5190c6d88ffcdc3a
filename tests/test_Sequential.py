"""nn_legacy.Sequential: modules applied one after the other, backward in reverse."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_float32, raises_exactly, uniform)

N_IN, N_HID, N_OUT = 5, 4, 3


def mlp(relu_inplace=False):
    """Linear -> Tanh -> Linear -> ReLU -> Linear -> LogSoftMax."""
    return nn.Sequential(nn.Linear(N_IN, N_HID), nn.Tanh(), nn.Linear(N_HID, N_HID), nn.ReLU(relu_inplace),
                         nn.Linear(N_HID, N_OUT), nn.LogSoftMax())


def mlp_by_hand(model, x):
    """The same network written out in numpy."""
    l0, l2, l4 = model.get(0), model.get(2), model.get(4)
    h = np.tanh(x @ l0.weight.T + l0.bias)
    h = np.maximum(h @ l2.weight.T + l2.bias, 0)
    z = h @ l4.weight.T + l4.bias
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def relu_inputs_away_from_zero(model, x, margin=1e-3):
    """The finite differences step over no ReLU kink if no pre-activation is near 0."""
    pre = x
    for m in model.modules[:3]:  # clones: an in-place ReLU would overwrite the original's output
        pre = m.clone().forward(pre)
    return np.min(np.abs(pre)) > margin


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("shape", [(N_IN,), (4, N_IN)], ids=["1D", "2D"])
def test_forward_matches_numpy(shape):
    model, x = mlp(), uniform(shape, 1)
    np.testing.assert_allclose(model.forward(x), mlp_by_hand(model, x), rtol=1e-13, atol=1e-15)
    assert model.output is model.get(5).output


def test_backward_chains_the_modules_in_reverse():
    model, x, g = mlp(), uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    model.forward(x)
    model.zeroGradParameters()
    gin = model.backward(x, g)
    layers = [m.clone() for m in model.modules]
    for m in layers:
        m.zeroGradParameters()
    inputs = [x]
    for m in layers:
        inputs.append(m.forward(inputs[-1]).copy())
    grad = g
    for m, inp in zip(reversed(layers), reversed(inputs[:-1])):
        grad = m.backward(inp, grad).copy()
    np.testing.assert_array_equal(gin, grad)
    for a, b in zip(model.parameters()[1], [p for m in layers for p in m.parameters()[1]]):
        np.testing.assert_array_equal(a, b)


def test_backward_scale_and_accumulation():
    model, x, g = mlp(), uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    model.forward(x)
    model.zeroGradParameters()
    model.backward(x, g)
    once = [a.copy() for a in model.parameters()[1]]
    model.zeroGradParameters()
    model.backward(x, g, 0.5)
    model.backward(x, g, 1.5)
    for a, b in zip(model.parameters()[1], once):
        np.testing.assert_allclose(a, 2 * b, rtol=1e-13, atol=1e-16)


def test_updateParameters_is_a_gradient_step():
    model, x, g = mlp(), uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    before = [p.copy() for p in model.parameters()[0]]
    model.zeroGradParameters()
    model.forward(x)
    model.backward(x, g)
    model.updateParameters(0.1)
    for p, p0, dp in zip(model.parameters()[0], before, model.parameters()[1]):
        np.testing.assert_allclose(p, p0 - 0.1 * dp, rtol=1e-15, atol=1e-17)


def test_training_reduces_the_loss():
    """A few SGD steps on two separable blobs bring the loss down."""
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(-1, 0.5, (20, N_IN)), rng.normal(1, 0.5, (20, N_IN))])
    y = np.repeat([0, 1], 20)
    model = nn.Sequential(nn.Linear(N_IN, N_HID), nn.Tanh(), nn.Linear(N_HID, 2))
    loss = nn.CrossEntropyCriterion()
    first = loss.forward(model.forward(x), y)
    for _ in range(50):
        out = model.forward(x)
        loss.forward(out, y)
        model.zeroGradParameters()
        model.backward(x, loss.backward(out, y))
        model.updateParameters(0.5)
    final = loss.forward(model.forward(x), y)
    assert final < first / 4, (first, final)
    assert np.mean(model.forward(x).argmax(axis=1) == y) == 1.0


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("shape", [(N_IN,), (3, N_IN)], ids=["1D", "2D"])
def test_jacobians(shape):
    model, x = mlp(), uniform(shape, 3)
    assert relu_inputs_away_from_zero(model, x)
    assert_input_jacobian(model, x)
    assert_parameter_jacobians(model, x)


def test_jacobians_of_nested_sequentials():
    model = nn.Sequential(nn.Sequential(nn.Linear(N_IN, N_HID), nn.Tanh()),
                          nn.Sequential(nn.Linear(N_HID, N_OUT, bias=False), nn.Threshold(-0.5, -0.5)))
    x = uniform((3, N_IN), 5)
    model.forward(x)
    assert np.min(np.abs(model.get(1).get(0).output + 0.5)) > 1e-3  # away from the threshold
    assert_input_jacobian(model, x)
    assert_parameter_jacobians(model, x)


def test_jacobians_with_in_place_relu():
    model, x = mlp(relu_inplace=True), uniform((3, N_IN), 3)
    assert relu_inputs_away_from_zero(model, x)
    assert_input_jacobian(model, x)
    assert_parameter_jacobians(model, x)


def test_in_place_relu_gives_the_same_results():
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    plain = mlp()
    inplace = plain.clone()
    inplace.get(3).inplace = True
    for m in (plain, inplace):
        m.zeroGradParameters()
    np.testing.assert_array_equal(inplace.forward(x), plain.forward(x))
    np.testing.assert_array_equal(inplace.backward(x, g), plain.backward(x, g))
    for a, b in zip(inplace.parameters()[1], plain.parameters()[1]):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------- generic properties
def test_float32_matches_float64():
    model = mlp()
    check_float32(model, uniform((6, N_IN), 1), uniform((6, N_OUT), 2))
    assert model.type() == np.float64 and model.clone().float().type() == np.float32


def test_pickle_keeps_shared_parameters_shared():
    model = mlp()
    model.flattenParameters()
    restored = pickle.loads(pickle.dumps(model))
    flat, _ = restored.flattenParameters()
    flat[:] = 0
    assert all(not p.any() for p in restored.parameters()[0])


def test_flattenParameters_views_every_parameter():
    model, x = mlp(), uniform((4, N_IN), 1)
    out = model.forward(x).copy()
    flat, flat_grad = model.flattenParameters()
    assert flat.size == sum(p.size for p in model.parameters()[0]) == flat_grad.size
    assert model.flattenParameters()[0] is flat
    np.testing.assert_array_equal(model.forward(x), out)
    flat *= 0
    np.testing.assert_array_equal(model.get(0).weight, 0)


def test_empty_batch():
    model = mlp()
    assert model.forward(np.zeros((0, N_IN))).shape == (0, N_OUT)
    assert model.backward(np.zeros((0, N_IN)), np.zeros((0, N_OUT))).shape == (0, N_IN)


def test_empty_sequential_is_the_identity():
    model, x = nn.Sequential(), uniform((2, 3))
    assert model.forward(x) is x
    g = uniform((2, 3), 1)
    assert model.backward(x, g) is g
    assert model.parameters() == ([], [])


# ---------------------------------------------------------------- container API
def test_add_get_size_len():
    model = nn.Sequential()
    a, b = nn.Linear(2, 3), nn.Tanh()
    assert model.add(a) is model
    model.add(b)
    assert model.size() == len(model) == 2
    assert model.get(0) is a and model.get(1) is b and model.get(-1) is b


def test_insert_and_remove():
    a, b, c = nn.Linear(2, 3), nn.Tanh(), nn.Sigmoid()
    model = nn.Sequential(a, c)
    assert model.insert(b, 1) is model
    assert model.modules == [a, b, c]
    model.insert(nn.ReLU())
    assert isinstance(model.get(3), nn.ReLU)
    assert model.remove(1) is b
    assert isinstance(model.remove(), nn.ReLU)
    assert model.modules == [a, c]
    np.testing.assert_allclose(model.forward(uniform((2,))), 1 / (1 + np.exp(-a.forward(uniform((2,))))),
                               rtol=1e-15)


def test_add_refuses_non_modules():
    with raises_exactly(TypeError, "Sequential.add: expected a Module, got int"):
        nn.Sequential().add(3)
    with raises_exactly(TypeError, "Sequential.add: expected a Module, got MSECriterion"):
        nn.Sequential(nn.MSECriterion())


def test_listModules_and_findModules():
    inner = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
    model = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), inner)
    assert [type(m).__name__ for m in model.listModules()] == ["Sequential", "Linear", "Tanh", "Sequential",
                                                               "Linear", "ReLU"]
    found, containers = model.findModules("Linear")
    assert found == [model.get(0), inner.get(0)] and containers == [model, inner]
    assert model.findModules(nn.Threshold)[0] == [inner.get(1)]


def test_type_conversion_reaches_every_child():
    model = mlp().float()
    assert model.type() == np.float32
    assert all(p.dtype == np.float32 for p in model.parameters()[0] + model.parameters()[1])
    assert model.forward(uniform((2, N_IN)).astype(np.float32)).dtype == np.float32
    model.double()
    assert all(p.dtype == np.float64 for p in model.parameters()[0])


def test_clearState():
    model, x = mlp(), uniform((2, N_IN))
    out = model.forward(x).copy()
    model.clearState()
    assert model.output is None and all(m.output is None for m in model.modules)
    np.testing.assert_array_equal(model.forward(x), out)


def test_repr_is_torch_style():
    model = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Sequential(nn.Linear(4, 3), nn.ReLU()),
                          nn.LogSoftMax())
    assert repr(model) == (
        "nn.Sequential {\n"
        "  [input -> (0) -> (1) -> (2) -> (3) -> output]\n"
        "  (0): nn.Linear(5 -> 4)\n"
        "  (1): nn.Tanh\n"
        "  (2): nn.Sequential {\n"
        "    [input -> (0) -> (1) -> output]\n"
        "    (0): nn.Linear(4 -> 3)\n"
        "    (1): nn.ReLU\n"
        "  }\n"
        "  (3): nn.LogSoftMax\n"
        "}")
    assert repr(nn.Sequential()) == "nn.Sequential"


# ---------------------------------------------------------------- errors name their place
def test_error_in_the_first_module():
    with raises_exactly(thnn.THNNError, "Sequential (0) -> Linear_updateOutput: input must be 1D or 2D with "
                                        "5 features, got 2D of size [2, 6]"):
        mlp().forward(uniform((2, 6)))


def test_error_in_a_later_module():
    model = mlp()
    model.get(4).weight = np.zeros((N_OUT, 7))
    with raises_exactly(thnn.THNNError, "Sequential (4) -> Linear_updateOutput: input must be 1D or 2D with "
                                        "7 features, got 2D of size [2, 4]"):
        model.forward(uniform((2, N_IN)))


def test_error_in_a_nested_sequential():
    model = nn.Sequential(nn.Linear(5, 4), nn.Sequential(nn.Tanh(), nn.Linear(3, 2)))
    with raises_exactly(thnn.THNNError, "Sequential (1) -> Sequential (1) -> Linear_updateOutput: input must be "
                                        "1D or 2D with 3 features, got 2D of size [2, 4]"):
        model.forward(uniform((2, 5)))


def test_error_in_backward():
    model, x = mlp(), uniform((2, N_IN))
    model.forward(x)
    with raises_exactly(thnn.THNNError, "Sequential (5) -> LogSoftMax_updateGradInput: gradOutput must be "
                                        "shaped as input (2D of size [2, 3]), got 2D of size [2, 4]"):
        model.backward(x, uniform((2, 4)))


def test_type_errors_name_their_place():
    with raises_exactly(TypeError, "Sequential (0) -> Linear: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        mlp().forward(uniform((2, N_IN)).astype(np.float32))
    model = mlp()
    model.forward(uniform((2, N_IN)))
    with raises_exactly(TypeError, "Sequential (5) -> LogSoftMax_updateGradInput: gradOutput must be float64 "
                                   "like the other tensors, got float32"):
        model.backward(uniform((2, N_IN)), uniform((2, N_OUT)).astype(np.float32))


def test_model_works_after_an_error():
    model, x = mlp(), uniform((2, N_IN))
    out = model.forward(x).copy()
    with pytest.raises(thnn.THNNError):
        model.forward(uniform((2, 6)))
    np.testing.assert_array_equal(model.forward(x), out)
