"""nn_legacy.SmoothL1Criterion and the SmoothL1Criterion_* kernels: with d = x - t,
sum of 0.5 d^2 where |d| < 1 and |d| - 0.5 elsewhere, divided by the element
count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, check_criterion_buffer_reuse, check_criterion_pickle,
                          check_float32_criterion, check_noncontiguous_criterion, raises_exactly,
                          torch_or_skip, uniform)

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
    c = nn.SmoothL1Criterion(sizeAverage)
    loss, grad = numpy_smooth_l1(x, t, sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), uniform(shape, 6)  # |x - t| both below and above 1
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.smooth_l1_loss(tx, torch.from_numpy(t), reduction=reduction)
    tl.backward()
    c = nn.SmoothL1Criterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), tl.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


def test_values_at_the_joins():
    c = nn.SmoothL1Criterion(sizeAverage=False)
    x, t = np.array([0.0, 1.0, -1.0, 3.0]), np.zeros(4)
    assert c.forward(x, t) == 0.0 + 0.5 + 0.5 + 2.5
    np.testing.assert_array_equal(c.backward(x, t), [0.0, 1.0, -1.0, 1.0])


def test_default_is_size_average():
    assert nn.SmoothL1Criterion().sizeAverage


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient(shape, sizeAverage):
    assert_criterion_gradient(nn.SmoothL1Criterion(sizeAverage), uniform(shape, 3), uniform(shape, 4))


def test_float32_matches_float64():
    check_float32_criterion(nn.SmoothL1Criterion(), uniform((6, 5), 1), uniform((6, 5), 2))
    check_float32_criterion(nn.SmoothL1Criterion(False), uniform((6, 5), 1), uniform((6, 5), 2))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input_and_target(shape):
    check_noncontiguous_criterion(nn.SmoothL1Criterion(), uniform(shape, 1), uniform(shape, 2))


def test_buffer_reuse_across_batch_sizes():
    check_criterion_buffer_reuse(nn.SmoothL1Criterion(), uniform((8, 5), 1), uniform((8, 5), 2),
                                 uniform((4, 5), 3), uniform((4, 5), 4))


def test_pickle_round_trip():
    check_criterion_pickle(nn.SmoothL1Criterion(False), uniform((4, 5), 1), uniform((4, 5), 2))


def test_empty_input_gives_zero_loss():
    c = nn.SmoothL1Criterion()
    assert c.forward(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
    assert c.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)


def test_repr():
    assert repr(nn.SmoothL1Criterion()) == "nn.SmoothL1Criterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    c = nn.SmoothL1Criterion()
    msg = "target must be the same number of elements as input (1D of size [5]), got 2D of size [2, 3]"
    x, t = uniform((5,)), uniform((2, 3))
    with raises_exactly(thnn.THNNError, "SmoothL1Criterion_updateOutput: " + msg):   # the kernel only counts elements
        thnn.Double.SmoothL1Criterion_updateOutput(x, t, None, True)
    with raises_exactly(thnn.THNNError, "SmoothL1Criterion_updateGradInput: " + msg):
        thnn.Double.SmoothL1Criterion_updateGradInput(x, t, None, True)
    with pytest.raises(ValueError, match=r"^SmoothL1Criterion: target must have the shape of input \["):
        c.forward(x, t)
    with pytest.raises(ValueError, match=r"^SmoothL1Criterion: target must have the shape of input \["):
        c.backward(x, t)


def test_input_must_be_a_float_array():
    c = nn.SmoothL1Criterion()
    with raises_exactly(TypeError, "SmoothL1Criterion: input must be a numpy array, got list"):
        c.forward([1.0, 2.0], np.zeros(2))
    with raises_exactly(TypeError, "SmoothL1Criterion: input must be float32 or float64, got float16"):
        c.forward(np.ones(2, dtype=np.float16), np.zeros(2))


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "SmoothL1Criterion_updateGradInput: target must be float32 like the other "
                                   "tensors, got float64"):
        thnn.Float.SmoothL1Criterion_updateGradInput(uniform((3,)).astype(np.float32), uniform((3,)), None, True)
