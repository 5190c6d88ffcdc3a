"""nn_legacy.CosineEmbeddingCriterion: 1 - cos for pairs labelled 1,
max(0, cos - margin) for pairs labelled -1, on a table [x1, x2]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_table_criterion_gradient, raises_exactly, torch_or_skip)

EPS = 1e-12
VARIANTS = {"plain": dict(), "margin": dict(margin=0.3), "sum": dict(sizeAverage=False),
            "negative margin sum": dict(margin=-0.2, sizeAverage=False)}


def numpy_cosine_embedding(x1, x2, y, margin=0.0, sizeAverage=True):
    """(loss, [dL/dx1, dL/dx2]) pair by pair."""
    a, b, y = np.atleast_2d(x1), np.atleast_2d(x2), np.atleast_1d(y)
    loss, g1, g2 = 0.0, np.zeros_like(a), np.zeros_like(b)
    for i in range(len(y)):
        n1, n2 = a[i] @ a[i] + EPS, b[i] @ b[i] + EPS
        cos = a[i] @ b[i] / np.sqrt(n1 * n2)
        dcos1 = b[i] / np.sqrt(n1 * n2) - cos * a[i] / n1
        dcos2 = a[i] / np.sqrt(n1 * n2) - cos * b[i] / n2
        if y[i] == 1:
            loss, g1[i], g2[i] = loss + 1 - cos, -dcos1, -dcos2
        elif cos > margin:
            loss, g1[i], g2[i] = loss + cos - margin, dcos1, dcos2
    n = len(y) if sizeAverage and len(y) else 1
    return loss / n, [g1.reshape(x1.shape) / n, g2.reshape(x2.shape) / n]


def pairs(batch=8, dim=5, seed=0, margin=0.0):
    """[x1, x2], y: cosines spread over (-1, 1), labels of both kinds, and
    among the -1 pairs some on each side of the margin, none within 1e-3 of it."""
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(-2, 2, (batch, dim))
    mix = np.linspace(-0.9, 0.9, batch)[:, None]
    x2 = mix * x1 + (1 - abs(mix)) * rng.uniform(-2, 2, (batch, dim))
    y = np.where(np.arange(batch) % 3 == 2, 1.0, -1.0)
    cos = (x1 * x2).sum(1) / np.sqrt((x1 * x1).sum(1) * (x2 * x2).sum(1))
    negatives = cos[y == -1]
    assert np.any(negatives > margin) and np.any(negatives < margin), "both sides of the margin"
    assert np.all(np.abs(negatives - margin) > 1e-3), "no pair at the kink"
    return [x1, x2], y


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, y = pairs(margin=options.get("margin", 0.0))
    c = nn.CosineEmbeddingCriterion(**options)
    loss, grads = numpy_cosine_embedding(*x, y, **options)
    assert isinstance(c.forward(x, y), float)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13)
    for g, expected in zip(c.backward(x, y), grads):
        np.testing.assert_allclose(g, expected, rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, y = pairs(margin=options.get("margin", 0.0))
    t1, t2 = (torch.from_numpy(a.copy()).requires_grad_(True) for a in x)
    loss = torch.nn.functional.cosine_embedding_loss(
        t1, t2, torch.from_numpy(y), margin=options.get("margin", 0.0),
        reduction="mean" if options.get("sizeAverage", True) else "sum")
    loss.backward()
    c = nn.CosineEmbeddingCriterion(**options)
    np.testing.assert_allclose(c.forward(x, y), loss.item(), rtol=1e-13)
    for g, t in zip(c.backward(x, y), (t1, t2)):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-12, atol=1e-16)


def test_defaults():
    c = nn.CosineEmbeddingCriterion()
    assert c.margin == 0 and c.sizeAverage
    x = [np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[0.0, 1.0], [1.0, 1.0]])]
    # orthogonal pair labelled 1 costs 1, identical pair labelled -1 costs cos - 0 = 1: mean 1
    np.testing.assert_allclose(c.forward(x, np.array([1, -1])), 1.0, rtol=1e-12)


def test_one_pair_as_vectors_with_a_number_label():
    """Torch7's non-batch form: [dim] arrays, a number label, [dim] gradients."""
    x, y = pairs()
    batch = nn.CosineEmbeddingCriterion(0.1)
    single = nn.CosineEmbeddingCriterion(0.1)
    for i in (0, 1):
        pair = [x[0][i], x[1][i]]
        batch_one = [x[0][i:i + 1], x[1][i:i + 1]]
        assert single.forward(pair, y[i]) == batch.forward(batch_one, y[i:i + 1])
        grads = single.backward(pair, int(y[i]))
        assert grads[0].shape == (5,) and grads[1].shape == (5,)
        for g, b in zip(grads, batch.backward(batch_one, y[i:i + 1])):
            np.testing.assert_array_equal(g, b[0])
    assert_table_criterion_gradient(single, [x[0][1], x[1][1]], -1)


