"""nn_legacy.Decorator: one module wrapped, every call passed through."""
import numpy as np

import nn_legacy as nn
from layer_checks import (raises_exactly,
                          uniform)


def make():
    return nn.Decorator(nn.Sequential(nn.Linear(4, 3), nn.Tanh()))


def test_gives_what_the_module_gives():
    m, x, g = make(), uniform((5, 4), 1), uniform((5, 3), 2)
    inner = m.get(0).clone()
    np.testing.assert_array_equal(m.forward(x), inner.forward(x))
    assert m.output is m.get(0).output
    m.zeroGradParameters()
    inner.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), inner.backward(x, g, 0.5))
    assert m.gradInput is m.get(0).gradInput
    for a, b in zip(m.parameters()[1], inner.parameters()[1]):
        np.testing.assert_array_equal(a, b)


def test_errors():
    with raises_exactly(ValueError, "Decorator.add: it decorates a single module, and it has one"):
        make().add(nn.Tanh())
    with raises_exactly(ValueError, "Decorator (0) -> Sequential (0) -> Linear_updateOutput: input must be 1D or "
                                    "2D with 4 features, got 2D of size [2, 5]"):
        make().forward(uniform((2, 5)))
    with raises_exactly(TypeError, "Decorator.add: expected a Module, got int"):
        nn.Decorator(3)


def test_repr():
    assert repr(nn.Decorator(nn.Linear(4, 3))) == "nn.Decorator @ nn.Linear(4 -> 3)"
