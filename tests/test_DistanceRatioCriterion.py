"""nn_legacy.DistanceRatioCriterion: -log(exp(-X) / (exp(-X) + exp(-Y))) for
anchor-positive distances X and anchor-negative distances Y."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_or_skip, uniform)


def numpy_distance_ratio(X, Y, sizeAverage=True):
    """(loss, [dL/dX, dL/dY]) in Torch7's form, fine for moderate distances."""
    eX, eY = np.exp(-X), np.exp(-Y)
    n = X.shape[0] if sizeAverage and X.shape[0] else 1
    return (X + np.log(eX + eY)).sum() / n, [(1 - eX / (eX + eY)) / n, -eY / (eX + eY) / n]


def distances(shape=(6,), seed=0):
    return [uniform(shape, seed, 0, 3), uniform(shape, seed + 1, 0, 3)]


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", [(6,), (4, 3)], ids=str)
def test_matches_numpy(shape, sizeAverage):
    x = distances(shape)
    c = nn.DistanceRatioCriterion(sizeAverage)
    loss, grads = numpy_distance_ratio(*x, sizeAverage)
    assert isinstance(c.forward(x, None), float)
    np.testing.assert_allclose(c.forward(x, None), loss, rtol=1e-13)
    for g, expected in zip(c.backward(x, None), grads):
        np.testing.assert_allclose(g, expected, rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
def test_matches_torch(sizeAverage, reduction):
    """The same loss as cross-entropy over the logits [-X, -Y] with class 0."""
    torch = torch_or_skip()
    x = distances()
    tX, tY = (torch.from_numpy(a.copy()).requires_grad_(True) for a in x)
    loss = torch.nn.functional.cross_entropy(torch.stack([-tX, -tY], 1), torch.zeros(6, dtype=torch.long),
                                             reduction=reduction)
    loss.backward()
    c = nn.DistanceRatioCriterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, None), loss.item(), rtol=1e-13)
    for g, t in zip(c.backward(x, None), (tX, tY)):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-12, atol=1e-16)


def test_defaults_and_equal_distances():
    c = nn.DistanceRatioCriterion()
    assert c.sizeAverage
    x = [np.array([1.0, 2.0]), np.array([1.0, 2.0])]
    np.testing.assert_allclose(c.forward(x), np.log(2), rtol=1e-15)
    np.testing.assert_allclose(c.backward(x)[0], [0.25, 0.25], rtol=1e-15)


def test_the_target_is_ignored():
    x = distances()
    c = nn.DistanceRatioCriterion()
    assert c.forward(x, np.ones(6)) == c.forward(x, None) == c.forward(x)


def test_large_distances_stay_finite():
    """Torch7's exp(-X) + exp(-Y) underflows to 0 here and the loss is -inf."""
    c = nn.DistanceRatioCriterion(sizeAverage=False)
    x = [np.array([800.0, 1000.0]), np.array([801.0, 900.0])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(c.forward(x), np.log1p(np.exp(-1.0)) + 100 + np.log1p(np.exp(-100.0)),
                                   rtol=1e-15)
        np.testing.assert_allclose(c.backward(x)[0], [1 / (1 + np.e), 1.0], rtol=1e-15)


def test_empty_batch_gives_zero_loss():
    c = nn.DistanceRatioCriterion()
    assert c.forward([np.zeros(0), np.zeros(0)]) == 0.0
    assert [g.shape for g in c.backward([np.zeros(0), np.zeros(0)])] == [(0,), (0,)]


def test_nan_gives_nan_loss():
    x = distances()
    x[1][3] = np.nan
    c = nn.DistanceRatioCriterion()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(c.forward(x))
        assert np.isnan(c.backward(x)[0][3]) and np.isfinite(c.gradInput[0][2])


def test_repr():
    assert repr(nn.DistanceRatioCriterion()) == "nn.DistanceRatioCriterion"


# ---------------------------------------------------------------- bad input
def test_distances_must_pair_up():
    c = nn.DistanceRatioCriterion()
    with raises_exactly(ValueError, "DistanceRatioCriterion: input[1] must have the shape of input[0] "
                                    "(1D of size [6]), got 1D of size [5]"):
        c.forward([np.ones(6), np.ones(5)])
    with raises_exactly(ValueError, "DistanceRatioCriterion: input must be a table (list) of 2 arrays, "
                                    "got 3 entries"):
        c.forward([np.ones(6)] * 3)
    with raises_exactly(ValueError, "DistanceRatioCriterion: input[0] and input[1] must be at least 1D [batch], "
                                    "got a scalar (0D)"):
        c.forward([np.array(1.0), np.array(2.0)])
    with raises_exactly(TypeError, "DistanceRatioCriterion: input[0] must be float32 or float64, got int64"):
        c.backward([np.ones(2, dtype=np.int64), np.ones(2)])
