"""nn_legacy.DistKLDivCriterion and the DistKLDivCriterion_* kernels: for
log-probabilities x and probabilities t, sum over t > 0 of t (log t - x),
divided by the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

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
    loss, grad = numpy_kl(x, t, sizeAverage)
    check_criterion_values(nn.DistKLDivCriterion(sizeAverage), x, t, loss, grad)


# torch warns that its 'mean' (over every element, Torch7's sizeAverage) will change some day
@pytest.mark.filterwarnings("ignore:reduction.*'mean' divides the total loss:UserWarning")
@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = log_probs(shape, 1), probs(shape, 2)
    check_criterion_matches_torch(nn.DistKLDivCriterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.kl_div(i, t, reduction=reduction), x, t)


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


def test_repr():
    assert repr(nn.DistKLDivCriterion()) == "nn.DistKLDivCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = log_probs((2, 3), 1), probs((3, 3), 1)
    check_element_count_mismatch(nn.DistKLDivCriterion(), x, t, "(2D of size [2, 3]), got 2D of size [3, 3]")


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "DistKLDivCriterion_updateGradInput: target must be float64 like the "
                                   "other tensors, got float32"):
        thnn.Double.DistKLDivCriterion_updateGradInput(log_probs((3,), 1), probs((3,), 1).astype(np.float32),
                                                       None, True)
