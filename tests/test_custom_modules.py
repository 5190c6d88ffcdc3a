"""User-defined modules: parameters found by name as Torch7 did (weight, bias) or declared, the guide's
"A module of your own" example (docs/guides/writing-a-module.md) run as written, and the gradient checker's reports."""
import os
import re

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from nn_legacy import jacobian, optim
from cuda_devices import emulator_only

GUIDE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "guides",
                     "writing-a-module.md")


class Scale(nn.Module):
    """y = x * weight + bias, the Torch7 way: nothing declared, weight and bias found by name."""

    def __init__(self, n, bias=True):
        super().__init__()
        self.weight = uniform((n,), 1)
        self.gradWeight = np.zeros(n)
        if bias:
            self.bias = uniform((n,), 2)
            self.gradBias = np.zeros(n)

    def updateOutput(self, input):
        self.output = input * self.weight + (self.bias if getattr(self, "bias", None) is not None else 0)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput * self.weight
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.gradWeight += scale * (gradOutput * input).reshape(-1, len(self.weight)).sum(axis=0)
        if getattr(self, "bias", None) is not None:
            self.gradBias += scale * gradOutput.reshape(-1, len(self.weight)).sum(axis=0)


class Power(nn.Module):
    """y = x ** p with a learned exponent p, declared."""

    _parameter_names = (("p", "gradP"),)

    def __init__(self):
        super().__init__()
        self.p, self.gradP = np.array([2.0]), np.zeros(1)

    def updateOutput(self, input):
        self.output = input ** self.p
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput * self.p * input ** (self.p - 1)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.gradP += scale * (gradOutput * self.output * np.log(input)).sum()


def test_weight_and_bias_are_found_by_name():
    m = Scale(3)
    params, grads = m.parameters()
    assert params[0] is m.weight and params[1] is m.bias and grads[1] is m.gradBias
    assert len(Scale(3, bias=False).parameters()[0]) == 1
    x = uniform((4, 3), 3)
    assert jacobian.testAllParameters(m, x) < 1e-5
    model = nn.Sequential().add(nn.Linear(3, 3)).add(m)
    flat, flat_grads = model.flattenParameters()
    assert flat.size == 12 + 6 and np.shares_memory(flat, m.weight)
    before = m.weight.copy()
    model.zeroGradParameters()
    model.forward(x)
    model.backward(x, np.ones((4, 3)))
    model.updateParameters(0.1)
    np.testing.assert_allclose(m.weight, before - 0.1 * m.gradWeight, rtol=1e-15)
    accumulated = m.clone()
    m.accUpdateGradParameters(x, np.ones((4, 3)), 0.5)   # through the same names
    assert not np.array_equal(m.weight, accumulated.weight)


def test_declared_parameters_train_and_check():
    m = Power()
    x = uniform((5,), 4, 0.5, 2.0)
    assert m.parameters() == ([m.p], [m.gradP])
    report = jacobian.testAllParameters(m, x)
    assert report is not None and report < 1e-5
    params, grads = m.flattenParameters()

    def feval(_):
        m.zeroGradParameters()
        y = m.forward(x)
        m.backward(x, 2 * (y - x ** 3))
        return float(((y - x ** 3) ** 2).sum()), grads
    for _ in range(200):
        optim.sgd(feval, params, {"learningRate": 0.01})
    assert abs(m.p[0] - 3) < 1e-3   # learned y = x ** 3


def test_a_parameter_without_its_gradient_is_an_error():
    m = Scale(3)
    del m.gradBias
    with raises_exactly(AttributeError, "Scale has a parameter 'bias' but no gradient 'gradBias' to accumulate "
                                        "into: set self.gradBias = np.zeros_like(self.bias) in __init__"):
        m.parameters()


def test_test_all_parameters_never_returns_none():
    with raises_exactly(ValueError, "testAllParameters: Tanh has no parameters (parameters() is empty). Parameters "
                                    "are found by name (weight/gradWeight, bias/gradBias, as in Torch7); declare "
                                    "others in the class attribute _parameter_names (docs/guides/writing-a-module.md)"):
        jacobian.testAllParameters(nn.Tanh(), uniform((2, 3)))


