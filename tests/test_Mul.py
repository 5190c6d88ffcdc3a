"""nn_legacy.Mul: y = w x for one learned scalar w, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Mul()
    x, g = uniform(shape, 1), uniform(shape, 2)
    w = m.weight[0]
    np.testing.assert_array_equal(m.forward(x), w * x)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), w * g)
    np.testing.assert_allclose(m.gradWeight, [0.5 * np.sum(g * x)], rtol=1e-14)


def test_matches_torch():
    torch = torch_or_skip()
    m = nn.Mul()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: t * w, x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14)


def test_reset_draws_from_minus_one_to_one():
    ws = []
    for _ in range(50):
        ws.append(nn.Mul().weight[0])
    assert max(np.abs(ws)) <= 1 and np.std(ws) > 0.25
    assert abs(nn.Mul().reset(0.01).weight[0]) <= 0.01


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Mul(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Mul()) == "nn.Mul"
