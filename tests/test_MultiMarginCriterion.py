"""nn_legacy.MultiMarginCriterion and the MultiMarginCriterion_* kernels: per sample
with target y, sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / dim (p = 1 or 2),
summed over the batch and divided by batch with sizeAverage; 0-based targets."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, classes, raises_exactly, torch_or_skip,
                          uniform)

DIM = 5
WEIGHTS = np.array([0.5, 2.0, 1.0, 3.0, 0.25])


def numpy_multi_margin(x, t, p=1, weights=None, margin=1.0, sizeAverage=True):
    """(loss, gradient) by the docstring's formula."""
    x2, t = np.atleast_2d(x), np.atleast_1d(t)
    batch, dim = x2.shape
    loss, grad = 0.0, np.zeros_like(x2)
    for b, y in enumerate(t):
        w = 1.0 if weights is None else weights[y]
        for i in range(dim):
            z = margin - x2[b, y] + x2[b, i]
            if i != y and z > 0:
                loss += w * z ** p
                h = w * (1 if p == 1 else 2 * z)
                grad[b, i] += h
                grad[b, y] -= h
    norm = dim * (batch if sizeAverage and batch else 1)
    return loss / norm, (grad / norm).reshape(x.shape)


VARIANTS = {
    "p1": dict(),
    "p2": dict(p=2),
    "sum": dict(sizeAverage=False),
    "weights": dict(weights=WEIGHTS),
    "margin 0.3": dict(margin=0.3),
    "p2 weights margin 2 sum": dict(p=2, weights=WEIGHTS, margin=2.0, sizeAverage=False),
}


def scores_and_targets(batch=6, seed=1):
    x, t = uniform((batch, DIM), seed, -1.0, 1.0), classes(batch, DIM, seed + 1)
    t[:DIM] = np.arange(min(batch, DIM))  # every class (so every weight) is met when batch >= DIM
    return x, t


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, t = scores_and_targets()
    loss, grad = numpy_multi_margin(x, t, **options)
    check_criterion_values(nn.MultiMarginCriterion(**options), x, t, loss, grad, 1e-14, (1e-14, 1e-16))


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, t = scores_and_targets()
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None

    def loss_fn(i, t):
        return torch.nn.functional.multi_margin_loss(
            i, t, p=options.get("p", 1), margin=options.get("margin", 1.0), weight=weight,
            reduction="mean" if options.get("sizeAverage", True) else "sum")

    check_criterion_matches_torch(nn.MultiMarginCriterion(**options), loss_fn, x, t, 1e-14, (1e-14, 1e-16))


def test_single_sample_with_an_int_target():
    x = uniform((DIM,), 1, -1.0, 1.0)
    c = nn.MultiMarginCriterion(2, WEIGHTS)
    loss, grad = numpy_multi_margin(x, 3, p=2, weights=WEIGHTS)
    np.testing.assert_allclose(c.forward(x, 3), loss, rtol=1e-14)
    assert c.forward(x, np.int16(3)) == c.forward(x, np.array([3])) == c.forward(x, [3])
    np.testing.assert_allclose(c.backward(x, 3), grad, rtol=1e-14)


def test_worked_example():
    """x = [0.1, 0.2, 0.4, 0.8], y = 3: hinges 0.3, 0.4, 0.6 over dim 4."""
    x = np.array([0.1, 0.2, 0.4, 0.8])
    np.testing.assert_allclose(nn.MultiMarginCriterion().forward(x, 3), (0.3 + 0.4 + 0.6) / 4, rtol=1e-15)
    np.testing.assert_allclose(nn.MultiMarginCriterion(2).forward(x, 3), (0.09 + 0.16 + 0.36) / 4, rtol=1e-15)


def test_defaults():
    c = nn.MultiMarginCriterion()
    assert (c.p, c.weights, c.margin, c.sizeAverage) == (1, None, 1.0, True)


def test_float32_call_leaves_float64_weights_exact():
    weights = np.array([0.1, 0.3, 0.7, 0.9, 1.1])  # not representable in float32
    x, t = scores_and_targets()
    c = nn.MultiMarginCriterion(weights=weights)
    before = c.forward(x, t)
    c.forward(x.astype(np.float32), t)
    c.backward(x.astype(np.float32), t)
    assert c.forward(x, t) == before
    np.testing.assert_array_equal(c.weights, weights)


