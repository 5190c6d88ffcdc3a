"""nn_legacy.Parallel: slice i of the input to child i, outputs joined."""
import numpy as np

import nn_legacy as nn
from layer_checks import (raises_exactly,
                          uniform)


def make():
    # input [batch, 2, 5]: slice 0 -> Linear(5, 3), slice 1 -> Linear(5, 4); outputs joined on dim 1
    return nn.Parallel(1, 1).add(nn.Linear(5, 3)).add(nn.Linear(5, 4))


def test_output_is_each_slice_through_its_child():
    m = make()
    x = uniform((6, 2, 5), 1)
    a, b = m.get(0), m.get(1)
    expected = np.concatenate([x[:, 0] @ a.weight.T + a.bias, x[:, 1] @ b.weight.T + b.bias], axis=1)
    np.testing.assert_allclose(m.forward(x), expected, rtol=1e-14)


def test_gradient_fills_each_slice():
    m = make()
    x, g = uniform((6, 2, 5), 1), uniform((6, 7), 2)
    m.forward(x)
    gin = m.backward(x, g)
    np.testing.assert_allclose(gin[:, 0], g[:, :3] @ m.get(0).weight, rtol=1e-13)
    np.testing.assert_allclose(gin[:, 1], g[:, 3:] @ m.get(1).weight, rtol=1e-13)


def test_input_must_have_one_slice_per_child():
    with raises_exactly(ValueError, "Parallel: input must have size 2 (one slice per module) along dimension 1, "
                                    "got 3D of size [4, 3, 5]"):
        make().forward(uniform((4, 3, 5), 1))


def test_child_error_names_its_place():
    with raises_exactly(ValueError, "Parallel (1) -> Linear_updateOutput: input must be 1D or 2D with 5 features, "
                                    "got 2D of size [4, 6]"):
        nn.Parallel(1, 1).add(nn.Linear(6, 3)).add(nn.Linear(5, 3)).forward(uniform((4, 2, 6), 1))
