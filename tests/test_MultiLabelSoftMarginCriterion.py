"""nn_legacy.MultiLabelSoftMarginCriterion: logistic loss per class,
-w[c] (y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))), averaged over the elements."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_criterion_gradient, raises_exactly, torch_or_skip,
                          uniform)

N_CLASSES = 5
WEIGHTS = np.array([0.5, 2.0, 1.0, 0.0, 3.0])
VARIANTS = {"plain": dict(), "weights": dict(weights=WEIGHTS), "sum": dict(sizeAverage=False),
            "weights sum": dict(weights=WEIGHTS, sizeAverage=False)}


def numpy_multilabel_soft_margin(x, y, weights=None, sizeAverage=True):
    """(loss, gradient) through the sigmoid, for moderate scores."""
    p = 1 / (1 + np.exp(-x))
    w = np.ones(x.shape[-1]) if weights is None else weights
    loss = -(w * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum()
    n = x.size if sizeAverage and x.size else 1
    return loss / n, w * (p - y) / n


def scores_and_labels(batch=4, seed=0):
    x = uniform((batch, N_CLASSES), seed, -3, 3)
    y = (np.random.default_rng(seed + 1).random((batch, N_CLASSES)) < 0.5).astype(np.float64)
    return x, y


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, y = scores_and_labels()
    c = nn.MultiLabelSoftMarginCriterion(**options)
    loss, grad = numpy_multilabel_soft_margin(x, y, **options)
    assert isinstance(c.forward(x, y), float)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13)
    np.testing.assert_allclose(c.backward(x, y), grad, rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    """PyTorch's 'sum' divides by nClasses; Torch7's sizeAverage=False does not."""
    torch = torch_or_skip()
    x, y = scores_and_labels()
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None
    average = options.get("sizeAverage", True)
    loss = torch.nn.functional.multilabel_soft_margin_loss(tx, torch.from_numpy(y), weight=weight,
                                                           reduction="mean" if average else "sum")
    if not average:
        loss = loss * N_CLASSES
    loss.backward()
    c = nn.MultiLabelSoftMarginCriterion(**options)
    np.testing.assert_allclose(c.forward(x, y), loss.item(), rtol=1e-13)
    np.testing.assert_allclose(c.backward(x, y), tx.grad.numpy(), rtol=1e-12, atol=1e-16)


def test_defaults():
    c = nn.MultiLabelSoftMarginCriterion()
    assert c.weights is None and c.sizeAverage
    np.testing.assert_allclose(c.forward(np.zeros((2, 3)), np.ones((2, 3))), np.log(2), rtol=1e-15)


def test_single_sample_equals_a_batch_of_one():
    x, y = scores_and_labels()
    c = nn.MultiLabelSoftMarginCriterion(WEIGHTS)
    assert c.forward(x[1], y[1]) == c.forward(x[1:2], y[1:2])
    np.testing.assert_array_equal(c.backward(x[1], y[1]), c.backward(x[1:2], y[1:2])[0].copy())
    assert_criterion_gradient(c, x[2], y[2])


def test_probability_targets():
    x = uniform((3, N_CLASSES), 1)
    y = np.random.default_rng(2).random((3, N_CLASSES))
    c = nn.MultiLabelSoftMarginCriterion()
    loss, grad = numpy_multilabel_soft_margin(x, y)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13)
    np.testing.assert_allclose(c.backward(x, y), grad, rtol=1e-12, atol=1e-16)


def test_large_scores_stay_exact():
    """Torch7's sigmoid then log(p + 1e-12) would give 27.6 here; the loss is 1000."""
    c = nn.MultiLabelSoftMarginCriterion(sizeAverage=False)
    x = np.array([[1000.0, -1000.0, 40.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(c.forward(x, np.array([[0.0, 0.0, 1.0]])), 1000.0 + np.log1p(np.exp(-40.0)),
                                   rtol=1e-15)
        np.testing.assert_array_equal(c.backward(x, np.array([[0.0, 0.0, 1.0]]))[0, :2], [1.0, 0.0])


def test_float32_keeps_the_weights_in_float64():
    c = nn.MultiLabelSoftMarginCriterion(np.array([0.1, 0.2, 0.3, 0.4, 0.5]))
    x, y = scores_and_labels()
    c.forward(x.astype(np.float32), y)
    assert c.weights.dtype == np.float64


def test_empty_batch_gives_zero_loss():
    c = nn.MultiLabelSoftMarginCriterion(WEIGHTS)
    assert c.forward(np.zeros((0, N_CLASSES)), np.zeros((0, N_CLASSES))) == 0.0
    assert c.backward(np.zeros((0, N_CLASSES)), np.zeros((0, N_CLASSES))).shape == (0, N_CLASSES)


def test_nan_score_gives_nan_loss():
    x, y = scores_and_labels()
    x[0, 0] = np.nan
    c = nn.MultiLabelSoftMarginCriterion()
    assert np.isnan(c.forward(x, y))
    assert np.isnan(c.backward(x, y)[0, 0]) and np.all(np.isfinite(c.gradInput.ravel()[1:]))


def test_repr():
    assert repr(nn.MultiLabelSoftMarginCriterion()) == "nn.MultiLabelSoftMarginCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, shown", [(-1, "-1"), (2, "2"), (np.nan, "nan")])
def test_targets_must_lie_in_zero_one(bad, shown):
    x, y = scores_and_labels()
    y[1, 3] = bad
    with raises_exactly(ValueError, f"MultiLabelSoftMarginCriterion: target must lie in [0, 1], got {shown} "
                                    f"at index (1, 3)"):
        nn.MultiLabelSoftMarginCriterion().forward(x, y)


def test_target_must_have_the_input_shape():
    x, y = scores_and_labels()
    with raises_exactly(ValueError, "MultiLabelSoftMarginCriterion: target must be 2D of size [4, 5] "
                                    "(0 or 1 per class), got 1D of size [4]"):
        nn.MultiLabelSoftMarginCriterion().forward(x, np.ones(4))


def test_weights_must_match_the_classes():
    x, y = scores_and_labels()
    with raises_exactly(ValueError, "MultiLabelSoftMarginCriterion: weights must be 1D of size [5] (one per class "
                                    "of input 2D of size [4, 5]), got 1D of size [4]"):
        nn.MultiLabelSoftMarginCriterion(np.ones(4)).forward(x, y)
    with raises_exactly(ValueError, "MultiLabelSoftMarginCriterion: weights must be 1D [nClasses], "
                                    "got 2D of size [1, 5]"):
        nn.MultiLabelSoftMarginCriterion(np.ones((1, 5)))


def test_input_must_be_1d_or_2d_float():
    c = nn.MultiLabelSoftMarginCriterion()
    with raises_exactly(ValueError, "MultiLabelSoftMarginCriterion: input must be 1D [nClasses] or 2D "
                                    "[batch, nClasses], got 3D of size [2, 2, 2]"):
        c.forward(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))
    with raises_exactly(TypeError, "MultiLabelSoftMarginCriterion: input must be float32 or float64, got int64"):
        c.forward(np.zeros((2, 2), dtype=np.int64), np.zeros((2, 2)))
