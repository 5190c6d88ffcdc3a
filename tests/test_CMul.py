"""nn_legacy.CMul: y = x * w for a learned w of any shape (Torch7's expansion rules), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

# (weight size, input shape, the weight as it broadcasts against the input)
LAYOUTS = [
    ((3, 4), (3, 4), lambda w: w),
    ((12,), (3, 4), lambda w: w.reshape(3, 4)),
    ((1, 4), (3, 4), lambda w: w),
    ((3, 1, 2), (3, 5, 2), lambda w: w),
    ((3, 4), (5, 3, 4), lambda w: w[None]),
    ((12,), (5, 3, 4), lambda w: w.reshape(1, 3, 4)),
]
IDS = ["same", "numel", "expand", "expand-middle", "batch", "batch-flat"]


@pytest.mark.parametrize("size, shape, view", LAYOUTS, ids=IDS)
def test_matches_numpy(size, shape, view):
    m = nn.CMul(*size)
    x, g = uniform(shape, 1), uniform(shape, 2)
    w = view(m.weight)
    np.testing.assert_array_equal(m.forward(x), x * w)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), g * w)
    axes = tuple(i for i in range(len(shape)) if w.shape[i] == 1 and shape[i] != 1)
    np.testing.assert_allclose(m.gradWeight, 0.5 * (g * x).sum(axis=axes).reshape(size), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("size, shape, view", LAYOUTS, ids=IDS)
def test_matches_torch(size, shape, view):
    torch = torch_or_skip()
    m = nn.CMul(*size)
    x, g = uniform(shape, 1), uniform(shape, 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: t * view(w), x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-15)


def test_reset_draws_from_the_torch7_range():
    m = nn.CMul(4, 4)
    assert np.all(np.abs(m.weight) <= 1 / 4) and m.weight.std() > 1 / 16
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01)


def test_bad_arrays():
    check_bad_arrays_numpy(nn.CMul(4), uniform((3, 4), 1), uniform((3, 4), 2))


def test_input_the_weight_does_not_fit():
    with raises_exactly(ValueError, "CMul: input must have 6 elements, or 6 per sample of a batch, or a shape "
                                    "that weight [2, 3] expands to; got 2D of size [2, 4]"):
        nn.CMul(2, 3).forward(uniform((2, 4)))


def test_a_batch_whose_samples_hold_as_many_elements_in_another_shape():
    """As Torch7, which viewed the input as [batch, -1] and the weight as [1, -1]."""
    m = nn.CMul(2, 3)
    x = uniform((4, 3, 2), 1)
    np.testing.assert_array_equal(m.forward(x), x * m.weight.reshape(1, 3, 2))


def test_repr():
    assert repr(nn.CMul(3, 4)) == "nn.CMul(3, 4)"