def test_integer_labels_and_lists_are_accepted():
    x, y = pairs()
    c = nn.CosineEmbeddingCriterion()
    expected = c.forward(x, y)
    assert c.forward(x, y.astype(np.int64)) == expected
    assert c.forward(x, y.tolist()) == expected
    assert c.forward(tuple(x), y) == expected


def test_zero_vector_gives_a_finite_loss():
    """The 1e-12 guard: a zero vector has cosine 0 with anything."""
    c = nn.CosineEmbeddingCriterion()
    x = [np.zeros((1, 3)), np.ones((1, 3))]
    assert c.forward(x, np.array([1])) == 1.0
    assert all(np.all(np.isfinite(g)) for g in c.backward(x, np.array([1])))


def test_empty_batch_gives_zero_loss():
    c = nn.CosineEmbeddingCriterion()
    x = [np.zeros((0, 3)), np.zeros((0, 3))]
    assert c.forward(x, np.zeros(0)) == 0.0
    assert [g.shape for g in c.backward(x, np.zeros(0))] == [(0, 3), (0, 3)]


def test_nan_gives_nan_loss():
    x, y = pairs()
    x[0][2, 1] = np.nan
    assert np.isnan(nn.CosineEmbeddingCriterion().forward(x, y))


def test_repr():
    assert repr(nn.CosineEmbeddingCriterion()) == "nn.CosineEmbeddingCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, index, shown", [(0, 2, "0"), (2, 0, "2"), (0.5, 5, "0.5"), (np.nan, 7, "nan")])
def test_labels_must_be_one_or_minus_one(bad, index, shown):
    x, y = pairs()
    y[index] = bad
    with raises_exactly(ValueError, f"CosineEmbeddingCriterion: target must hold only 1 or -1, got {shown} "
                                    f"at index {index}"):
        nn.CosineEmbeddingCriterion().forward(x, y)
    with raises_exactly(ValueError, f"CosineEmbeddingCriterion: target must hold only 1 or -1, got {shown} "
                                    f"at index {index}"):
        nn.CosineEmbeddingCriterion().backward(x, y)


def test_label_count_must_match_the_batch():
    x, _ = pairs()
    with raises_exactly(ValueError, "CosineEmbeddingCriterion: target must be 1D of size [8] (labels 1 or -1), "
                                    "got 1D of size [7]"):
        nn.CosineEmbeddingCriterion().forward(x, np.ones(7))


def test_input_must_be_a_pair_of_matching_arrays():
    c = nn.CosineEmbeddingCriterion()
    x, y = pairs()
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: input must be a table (list) of 2 arrays, "
                                   "got ndarray"):
        c.forward(x[0], y)
    with raises_exactly(ValueError, "CosineEmbeddingCriterion: input must be a table (list) of 2 arrays, "
                                    "got 3 entries"):
        c.forward(x + [x[0]], y)
    with raises_exactly(ValueError, "CosineEmbeddingCriterion: input[1] must have the shape of input[0] "
                                    "(2D of size [8, 5]), got 2D of size [8, 4]"):
        c.forward([x[0], x[1][:, :4]], y)
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: input[1] must be float64 like input[0], got float32"):
        c.forward([x[0], x[1].astype(np.float32)], y)
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: input[0] must be float32 or float64, got int64"):
        c.forward([x[0].astype(np.int64), x[1]], y)
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: input[1] must be a numpy array, got list"):
        c.forward([x[0], x[1].tolist()], y)
    with raises_exactly(ValueError, "CosineEmbeddingCriterion: input[0] and input[1] must be 1D [dim] or "
                                    "2D [batch, dim], got 3D of size [2, 2, 2]"):
        c.forward([np.zeros((2, 2, 2)), np.zeros((2, 2, 2))], np.ones(2))


def test_non_numeric_target():
    x, _ = pairs()
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: target must be numeric, got <U1"):
        nn.CosineEmbeddingCriterion().forward(x, np.array(["a"] * 8))


def test_margin_must_be_a_number():
    with raises_exactly(TypeError, "CosineEmbeddingCriterion: margin must be a number, got str"):
        nn.CosineEmbeddingCriterion("0.5")
