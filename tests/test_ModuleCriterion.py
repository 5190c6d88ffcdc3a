"""nn_legacy.ModuleCriterion: a criterion behind an input module and a target module."""
import numpy as np
import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, classes, raises_exactly,
                          uniform)


def log_softmax_nll():
    """LogSoftMax then ClassNLL: CrossEntropyCriterion built from parts."""
    return nn.ModuleCriterion(nn.ClassNLLCriterion(), nn.LogSoftMax())


def scores(n=5, seed=1):
    return uniform((n, 4), seed), classes(n, 4, seed + 1)


def test_input_module_then_criterion_equals_cross_entropy():
    x, t = scores()
    c, ce = log_softmax_nll(), nn.CrossEntropyCriterion()
    assert isinstance(c.forward(x, t), float)
    np.testing.assert_allclose(c.forward(x, t), ce.forward(x, t), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), ce.backward(x, t), rtol=1e-13, atol=1e-16)


def test_target_module():
    """MSE between sigmoid(x) and tanh(target): no gradient reaches the target."""
    x, target = uniform((3, 4), 1), uniform((3, 4), 2)
    c = nn.ModuleCriterion(nn.MSECriterion(), nn.Sigmoid(), nn.Tanh())
    p = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(c.forward(x, target), ((p - np.tanh(target)) ** 2).mean(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, target), 2 * (p - np.tanh(target)) / x.size * p * (1 - p), rtol=1e-13)
    assert_criterion_gradient(c, x, target)


def test_without_modules_it_is_the_criterion():
    x, target = uniform((3, 4), 1), uniform((3, 4), 2)
    c, mse = nn.ModuleCriterion(nn.MSECriterion()), nn.MSECriterion()
    assert c.forward(x, target) == mse.forward(x, target)
    np.testing.assert_array_equal(c.backward(x, target), mse.backward(x, target))


def test_input_module_parameter_gradients_accumulate_as_in_dpnn():
    layer = nn.Linear(4, 2)
    c = nn.ModuleCriterion(nn.MSECriterion(), layer)
    x, target = uniform((3, 4), 1), uniform((3, 2), 2)
    layer.zeroGradParameters()
    c.forward(x, target)
    c.backward(x, target)
    grad_out = nn.MSECriterion().backward(layer.forward(x), target)
    np.testing.assert_allclose(layer.gradWeight, grad_out.T @ x, rtol=1e-13)
    c.backward(x, target)
    np.testing.assert_allclose(layer.gradWeight, 2 * grad_out.T @ x, rtol=1e-13)


def test_backward_uses_forwards_module_output():
    """As every backward: after forward(x), backward(x) differentiates at the
    module output forward computed (a stochastic module is not run again)."""
    class CountingSigmoid(nn.Sigmoid):
        calls = 0

        def updateOutput(self, input):
            CountingSigmoid.calls += 1
            return super().updateOutput(input)

    c = nn.ModuleCriterion(nn.MSECriterion(), CountingSigmoid())
    x, target = uniform((3, 4), 1), uniform((3, 4), 2)
    c.forward(x, target)
    c.backward(x, target)
    assert CountingSigmoid.calls == 1


def test_backward_before_forward():
    with raises_exactly(RuntimeError, "ModuleCriterion: backward needs the inputModule's output: call forward first"):
        log_softmax_nll().backward(*scores())


def test_type_converts_the_parts_and_the_target_module_only_with_cast_target():
    linear = nn.Linear(2, 2)
    c = nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), linear, castTarget=False).float()
    assert linear.weight.dtype == np.float64
    c = nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), nn.Linear(2, 2)).float()
    assert c.targetModule.weight.dtype == np.float32
    inner, criterion = nn.Linear(2, 2), nn.WeightedMSECriterion(np.ones(2))
    nn.ModuleCriterion(criterion, inner).float()
    assert inner.weight.dtype == np.float32 and criterion.weight.dtype == np.float32


def test_clear_state():
    c = log_softmax_nll()
    c.forward(*scores())
    c.backward(*scores())
    c.clearState()
    assert c.gradInput is None and c.inputModule.output is None and c.criterion.gradInput is None


def test_repr():
    assert repr(log_softmax_nll()) == "nn.ModuleCriterion {\n  criterion: nn.ClassNLLCriterion\n" \
                                      "  inputModule: nn.LogSoftMax\n}"


# ---------------------------------------------------------------- bad input
def test_constructor_checks():
    with raises_exactly(TypeError, "ModuleCriterion: criterion must be a Criterion, got LogSoftMax"):
        nn.ModuleCriterion(nn.LogSoftMax())
    with raises_exactly(TypeError, "ModuleCriterion: targetModule must be a Module or None, got MSECriterion"):
        nn.ModuleCriterion(nn.MSECriterion(), None, nn.MSECriterion())


def test_errors_of_the_parts_pass_through():
    x, t = scores()
    t[0] = 9
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: target 9 at index 0 is out of range [0, 4)"):
        log_softmax_nll().forward(x, t)
