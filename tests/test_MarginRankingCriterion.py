"""nn_legacy.MarginRankingCriterion: max(0, -y (x1 - x2) + margin) per pair of
scores [x1, x2], averaged over the batch with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_or_skip)

VARIANTS = {"plain": dict(), "margin 0": dict(margin=0.0), "sum": dict(sizeAverage=False),
            "margin 0.5 sum": dict(margin=0.5, sizeAverage=False)}


def numpy_margin_ranking(x1, x2, y, margin=1.0, sizeAverage=True):
    loss, g1 = 0.0, np.zeros_like(x1)
    for i in range(len(y)):
        h = -y[i] * (x1[i] - x2[i]) + margin
        if h >= 0:
            loss, g1[i] = loss + h, -y[i]
    n = len(y) if sizeAverage and len(y) else 1
    return loss / n, [g1 / n, -g1 / n]


def scores(batch=10, seed=0, margin=1.0):
    """[x1, x2], y with pairs on both sides of the hinge, none within 1e-3 of it."""
    rng = np.random.default_rng(seed)
    x1, x2 = rng.uniform(-2, 2, batch), rng.uniform(-2, 2, batch)
    y = np.where(rng.random(batch) < 0.5, 1.0, -1.0)
    hinge = -y * (x1 - x2) + margin
    assert np.any(hinge > 0) and np.any(hinge < 0) and np.all(np.abs(hinge) > 1e-3)
    return [x1, x2], y


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, y = scores(margin=options.get("margin", 1.0))
    c = nn.MarginRankingCriterion(**options)
    loss, grads = numpy_margin_ranking(*x, y, **options)
    assert isinstance(c.forward(x, y), float)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13)
    for g, expected in zip(c.backward(x, y), grads):
        np.testing.assert_allclose(g, expected, rtol=1e-15)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, y = scores(margin=options.get("margin", 1.0))
    t1, t2 = (torch.from_numpy(a.copy()).requires_grad_(True) for a in x)
    loss = torch.nn.functional.margin_ranking_loss(t1, t2, torch.from_numpy(y), margin=options.get("margin", 1.0),
                                                   reduction="mean" if options.get("sizeAverage", True) else "sum")
    loss.backward()
    c = nn.MarginRankingCriterion(**options)
    np.testing.assert_allclose(c.forward(x, y), loss.item(), rtol=1e-13)
    for g, t in zip(c.backward(x, y), (t1, t2)):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-15)


def test_defaults_are_torch7s():
    """margin 1 (Torch7 and torch.legacy.nn), averaged."""
    c = nn.MarginRankingCriterion()
    assert c.margin == 1 and c.sizeAverage
    # x1 ranked 0.25 above x2 as wanted: 1 - 0.25; ranked wrongly by 0.25: 1 + 0.25
    assert c.forward([np.array([1.25, 1.0]), np.array([1.0, 1.25])], np.array([1, 1])) == 1.0


def test_at_the_hinge_the_gradient_flows_as_in_torch7():
    c = nn.MarginRankingCriterion(0.0, sizeAverage=False)
    g1, g2 = c.backward([np.array([1.0, 1.0]), np.array([1.0, 0.0])], np.array([1, 1]))
    np.testing.assert_array_equal(g1, [-1.0, 0.0])
    np.testing.assert_array_equal(g2, [1.0, 0.0])


def test_a_batch_of_one_with_a_number_label():
    c = nn.MarginRankingCriterion(0.5)
    x = [np.array([0.2]), np.array([0.4])]
    assert c.forward(x, 1) == pytest.approx(0.7, rel=1e-15)
    assert c.forward(x, -1) == pytest.approx(0.3, rel=1e-15)
    np.testing.assert_array_equal(c.backward(x, -1)[0], [1.0])


def test_empty_batch_gives_zero_loss():
    c = nn.MarginRankingCriterion()
    assert c.forward([np.zeros(0), np.zeros(0)], np.zeros(0)) == 0.0
    assert [g.shape for g in c.backward([np.zeros(0), np.zeros(0)], np.zeros(0))] == [(0,), (0,)]


def test_repr():
    assert repr(nn.MarginRankingCriterion()) == "nn.MarginRankingCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, shown", [(0, "0"), (3, "3"), (np.inf, "inf")])
def test_labels_must_be_one_or_minus_one(bad, shown):
    x, y = scores()
    y[4] = bad
    for verb in ("forward", "backward"):
        with raises_exactly(ValueError, f"MarginRankingCriterion: target must hold only 1 or -1, got {shown} "
                                        f"at index 4"):
            getattr(nn.MarginRankingCriterion(), verb)(x, y)


def test_label_count_must_match():
    x, y = scores()
    with raises_exactly(ValueError, "MarginRankingCriterion: target must be 1D of size [10] (labels 1 or -1), "
                                    "got 1D of size [9]"):
        nn.MarginRankingCriterion().forward(x, y[:9])
    with raises_exactly(ValueError, "MarginRankingCriterion: target must be 1D of size [10] (labels 1 or -1), "
                                    "got a scalar (0D)"):
        nn.MarginRankingCriterion().forward(x, 1)


def test_scores_must_be_1d():
    with raises_exactly(ValueError, "MarginRankingCriterion: input[0] and input[1] must be 1D [batch] (one score "
                                    "per pair), got 2D of size [4, 1]"):
        nn.MarginRankingCriterion().forward([np.zeros((4, 1)), np.zeros((4, 1))], np.ones(4))


def test_input_must_be_a_table():
    with raises_exactly(TypeError, "MarginRankingCriterion: input must be a table (list) of 2 arrays, "
                                   "got ndarray"):
        nn.MarginRankingCriterion().forward(np.zeros((2, 3)), np.ones(3))
