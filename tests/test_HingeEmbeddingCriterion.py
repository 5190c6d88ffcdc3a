"""nn_legacy.HingeEmbeddingCriterion: x where y = 1, max(0, margin - x) where
y = -1, summed over the elements and divided by their count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_or_skip)

VARIANTS = {"plain": dict(), "margin 2": dict(margin=2.0), "sum": dict(sizeAverage=False),
            "margin 0.5 sum": dict(margin=0.5, sizeAverage=False)}
SHAPES = [(9,), (4, 6), (2, 3, 4)]


def numpy_hinge_embedding(x, y, margin=1.0, sizeAverage=True):
    """(loss, gradient) element by element."""
    loss, grad = 0.0, np.zeros_like(x)
    for i in np.ndindex(x.shape):
        if y[i] == 1:
            loss, grad[i] = loss + x[i], 1.0
        elif x[i] < margin:
            loss, grad[i] = loss + margin - x[i], -1.0
    n = x.size if sizeAverage and x.size else 1
    return loss / n, grad / n


def distances(shape, seed=0, margin=1.0):
    """Distances in [0, 2 margin], labels of both kinds, and among the -1
    elements some on each side of the margin, none within 1e-3 of it."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 2 * margin, shape)
    y = np.where(rng.random(shape) < 0.5, 1.0, -1.0)
    y.flat[:2] = -1
    x.flat[:2] = 0.5 * margin, 1.5 * margin
    assert np.all(np.abs(x[y == -1] - margin) > 1e-3), "no element at the kink"
    return x, y


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, options):
    x, y = distances(shape, margin=options.get("margin", 1.0))
    c = nn.HingeEmbeddingCriterion(**options)
    loss, grad = numpy_hinge_embedding(x, y, **options)
    assert isinstance(c.forward(x, y), float)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13)
    np.testing.assert_allclose(c.backward(x, y), grad, rtol=1e-14)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, y = distances((4, 6), margin=options.get("margin", 1.0))
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    loss = torch.nn.functional.hinge_embedding_loss(tx, torch.from_numpy(y), margin=options.get("margin", 1.0),
                                                    reduction="mean" if options.get("sizeAverage", True) else "sum")
    loss.backward()
    c = nn.HingeEmbeddingCriterion(**options)
    np.testing.assert_allclose(c.forward(x, y), loss.item(), rtol=1e-13)
    np.testing.assert_allclose(c.backward(x, y), tx.grad.numpy(), rtol=1e-14)


def test_defaults():
    c = nn.HingeEmbeddingCriterion()
    assert c.margin == 1 and c.sizeAverage
    # 0.25 for the similar pair, 1 - 0.25 for the dissimilar one, 0 beyond the margin
    assert c.forward(np.array([0.25, 0.25, 3.0]), np.array([1, -1, -1])) == pytest.approx(1 / 3, rel=1e-15)


def test_at_the_margin_the_gradient_is_minus_one_as_in_torch7():
    c = nn.HingeEmbeddingCriterion(margin=1.0, sizeAverage=False)
    np.testing.assert_array_equal(c.backward(np.array([1.0, 1.0 + 1e-9]), np.array([-1, -1])), [-1.0, 0.0])


def test_a_number_label_for_a_single_distance():
    c = nn.HingeEmbeddingCriterion()
    assert c.forward(np.array([0.25]), -1) == 0.75
    np.testing.assert_array_equal(c.backward(np.array([0.25]), -1), [-1.0])
    assert c.forward(np.array([0.25]), 1) == 0.25


def test_nan_gives_nan_loss():
    x, y = distances((3, 4))
    x[1, 1] = np.nan
    assert np.isnan(nn.HingeEmbeddingCriterion().forward(x, y))


def test_repr():
    assert repr(nn.HingeEmbeddingCriterion()) == "nn.HingeEmbeddingCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, shown", [(0, "0"), (-2, "-2"), (0.5, "0.5")])
def test_labels_must_be_one_or_minus_one(bad, shown):
    x, y = distances((4, 6))
    y[2, 3] = bad
    for verb in ("forward", "backward"):
        with raises_exactly(ValueError, f"HingeEmbeddingCriterion: target must hold only 1 or -1, got {shown} "
                                        f"at index (2, 3)"):
            getattr(nn.HingeEmbeddingCriterion(), verb)(x, y)


def test_target_must_have_the_input_shape():
    x, y = distances((4, 6))
    with raises_exactly(ValueError, "HingeEmbeddingCriterion: target must be 2D of size [4, 6] (labels 1 or -1), "
                                    "got 1D of size [24]"):
        nn.HingeEmbeddingCriterion().forward(x, y.ravel())
    with raises_exactly(ValueError, "HingeEmbeddingCriterion: target must be 1D of size [3] (labels 1 or -1), "
                                    "got a scalar (0D)"):
        nn.HingeEmbeddingCriterion().forward(np.ones(3), 1)


def test_non_numeric_target():
    with raises_exactly(TypeError, "HingeEmbeddingCriterion: target must be numeric, got bool"):
        nn.HingeEmbeddingCriterion().forward(np.ones(1), True)
