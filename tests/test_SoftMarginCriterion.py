"""nn_legacy.SoftMarginCriterion and the SoftMarginCriterion_* kernels:
sum log(1 + exp(-t x)) for targets of 1 or -1, divided by the element count
with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, check_criterion_buffer_reuse, check_criterion_pickle,
                          check_float32_criterion, check_noncontiguous_criterion, raises_exactly,
                          torch_or_skip, uniform)

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
    c = nn.SoftMarginCriterion(sizeAverage)
    loss, grad = numpy_soft_margin(x, t, sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), signs(shape, 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.soft_margin_loss(tx, torch.from_numpy(t), reduction=reduction)
    tl.backward()
    c = nn.SoftMarginCriterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), tl.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


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


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient(shape, sizeAverage):
    assert_criterion_gradient(nn.SoftMarginCriterion(sizeAverage), uniform(shape, 3), signs(shape, 4))


def test_gradient_for_non_unit_targets():
    """The formula holds for any real target, as in Torch7."""
    assert_criterion_gradient(nn.SoftMarginCriterion(), uniform((3, 4), 3), uniform((3, 4), 4))


def test_float32_matches_float64():
    check_float32_criterion(nn.SoftMarginCriterion(), uniform((6, 5), 1), signs((6, 5), 2))
    check_float32_criterion(nn.SoftMarginCriterion(False), uniform((6, 5), 1), signs((6, 5), 2))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input_and_target(shape):
    check_noncontiguous_criterion(nn.SoftMarginCriterion(), uniform(shape, 1), signs(shape, 2))


def test_buffer_reuse_across_batch_sizes():
    check_criterion_buffer_reuse(nn.SoftMarginCriterion(), uniform((8, 5), 1), signs((8, 5), 2),
                                 uniform((4, 5), 3), signs((4, 5), 4))


def test_pickle_round_trip():
    check_criterion_pickle(nn.SoftMarginCriterion(False), uniform((4, 5), 1), signs((4, 5), 2))


def test_repr():
    assert repr(nn.SoftMarginCriterion()) == "nn.SoftMarginCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    c = nn.SoftMarginCriterion()
    msg = "target must be the same number of elements as input (2D of size [2, 3]), got 1D of size [5]"
    x, t = uniform((2, 3)), signs((5,), 1)
    with raises_exactly(thnn.THNNError, "SoftMarginCriterion_updateOutput: " + msg):   # the kernel only counts elements
        thnn.Double.SoftMarginCriterion_updateOutput(x, t, None, True)
    with raises_exactly(thnn.THNNError, "SoftMarginCriterion_updateGradInput: " + msg):
        thnn.Double.SoftMarginCriterion_updateGradInput(x, t, None, True)
    with pytest.raises(ValueError, match=r"^SoftMarginCriterion: target must have the shape of input \["):
        c.forward(x, t)
    with pytest.raises(ValueError, match=r"^SoftMarginCriterion: target must have the shape of input \["):
        c.backward(x, t)


def test_input_must_be_a_float_array():
    c = nn.SoftMarginCriterion()
    with raises_exactly(TypeError, "SoftMarginCriterion: input must be a numpy array, got list"):
        c.forward([1.0, 2.0], np.ones(2))
    with raises_exactly(TypeError, "SoftMarginCriterion: input must be float32 or float64, got int32"):
        c.forward(np.ones(2, dtype=np.int32), np.ones(2))


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "SoftMarginCriterion_updateOutput: target must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.SoftMarginCriterion_updateOutput(uniform((3,)), np.ones(3, dtype=np.float32), None, True)