def test_a_list_assigned_to_a_parameter_becomes_an_array():
    """(when the module next uses its parameters: forward, parameters(), ...)"""
    m = nn.Linear(2, 3).float()
    m.weight = [[1, 2], [3, 4], [5, 6]]
    np.testing.assert_array_equal(m.forward(np.ones(2, np.float32)), np.array([3, 7, 11], np.float32) + m.bias)
    assert isinstance(m.weight, np.ndarray) and m.weight.dtype == np.float32
    m.bias = (0, 0, 0)
    assert m.parameters()[0][1].dtype == np.float32 and isinstance(m.bias, np.ndarray)
    m.weight = [[1, 2], [3]]
    with pytest.raises(TypeError, match=r"^Linear\.weight: expected an array \(or a list of numbers of a regular "
                                        r"shape\), got a list numpy cannot read as float32"):
        m.forward(np.ones(2, np.float32))
    lookup = nn.LookupTable(3, 2)
    lookup.weight = [[1, 2], [3, 4], [5, 6]]
    np.testing.assert_array_equal(lookup.forward(np.array([2, 0])), [[5, 6], [1, 2]])


@pytest.mark.parametrize("name, dtype", [("torch.FloatTensor", np.float32), ("torch.DoubleTensor", np.float64)])
def test_torch7_type_names(name, dtype):
    model = nn.Sequential().add(nn.Linear(3, 2)).add(nn.Tanh())
    assert model.type(name) is model and model.get(0).weight.dtype == dtype
    c = nn.ClassNLLCriterion(np.ones(2)).type(name)
    assert c.weights.dtype == dtype


@emulator_only
def test_torch7_cuda_type_names():
    import thnn.cuda as cuda
    model = nn.Sequential().add(nn.Linear(3, 2)).add(nn.Tanh())
    model.type("torch.CudaTensor")
    assert isinstance(model.get(0).weight, cuda.CudaTensor) and model.get(0).weight.dtype == np.float32
    model.type("torch.CudaDoubleTensor")
    assert model.get(0).weight.dtype == np.float64 and isinstance(model.get(0).weight, cuda.CudaTensor)
    model.type("torch.DoubleTensor")
    assert isinstance(model.get(0).weight, np.ndarray)
    with pytest.raises(TypeError, match=r"^Sequential\.type: float32 or float64, or a Torch7 type name .*, "
                                        r"got 'torch\.HalfTensor'$"):
        model.type("torch.HalfTensor")


# ---------------------------------------------------------------- the gradient checker's reports
def test_reports_name_the_parameter_and_its_path():
    model = nn.Sequential().add(nn.Linear(3, 4)).add(nn.Tanh()).add(nn.Linear(4, 2))
    broken = model.get(2)
    broken.accGradParameters = lambda input, gradOutput, scale=1: None   # forgets its gradients
    report = jacobian.testJacobianParameters(model, uniform((2, 3)), broken.weight, broken.gradWeight)
    assert report.name == "Sequential (2) -> Linear.weight"
    assert re.search(r", Sequential \(2\) -> Linear\.weight\[\d, \d\] \(analytic 0, numeric ", repr(report))
    inner = nn.Sequential().add(nn.Concat(1).add(nn.Linear(3, 2)).add(Scale(3)))
    assert jacobian.parameter_name(inner, inner.get(0).get(1).bias) == "Sequential (0) -> Concat (1) -> Scale.bias"
    assert jacobian.parameter_name(inner, np.zeros(2)) == "parameter"
    # (where the largest error of a correct layer falls is rounding noise: it moves with the build's flags)
    assert re.search(r"at output \[\d, \d\], input\[\d, \d\] \(analytic -?\d",
                     repr(jacobian.testJacobian(nn.Tanh(), uniform((2, 3)))))


def test_integer_input_has_no_input_gradient():
    lookup = nn.LookupTable(5, 3)
    with raises_exactly(TypeError, "testJacobian: the input of LookupTable is int64 (indices), which has no gradient; "
                                   "check its parameters with testAllParameters"):
        jacobian.testJacobian(lookup, np.array([1, 4, 1]))
    report = jacobian.testAllParameters(lookup, np.array([1, 4, 1]))
    assert report < 1e-5 and report.name == "LookupTable.weight"


# ---------------------------------------------------------------- the guide's example
@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_guide_example_runs_as_written():
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## A module of your own"):]
    section = section[:section.index("\n## ", 3)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the guide's section has no python example"
    namespace = {}
    exec(compile("\n".join(blocks), "docs/guides/writing-a-module.md: A module of your own", "exec"), namespace)
    assert [p.shape for p in namespace["layer"].parameters()[0]] == [(3, 4), (1,)]
    assert namespace["model"].get(1)._t is None and namespace["model"].get(1).output is None   # clearState
