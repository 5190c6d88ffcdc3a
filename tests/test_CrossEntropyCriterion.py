"""nn_legacy.CrossEntropyCriterion: LogSoftMax then ClassNLLCriterion on raw scores,
loss = -x[t] + log sum_j exp(x[j]) per sample, weighted and averaged as ClassNLL."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, classes, raises_exactly, torch_or_skip,
                          uniform)

N_CLASSES = 4
WEIGHTS = np.array([0.5, 2.0, 1.0, 3.0])


def numpy_cross_entropy(x, t, weights=None, sizeAverage=True, ignore_index=-100):
    """(loss, gradient): per sample log-sum-exp minus the target score."""
    x2, t = np.atleast_2d(x), np.atleast_1d(t)
    m = x2.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(x2 - m).sum(axis=1))
    p = np.exp(x2 - lse[:, None])
    w = np.array([0.0 if c == ignore_index else (1.0 if weights is None else weights[c]) for c in t])
    per_sample = np.array([lse[i] - x2[i, c] if w[i] else 0.0 for i, c in enumerate(t)])
    total = w.sum()
    norm = total if sizeAverage and total != 0 else 1.0
    grad = w[:, None] * p
    for i, c in enumerate(t):
        if w[i]:
            grad[i, c] -= w[i]
    return (w * per_sample).sum() / norm, (grad / norm).reshape(x.shape)


VARIANTS = {
    "plain": dict(),
    "sum": dict(sizeAverage=False),
    "weights": dict(weights=WEIGHTS),
    "ignore": dict(ignore_index=3),
    "weights ignore sum": dict(weights=WEIGHTS, ignore_index=0, sizeAverage=False),
}


def scores_and_targets(batch=6, seed=1):
    x, t = uniform((batch, N_CLASSES), seed), classes(batch, N_CLASSES, seed + 1)
    t[:N_CLASSES] = np.arange(N_CLASSES)  # every class appears
    return x, t


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, t = scores_and_targets()
    loss, grad = numpy_cross_entropy(x, t, **options)
    check_criterion_values(nn.CrossEntropyCriterion(**options), x, t, loss, grad, 1e-13, (1e-12, 1e-16))


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, t = scores_and_targets()
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None

    def loss_fn(i, t):
        return torch.nn.functional.cross_entropy(i, t, weight=weight,
                                                 ignore_index=options.get("ignore_index", -100),
                                                 reduction="mean" if options.get("sizeAverage", True) else "sum")

    check_criterion_matches_torch(nn.CrossEntropyCriterion(**options), loss_fn, x, t, 1e-13, (1e-12, 1e-16))


def test_equals_log_softmax_then_class_nll():
    x, t = scores_and_targets()
    lsm, nll = nn.LogSoftMax(), nn.ClassNLLCriterion(WEIGHTS)
    expected_loss = nll.forward(lsm.forward(x), t)
    expected_grad = lsm.backward(x, nll.backward(lsm.output, t))
    c = nn.CrossEntropyCriterion(WEIGHTS)
    assert c.forward(x, t) == expected_loss
    np.testing.assert_array_equal(c.backward(x, t), expected_grad)


def test_single_sample():
    x = uniform((N_CLASSES,), 1)
    c = nn.CrossEntropyCriterion()
    loss, grad = numpy_cross_entropy(x, 2)
    np.testing.assert_allclose(c.forward(x, 2), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, 2), grad, rtol=1e-13)


def test_large_scores_do_not_overflow():
    c = nn.CrossEntropyCriterion()
    x = np.array([[1000.0, 0.0, -1000.0, 500.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert c.forward(x, np.array([0])) == 0.0
        np.testing.assert_allclose(c.forward(x, np.array([3])), 500.0, rtol=1e-15)
        assert np.all(np.isfinite(c.backward(x, np.array([3]))))


def test_all_targets_ignored_gives_zero_loss_and_gradient():
    c = nn.CrossEntropyCriterion(ignore_index=2)
    x, t = uniform((3, N_CLASSES), 1), np.array([2, 2, 2])
    assert c.forward(x, t) == 0.0
    np.testing.assert_array_equal(c.backward(x, t), np.zeros((3, N_CLASSES)))


def test_batch_equals_samples():
    x, t = scores_and_targets()
    summed = nn.CrossEntropyCriterion(sizeAverage=False)
    batch_loss = summed.forward(x, t)
    batch_grad = summed.backward(x, t).copy()
    per_sample, per_sample_grad = [], []
    for i in range(len(t)):  # backward uses its own forward's state
        per_sample.append(summed.forward(x[i], t[i]))
        per_sample_grad.append(summed.backward(x[i], t[i]).copy())
    np.testing.assert_allclose(batch_loss, sum(per_sample), rtol=1e-14)
    np.testing.assert_allclose(batch_grad, np.stack(per_sample_grad), rtol=1e-14)


def test_nan_score_gives_nan_loss():
    x, t = scores_and_targets()
    x[1, 2] = np.nan
    c = nn.CrossEntropyCriterion()
    assert np.isnan(c.forward(x, t))
    grad = c.backward(x, t)
    assert np.all(np.isnan(grad[1])) and np.all(np.isfinite(np.delete(grad, 1, axis=0)))


def test_empty_batch_gives_zero_loss():
    c = nn.CrossEntropyCriterion()
    x, t = np.zeros((0, N_CLASSES)), np.zeros(0, dtype=np.int64)
    assert c.forward(x, t) == 0.0
    assert c.backward(x, t).shape == (0, N_CLASSES)


def test_clearState_drops_buffers():
    x, t = scores_and_targets()
    c = nn.CrossEntropyCriterion()
    loss = c.forward(x, t)
    c.backward(x, t)
    c.clearState()
    assert c.gradInput is None and c.lsm.output is None and c.nll.gradInput is None
    assert c.forward(x, t) == loss


def test_repr():
    assert repr(nn.CrossEntropyCriterion()) == "nn.CrossEntropyCriterion"


# ---------------------------------------------------------------- bad input
def test_input_must_be_1d_or_2d():
    with raises_exactly(ValueError, "CrossEntropyCriterion: input must be 1D [nClasses] or 2D [batch, nClasses], "
                                    "got 3D of size [2, 4, 3]"):
        nn.CrossEntropyCriterion().forward(np.zeros((2, 4, 3)), np.array([0, 1]))


@pytest.mark.parametrize("bad, index", [(N_CLASSES, 1), (-1, 0)])
def test_target_out_of_range(bad, index):
    t = np.array([0, 1, 2])
    t[index] = bad
    with raises_exactly(thnn.THNNError, f"ClassNLLCriterion_updateOutput: target {bad} at index {index} "
                                        f"is out of range [0, {N_CLASSES})"):
        nn.CrossEntropyCriterion().forward(uniform((3, N_CLASSES)), t)


def test_wrong_target_length():
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: target must be 1D of size [3] "
                                        "(one class index per sample), got 1D of size [2]"):
        nn.CrossEntropyCriterion().forward(uniform((3, N_CLASSES)), np.array([0, 1]))


def test_wrong_weights_length():
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: weights must be 1D of size [4], "
                                        "got 1D of size [5]"):
        nn.CrossEntropyCriterion(np.ones(5)).forward(uniform((3, N_CLASSES)), np.array([0, 1, 2]))


def test_float_target():
    with raises_exactly(TypeError, "ClassNLLCriterion_updateOutput: target must be an integer array "
                                   "(class indices), got float64"):
        nn.CrossEntropyCriterion().forward(uniform((2, N_CLASSES)), np.array([0.0, 1.0]))
