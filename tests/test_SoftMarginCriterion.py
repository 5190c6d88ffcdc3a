"""nn_legacy.SoftMarginCriterion and the SoftMarginCriterion_* kernels:
sum log(1 + exp(-t x)) for targets of 1 or -1, divided by the element count
with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def signs(shape, seed):
    return np.where(uniform(shape, seed) > 0, 1.0, -1.0)


def numpy_soft_margin(x, t, sizeAverage=True):
    n = x.size if sizeAverage else 1
    return np.log1p(np.exp(-t * x)).sum() / n, -t / (1 + np.exp(t * x)) / n


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    x, t = uniform(shape, 1), signs(shape, 2)
    loss, grad = numpy_soft_margin(x, t, sizeAverage)
    check_criterion_values(nn.SoftMarginCriterion(sizeAverage), x, t, loss, grad)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), signs(shape, 2)
    check_criterion_matches_torch(nn.SoftMarginCriterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.soft_margin_loss(i, t, reduction=reduction), x, t)


def test_large_scores_stay_finite():
    """Decided: computed without overflow (Torch7's log(1 + exp(-t x)) gave inf
    for -t x > 709 in double and its gradient NaN)."""
    c = nn.SoftMarginCriterion(sizeAverage=False)
    x, t = np.array([1000.0, 1000.0, -800.0]), np.array([1.0, -1.0, 1.0])
    assert c.forward(x, t) == 1800.0
    np.testing.assert_array_equal(c.backward(x, t), [-0.0, 1.0, -1.0])
    c32 = nn.SoftMarginCriterion(sizeAverage=False)
    assert c32.forward(x.astype(np.float32), t.astype(np.float32)) == 1800.0
    np.testing.assert_array_equal(c32.backward(x.astype(np.float32), t), [-0.0, 1.0, -1.0])


def test_default_is_size_average():
    c = nn.SoftMarginCriterion()
    assert c.sizeAverage
    np.testing.assert_allclose(c.forward(np.zeros(3), np.ones(3)), np.log(2), rtol=1e-15)


def test_repr():
    assert repr(nn.SoftMarginCriterion()) == "nn.SoftMarginCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = uniform((2, 3)), signs((5,), 1)
    check_element_count_mismatch(nn.SoftMarginCriterion(), x, t, "(2D of size [2, 3]), got 1D of size [5]")


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "SoftMarginCriterion_updateOutput: target must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.SoftMarginCriterion_updateOutput(uniform((3,)), np.ones(3, dtype=np.float32), None, True)