def test_noncontiguous_weights():
    x, t = scores_and_targets()
    expected = nn.MultiMarginCriterion(weights=WEIGHTS).forward(x, t)
    c = nn.MultiMarginCriterion(weights=WEIGHTS)
    c.weights = np.repeat(WEIGHTS, 2)[::2]
    assert not c.weights.flags.c_contiguous
    assert c.forward(x, t) == expected


def test_empty_batch_gives_zero_loss():
    c = nn.MultiMarginCriterion()
    assert c.forward(np.zeros((0, DIM)), np.zeros(0, dtype=np.int64)) == 0.0
    assert c.backward(np.zeros((0, DIM)), np.zeros(0, dtype=np.int64)).shape == (0, DIM)


def test_repr():
    assert repr(nn.MultiMarginCriterion()) == "nn.MultiMarginCriterion(p=1, margin=1)"
    assert repr(nn.MultiMarginCriterion(2, margin=0.5)) == "nn.MultiMarginCriterion(p=2, margin=0.5)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("p", [0, 3, 1.5, "2"])
def test_bad_p_in_the_constructor(p):
    with raises_exactly(ValueError, f"MultiMarginCriterion: p must be 1 or 2, got {p!r}"):
        nn.MultiMarginCriterion(p)


def test_bad_p_in_the_kernel():
    c = nn.MultiMarginCriterion()
    c.p = 3
    x, t = scores_and_targets()
    with raises_exactly(thnn.THNNError, "MultiMarginCriterion_updateOutput: p must be 1 or 2, got 3"):
        c.forward(x, t)
    with raises_exactly(thnn.THNNError, "MultiMarginCriterion_updateGradInput: p must be 1 or 2, got 3"):
        c.backward(x, t)


@pytest.mark.parametrize("bad, index", [(DIM, 2), (-1, 0), (-100, 5)])
def test_target_out_of_range(bad, index):
    x, t = scores_and_targets()
    t[index] = bad
    c = nn.MultiMarginCriterion()
    msg = f"target {bad} at index {index} is out of range [0, {DIM})"
    with raises_exactly(thnn.THNNError, "MultiMarginCriterion_updateOutput: " + msg):
        c.forward(x, t)
    with raises_exactly(thnn.THNNError, "MultiMarginCriterion_updateGradInput: " + msg):
        c.backward(x, t)


@pytest.mark.parametrize("t, described", [
    (np.array([0, 1, 2]), "1D of size [3]"),
    (np.zeros((6, 1), dtype=np.int64), "2D of size [6, 1]"),
])
def test_wrong_target_length(t, described):
    x, _ = scores_and_targets()
    with raises_exactly(thnn.THNNError, f"MultiMarginCriterion_updateOutput: target must be 1D of size [6] "
                                        f"(one class index per sample), got {described}"):
        nn.MultiMarginCriterion().forward(x, t)


def test_wrong_weights_length():
    x, t = scores_and_targets()
    with raises_exactly(thnn.THNNError, "MultiMarginCriterion_updateOutput: weights must be 1D of size [5], "
                                        "got 1D of size [4]"):
        nn.MultiMarginCriterion(weights=np.ones(4)).forward(x, t)


def test_weights_must_be_1d():
    with raises_exactly(ValueError, "MultiMarginCriterion: weights must be 1D [dim], got shape (5, 1)"):
        nn.MultiMarginCriterion(weights=np.ones((5, 1)))


@pytest.mark.parametrize("shape, described", [((2, 3, 4), "3D of size [2, 3, 4]"), ((2, 0), "2D of size [2, 0]")])
def test_wrong_input_shape(shape, described):
    with raises_exactly(thnn.THNNError, f"MultiMarginCriterion_updateOutput: input must be 1D [dim] or 2D "
                                        f"[batch, dim] with dim >= 1, got {described}"):
        nn.MultiMarginCriterion().forward(np.zeros(shape), np.array([0, 1]))


def test_non_integer_target():
    x, _ = scores_and_targets()
    with raises_exactly(TypeError, "MultiMarginCriterion_updateOutput: target must be an integer array "
                                   "(class indices), got float64"):
        nn.MultiMarginCriterion().forward(x, np.zeros(6))


def test_kernel_refuses_mixed_precisions():
    x, t = scores_and_targets()
    with raises_exactly(TypeError, "MultiMarginCriterion_updateOutput: weights must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.MultiMarginCriterion_updateOutput(x, t, None, True, 1, WEIGHTS.astype(np.float32), 1.0)
