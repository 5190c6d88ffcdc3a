"""nn_legacy.CAdd: y = x + b for a learned b of any shape (Torch7's expansion rules), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

# (bias size, input shape, the bias as it broadcasts against the input)
LAYOUTS = [
    ((3, 4), (3, 4), lambda b: b),                      # same shape
    ((12,), (3, 4), lambda b: b.reshape(3, 4)),         # same number of elements
    ((1, 4), (3, 4), lambda b: b),                      # expanded along a size-1 dim
    ((3, 1, 2), (3, 5, 2), lambda b: b),
    ((3, 4), (5, 3, 4), lambda b: b[None]),             # a batch of samples shaped as b
    ((12,), (5, 3, 4), lambda b: b.reshape(1, 3, 4)),   # a batch of samples with as many elements
]
IDS = ["same", "numel", "expand", "expand-middle", "batch", "batch-flat"]


@pytest.mark.parametrize("size, shape, view", LAYOUTS, ids=IDS)
def test_matches_numpy(size, shape, view):
    m = nn.CAdd(*size)
    x, g = uniform(shape, 1), uniform(shape, 2)
    b = view(m.bias)
    np.testing.assert_array_equal(m.forward(x), x + b)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), g)
    axes = tuple(i for i in range(len(shape)) if b.shape[i] == 1 and shape[i] != 1)
    np.testing.assert_allclose(m.gradBias, 0.5 * g.sum(axis=axes).reshape(size), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("size, shape, view", LAYOUTS, ids=IDS)
def test_matches_torch(size, shape, view):
    torch = torch_or_skip()
    m = nn.CAdd(*size)
    x, g = uniform(shape, 1), uniform(shape, 2)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: t + view(b), x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-14, atol=1e-15)


def test_size_as_one_tuple():
    assert nn.CAdd((3, 4)).bias.shape == nn.CAdd(3, 4).bias.shape == (3, 4)


def test_reset_draws_from_the_torch7_range():
    m = nn.CAdd(5, 5)
    assert np.all(np.abs(m.bias) <= 1 / 5) and m.bias.std() > 1 / 20
    m.reset(0.01)
    assert np.all(np.abs(m.bias) <= 0.01)


def test_bad_arrays():
    check_bad_arrays_numpy(nn.CAdd(4), uniform((3, 4), 1), uniform((3, 4), 2))


def test_input_the_bias_does_not_fit():
    with raises_exactly(ValueError, "CAdd: input must have 4 elements, or 4 per sample of a batch, or a shape "
                                    "that bias [1, 4] expands to; got 2D of size [3, 5]"):
        nn.CAdd(1, 4).forward(uniform((3, 5)))
    with raises_exactly(ValueError, "CAdd: size must be one or more positive integers, got (3, 0)"):
        nn.CAdd(3, 0)


def test_repr():
    assert repr(nn.CAdd(3, 4)) == "nn.CAdd(3, 4)"
