"""nn_legacy.Concat: children on the same input, outputs joined along a dim."""
import numpy as np

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, raises_exactly, uniform)


def make(dim=1):
    return nn.Concat(dim).add(nn.Linear(5, 3)).add(nn.Tanh()).add(nn.Linear(5, 2))


def test_output_is_the_children_side_by_side():
    m = make()
    x = uniform((4, 5), 1)
    expected = np.concatenate([m.get(0).forward(x).copy(), np.tanh(x), m.get(2).forward(x).copy()], axis=1)
    np.testing.assert_allclose(m.forward(x), expected, rtol=1e-15, atol=0)  # C tanh vs numpy's: 1 ulp


def test_gradient_sums_the_children():
    m = make()
    x, g = uniform((4, 5), 1), uniform((4, 10), 2)
    m.forward(x)
    w0, w2 = m.get(0).weight, m.get(2).weight
    expected = g[:, :3] @ w0 + g[:, 3:8] * (1 - np.tanh(x) ** 2) + g[:, 8:] @ w2
    np.testing.assert_allclose(m.backward(x, g), expected, rtol=1e-13, atol=1e-15)


def test_dim0_on_single_samples():
    m = make(0)
    x = uniform((5,), 4)
    assert m.forward(x).shape == (10,)
    assert_input_jacobian(m, x)


def test_outputs_that_cannot_be_joined():
    m = nn.Concat(0).add(nn.Linear(5, 3)).add(nn.Linear(5, 2))
    with raises_exactly(ValueError, "Concat: output of module (1) has size [4, 2], which cannot be joined along "
                                    "dimension 0 with size [4, 3] of module (0)"):
        m.forward(uniform((4, 5), 1))
    with raises_exactly(ValueError, "Concat: dimension 1 is out of range for outputs of 1 dimensions"):
        nn.Concat(1).add(nn.Tanh()).forward(uniform((5,), 1))


def test_child_error_names_its_place():
    with raises_exactly(ValueError, "Concat (0) -> Linear_updateOutput: input must be 1D or 2D with 5 features, "
                                    "got 2D of size [4, 6]"):
        make().forward(uniform((4, 6), 1))


def test_bad_grad_output():
    m = make()
    x = uniform((4, 5), 1)
    m.forward(x)
    with raises_exactly(ValueError, "Concat: gradOutput must be shaped as output [4, 10], got [4, 9]"):
        m.backward(x, uniform((4, 9), 2))


def test_repr():
    # Torch7's layout (its last child drawn with `->), indices from 0
    assert repr(nn.Concat(1).add(nn.Tanh()).add(nn.ReLU())) == (
        "nn.Concat(1) {\n  input\n    |`-> (0): nn.Tanh\n     `-> (1): nn.ReLU\n     ... -> output\n}")


def test_repr_of_nested_children():
    inner = nn.Concat(0).add(nn.Tanh()).add(nn.ReLU())
    assert repr(nn.Concat(1).add(inner).add(nn.Concat(0).add(nn.Tanh()))) == (
        "nn.Concat(1) {\n"
        "  input\n"
        "    |`-> (0): nn.Concat(0) {\n"
        "    |      input\n"
        "    |        |`-> (0): nn.Tanh\n"
        "    |         `-> (1): nn.ReLU\n"
        "    |         ... -> output\n"
        "    |    }\n"
        "     `-> (1): nn.Concat(0) {\n"
        "           input\n"
        "              `-> (0): nn.Tanh\n"
        "              ... -> output\n"
        "         }\n"
        "     ... -> output\n"
        "}")


def test_backward_before_forward():
    with raises_exactly(RuntimeError, "Concat: backward needs the outputs of forward: call forward first"):
        make().backward(uniform((4, 5), 1), uniform((4, 10), 2))


def test_empty_container():
    with raises_exactly(ValueError, "Concat: the container is empty"):
        nn.Concat(0).forward(uniform((3,), 1))
