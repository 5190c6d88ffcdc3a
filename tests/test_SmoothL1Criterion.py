"""nn_legacy.SmoothL1Criterion and the SmoothL1Criterion_* kernels: with d = x - t,
sum of 0.5 d^2 where |d| < 1 and |d| - 0.5 elsewhere, divided by the element
count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def numpy_smooth_l1(x, t, sizeAverage=True):
    d = x - t
    n = x.size if sizeAverage else 1
    loss = np.where(np.abs(d) < 1, 0.5 * d * d, np.abs(d) - 0.5).sum() / n
    return loss, np.clip(d, -1, 1) / n


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    x, t = uniform(shape, 1), uniform(shape, 6)  # |x - t| both below and above 1
    d = np.abs(x - t)
    assert (d < 1).any() and (d > 1).any()  # both pieces are met
    loss, grad = numpy_smooth_l1(x, t, sizeAverage)
    check_criterion_values(nn.SmoothL1Criterion(sizeAverage), x, t, loss, grad)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), uniform(shape, 6)  # |x - t| both below and above 1
    check_criterion_matches_torch(nn.SmoothL1Criterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.smooth_l1_loss(i, t, reduction=reduction), x, t)


def test_values_at_the_joins():
    c = nn.SmoothL1Criterion(sizeAverage=False)
    x, t = np.array([0.0, 1.0, -1.0, 3.0]), np.zeros(4)
    assert c.forward(x, t) == 0.0 + 0.5 + 0.5 + 2.5
    np.testing.assert_array_equal(c.backward(x, t), [0.0, 1.0, -1.0, 1.0])


def test_default_is_size_average():
    assert nn.SmoothL1Criterion().sizeAverage


def test_repr():
    assert repr(nn.SmoothL1Criterion()) == "nn.SmoothL1Criterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = uniform((5,)), uniform((2, 3))
    check_element_count_mismatch(nn.SmoothL1Criterion(), x, t, "(1D of size [5]), got 2D of size [2, 3]")


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "SmoothL1Criterion_updateGradInput: target must be float32 like the other "
                                   "tensors, got float64"):
        thnn.Float.SmoothL1Criterion_updateGradInput(uniform((3,)).astype(np.float32), uniform((3,)), None, True)
