"""nn_legacy.Bottle: leading dims folded into the batch of the wrapped module."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, raises_exactly,
                          uniform)


class SumLast(nn.Module):
    """Sums its last dim away (one dim fewer out than in)."""

    def updateOutput(self, input):
        self.output = input.sum(axis=-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = np.broadcast_to(gradOutput[..., None], input.shape).copy()
        return self.gradInput


def make():
    return nn.Bottle(nn.Sequential(nn.Linear(4, 3), nn.Tanh()))


def by_hand(m, x):
    lin = m.get(0).get(0)
    return np.tanh(x @ lin.weight.T + lin.bias)


@pytest.mark.parametrize("shape", [(5, 4), (2, 5, 4), (2, 3, 2, 4)], ids=["2D", "3D", "4D"])
def test_forward_and_backward_on_more_dims(shape):
    m, x = make(), uniform(shape, 1)
    out = m.forward(x)
    assert out.shape == shape[:-1] + (3,)
    np.testing.assert_allclose(out, by_hand(m, x), rtol=1e-14)
    g = uniform(out.shape, 2)
    lin = m.get(0).get(0)
    np.testing.assert_allclose(m.backward(x, g), (g * (1 - out ** 2)) @ lin.weight, rtol=1e-12, atol=1e-15)


def test_fewer_dims_go_through_unchanged():
    m, x = make(), uniform((4,), 1)
    assert m.forward(x) is m.get(0).output
    assert m.backward(x, uniform((3,), 2)) is m.get(0).gradInput


def test_another_number_of_output_dims():
    m = nn.Bottle(SumLast(), 2, 1)
    x = uniform((2, 3, 4), 1)
    np.testing.assert_allclose(m.forward(x), x.sum(axis=-1), rtol=1e-15)
    g = uniform((2, 3), 2)
    np.testing.assert_array_equal(m.backward(x, g), np.broadcast_to(g[..., None], x.shape))
    assert_input_jacobian(m, x)


def test_folds_into_a_three_dimensional_module():
    m = nn.Bottle(nn.Bottle(nn.Linear(4, 2)), 3)   # the inner Bottle takes 3D input
    x = uniform((2, 3, 5, 4), 1)
    lin = m.get(0).get(0)
    np.testing.assert_allclose(m.forward(x), x @ lin.weight.T + lin.bias, rtol=1e-14)


def test_bad_arguments():
    with raises_exactly(ValueError, "Bottle: nInputDim must be a positive integer, got 0"):
        nn.Bottle(nn.Tanh(), 0)
    with raises_exactly(TypeError, "Bottle: nOutputDim must be an integer, got 1.5"):
        nn.Bottle(nn.Tanh(), 2, 1.5)
    with raises_exactly(ValueError, "Bottle.add: it wraps a single module, and it has one"):
        make().add(nn.Tanh())
    with raises_exactly(TypeError, "Bottle: input must be a numpy array or a CudaTensor, got list"):
        make().forward([[1.0] * 4])


def test_module_output_that_does_not_fit():
    with raises_exactly(ValueError, "Bottle: the module's output must have nOutputDim = 2 dimensions, "
                                    "got 1D of size [6]"):
        nn.Bottle(SumLast()).forward(uniform((2, 3, 4), 1))
    with raises_exactly(ValueError, "Bottle: cannot fold the leading dims of an input of 3D of size [0, 3, 4]: "
                                    "they hold no entries"):
        make().forward(np.zeros((0, 3, 4)))


def test_errors_name_their_place():
    m, x = make(), uniform((2, 3, 4), 1)
    with raises_exactly(ValueError, "Bottle (0) -> Sequential (0) -> Linear_updateOutput: input must be 1D or "
                                    "2D with 4 features, got 2D of size [6, 5]"):
        m.forward(uniform((2, 3, 5), 1))
    m.forward(x)
    with raises_exactly(ValueError, "Bottle: gradOutput must be shaped as output [2, 3, 3], got 2D of size [6, 3]"):
        m.backward(x, uniform((6, 3), 2))
    with raises_exactly(RuntimeError, "Bottle: backward needs the outputs of forward: call forward first"):
        make().backward(x, uniform((2, 3, 3), 2))


def test_repr():
    assert repr(nn.Bottle(nn.Linear(4, 3), 2)) == "nn.Bottle(2 -> 2) @ nn.Linear(4 -> 3)"
