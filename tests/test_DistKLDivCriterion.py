"""nn_legacy.DistKLDivCriterion and the DistKLDivCriterion_* kernels: for
log-probabilities x and probabilities t, sum over t > 0 of t (log t - x),
divided by the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, check_criterion_buffer_reuse, check_criterion_pickle,
                          check_float32_criterion, check_noncontiguous_criterion, raises_exactly,
                          torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def log_probs(shape, seed):
    x = uniform(shape, seed)
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


def probs(shape, seed, zeros=True):
    """Rows of probabilities; with zeros, some entries are exactly 0."""
    p = np.exp(2 * uniform(shape, seed))
    if zeros:
        p[uniform(shape, seed + 100) > 1.0] = 0.0
    return p / p.sum(axis=-1, keepdims=True)


def numpy_kl(x, t, sizeAverage=True):
    n = x.size if sizeAverage else 1
    pos = t > 0
    loss = (t[pos] * (np.log(t[pos]) - x[pos])).sum() / n
    return loss, np.where(pos, -t, 0.0) / n


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    x, t = log_probs(shape, 1), probs(shape, 2)
    assert (t == 0).any() and (t > 0).any()
    c = nn.DistKLDivCriterion(sizeAverage)
    loss, grad = numpy_kl(x, t, sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


# torch warns that its 'mean' (over every element, Torch7's sizeAverage) will change some day
@pytest.mark.filterwarnings("ignore:reduction.*'mean' divides the total loss:UserWarning")
@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = log_probs(shape, 1), probs(shape, 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.kl_div(tx, torch.from_numpy(t), reduction=reduction)
    tl.backward()
    c = nn.DistKLDivCriterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), tl.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


def test_zero_when_the_distributions_agree():
    t = probs((3, 4), 2, zeros=False)
    c = nn.DistKLDivCriterion()
    assert abs(c.forward(np.log(t), t)) < 1e-16


def test_negative_targets_count_for_nothing_as_in_torch7():
    """Decided: Torch7 skipped every t <= 0; PyTorch gives NaN for t < 0."""
    c = nn.DistKLDivCriterion(sizeAverage=False)
    x, t = np.array([-1.0, -2.0, -0.5]), np.array([0.5, -0.25, 0.0])
    np.testing.assert_allclose(c.forward(x, t), 0.5 * (np.log(0.5) + 1.0), rtol=1e-15)
    np.testing.assert_array_equal(c.backward(x, t), [-0.5, 0.0, 0.0])


def test_default_is_size_average():
    assert nn.DistKLDivCriterion().sizeAverage


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient(shape, sizeAverage):
    assert_criterion_gradient(nn.DistKLDivCriterion(sizeAverage), log_probs(shape, 3), probs(shape, 4))


def test_float32_matches_float64():
    check_float32_criterion(nn.DistKLDivCriterion(), log_probs((6, 5), 1), probs((6, 5), 2))
    check_float32_criterion(nn.DistKLDivCriterion(False), log_probs((6, 5), 1), probs((6, 5), 2))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input_and_target(shape):
    check_noncontiguous_criterion(nn.DistKLDivCriterion(), log_probs(shape, 1), probs(shape, 2))


def test_buffer_reuse_across_batch_sizes():
    check_criterion_buffer_reuse(nn.DistKLDivCriterion(), log_probs((8, 5), 1), probs((8, 5), 2),
                                 log_probs((4, 5), 3), probs((4, 5), 4))


def test_pickle_round_trip():
    check_criterion_pickle(nn.DistKLDivCriterion(False), log_probs((4, 5), 1), probs((4, 5), 2))


def test_repr():
    assert repr(nn.DistKLDivCriterion()) == "nn.DistKLDivCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    c = nn.DistKLDivCriterion()
    msg = "target must be the same number of elements as input (2D of size [2, 3]), got 2D of size [3, 3]"
    x, t = log_probs((2, 3), 1), probs((3, 3), 1)
    with raises_exactly(thnn.THNNError, "DistKLDivCriterion_updateOutput: " + msg):   # the kernel only counts elements
        thnn.Double.DistKLDivCriterion_updateOutput(x, t, None, True)
    with raises_exactly(thnn.THNNError, "DistKLDivCriterion_updateGradInput: " + msg):
        thnn.Double.DistKLDivCriterion_updateGradInput(x, t, None, True)
    with pytest.raises(ValueError, match=r"^DistKLDivCriterion: target must have the shape of input \["):
        c.forward(x, t)
    with pytest.raises(ValueError, match=r"^DistKLDivCriterion: target must have the shape of input \["):
        c.backward(x, t)


def test_input_must_be_a_float_array():
    c = nn.DistKLDivCriterion()
    with raises_exactly(TypeError, "DistKLDivCriterion: input must be a numpy array, got list"):
        c.forward([-1.0, -2.0], np.ones(2))
    with raises_exactly(TypeError, "DistKLDivCriterion: input must be float32 or float64, got int64"):
        c.forward(np.ones(2, dtype=np.int64), np.ones(2))


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "DistKLDivCriterion_updateGradInput: target must be float64 like the "
                                   "other tensors, got float32"):
        thnn.Double.DistKLDivCriterion_updateGradInput(log_probs((3,), 1), probs((3,), 1).astype(np.float32),
                                                       None, True)
