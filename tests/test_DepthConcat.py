"""nn_legacy.DepthConcat: outputs joined along a dim, smaller ones zero-padded, centred."""
import numpy as np

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, raises_exactly,
                          uniform)


def make():
    # outputs [b, 9], [b, 4], [b, 5] joined along dim 0: [3b, 9]
    return nn.DepthConcat(0).add(nn.Linear(5, 9)).add(nn.Linear(5, 4)).add(nn.Sequential(nn.Linear(5, 5),
                                                                                          nn.Tanh()))


def test_smaller_outputs_sit_in_the_middle_of_zeros():
    m, x = make(), uniform((2, 5), 1)
    out = m.forward(x)
    assert out.shape == (6, 9)
    a, b, c = (m.get(0).output, m.get(1).output, m.get(2).output)
    expected = np.zeros((6, 9))
    expected[0:2, :] = a
    expected[2:4, 2:6] = b   # 4 in 9: 2 zeros before, 3 after (Torch7's floor((9 - 4) / 2))
    expected[4:6, 2:7] = c   # 5 in 9: 2 zeros on each side
    np.testing.assert_array_equal(out, expected)


def test_equal_sizes_are_a_plain_concat():
    x = uniform((3, 5), 2)
    d = nn.DepthConcat(1).add(nn.Linear(5, 3)).add(nn.Tanh())
    c = nn.Concat(1)
    c.modules = d.modules
    np.testing.assert_array_equal(d.forward(x), c.forward(x))
    g = uniform((3, 8), 3)
    np.testing.assert_array_equal(d.backward(x, g), c.backward(x, g).copy())


def test_each_child_gets_its_window_of_gradOutput():
    m, x = make(), uniform((2, 5), 1)
    m.forward(x)
    g = uniform((6, 9), 2)
    s = np.tanh(x @ m.get(2).get(0).weight.T + m.get(2).get(0).bias)
    expected = (g[0:2] @ m.get(0).weight + g[2:4, 2:6] @ m.get(1).weight
                + (g[4:6, 2:7] * (1 - s ** 2)) @ m.get(2).get(0).weight)
    np.testing.assert_allclose(m.backward(x, g), expected, rtol=1e-12, atol=1e-15)


def test_padding_in_several_dims():
    """Children with outputs [2, 3, 1] and [1, 1, 4] joined along dim 2."""
    class Fixed(nn.Module):   # y = x[:p, :q] * w, a crop with a weight, so sizes differ in two dims
        _parameter_names = (("weight", "gradWeight"),)

        def __init__(self, p, q, r):
            super().__init__()
            self.p, self.q = p, q
            self.weight = uniform((p, q, r), p + q + r)
            self.gradWeight = np.zeros_like(self.weight)

        def updateOutput(self, input):
            self.output = input[:self.p, :self.q, None] * self.weight
            return self.output

        def updateGradInput(self, input, gradOutput):
            self.gradInput = np.zeros_like(input)
            self.gradInput[:self.p, :self.q] = (gradOutput * self.weight).sum(axis=2)
            return self.gradInput

        def accGradParameters(self, input, gradOutput, scale=1):
            self.gradWeight += scale * input[:self.p, :self.q, None] * gradOutput

    m = nn.DepthConcat(2).add(Fixed(2, 3, 1)).add(Fixed(1, 1, 4))
    x = uniform((2, 3), 4)
    out = m.forward(x)
    assert out.shape == (2, 3, 5)
    expected = np.zeros((2, 3, 5))
    expected[:, :, 0:1] = m.get(0).output
    expected[0:1, 1:2, 1:5] = m.get(1).output   # 1 in 2: from 0; 1 in 3: from 1
    np.testing.assert_array_equal(out, expected)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_outputs_that_cannot_be_joined():
    class FirstRow(nn.Module):
        def updateOutput(self, input):
            self.output = input[0].copy()
            return self.output

    m = nn.DepthConcat(0).add(nn.Linear(5, 3)).add(FirstRow())
    with raises_exactly(ValueError, "DepthConcat: output of module (1) has size [5], which cannot be joined with "
                                    "size [2, 3] of module (0): not the same number of dimensions"):
        m.forward(uniform((2, 5), 1))
    with raises_exactly(ValueError, "DepthConcat: dimension 2 is out of range for outputs of 2 dimensions"):
        nn.DepthConcat(2).add(nn.Tanh()).forward(uniform((2, 5), 1))
    with raises_exactly(ValueError, "DepthConcat: the container is empty"):
        nn.DepthConcat(0).forward(uniform((2, 5), 1))


def test_errors_name_their_place():
    m = nn.DepthConcat(0).add(nn.Tanh()).add(nn.Sequential(nn.Tanh(), nn.Linear(5, 2)))
    with raises_exactly(ValueError, "DepthConcat (1) -> Sequential (1) -> Linear_updateOutput: input must be 1D "
                                    "or 2D with 5 features, got 2D of size [2, 4]"):
        m.forward(uniform((2, 4), 1))
    m, x = make(), uniform((2, 5), 1)
    m.forward(x)
    with raises_exactly(ValueError, "DepthConcat: gradOutput must be shaped as output [6, 9], got [6, 8]"):
        m.backward(x, uniform((6, 8), 2))


def test_repr():
    assert repr(nn.DepthConcat(1).add(nn.Tanh())) == (
        "nn.DepthConcat(1) {\n  input\n     `-> (0): nn.Tanh\n     ... -> output\n}")
