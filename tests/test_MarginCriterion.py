"""nn_legacy.MarginCriterion and the MarginCriterion_* kernels: sum max(0, margin - t x)
for targets of 1 or -1, divided by the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_criterion_gradient, check_element_count_mismatch, torch_forward_backward,
                          torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]
MARGINS = [1.0, 0.5, 2.5]


def signs(shape, seed):
    return np.where(uniform(shape, seed) > 0, 1.0, -1.0)


def numpy_margin(x, t, margin=1.0, sizeAverage=True):
    n = x.size if sizeAverage else 1
    z = margin - t * x
    return np.maximum(z, 0).sum() / n, np.where(z > 0, -t, 0.0) / n


@pytest.mark.parametrize("margin", MARGINS)
@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage, margin):
    x, t = uniform(shape, 1), signs(shape, 2)
    c = nn.MarginCriterion(margin, sizeAverage)
    loss, grad = numpy_margin(x, t, margin, sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_array_equal(c.backward(x, t), grad)


@pytest.mark.parametrize("margin", MARGINS)
def test_matches_the_formula_in_torch(margin):
    """No torch.nn.functional twin: the hinge written in torch, differentiated by autograd."""
    torch = torch_or_skip()
    x, t = uniform((4, 5), 1), signs((4, 5), 2)
    tt = torch.from_numpy(t)
    loss, grad = torch_forward_backward(lambda tx: (margin - tx * tt).clamp(min=0).mean(), x, 1.0)
    c = nn.MarginCriterion(margin)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


def test_defaults():
    c = nn.MarginCriterion()
    assert c.margin == 1.0 and c.sizeAverage
    assert c.forward(np.array([0.5, 2.0, -1.0]), np.array([1.0, 1.0, -1.0])) == 0.5 / 3


@pytest.mark.parametrize("margin", MARGINS)
@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
def test_gradient(sizeAverage, margin):
    assert_criterion_gradient(nn.MarginCriterion(margin, sizeAverage), uniform((3, 4), 3), signs((3, 4), 4))


def test_repr():
    assert repr(nn.MarginCriterion()) == "nn.MarginCriterion(1)"
    assert repr(nn.MarginCriterion(0.5)) == "nn.MarginCriterion(0.5)"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = uniform((2, 3)), signs((7,), 1)
    check_element_count_mismatch(nn.MarginCriterion(), x, t, "(2D of size [2, 3]), got 1D of size [7]", 1.0)


