"""nn_legacy.ClassSimplexCriterion: MSE between the input and the simplex
vertex of each (0-based) target class."""
import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import LuaTable, TorchObject, _Converter, _nn_classes
from layer_checks import (classes, raises_exactly,
                          torch_or_skip, uniform)

N_CLASSES = 4


def numpy_class_simplex(x, t, simplex, sizeAverage=True):
    target = simplex[np.atleast_1d(t)].reshape(x.shape)
    n = x.size if sizeAverage and x.size else 1
    return ((x - target) ** 2).sum() / n, 2 * (x - target) / n


def batch(n=6, seed=1):
    t = classes(n, N_CLASSES, seed + 1)
    t[:N_CLASSES] = np.arange(N_CLASSES)  # every class appears
    return uniform((n, N_CLASSES), seed, -1, 1), t


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
def test_simplex_is_regular_and_centred(n):
    s = nn.ClassSimplexCriterion(n).simplex
    assert s.shape == (n, n)
    expected_gram = np.full((n, n), -1 / (n - 1))
    np.fill_diagonal(expected_gram, 1)
    np.testing.assert_allclose(s @ s.T, expected_gram, atol=1e-14)
    np.testing.assert_allclose(s.sum(axis=0), np.zeros(n), atol=1e-14)
    np.testing.assert_array_equal(s[:, -1], np.zeros(n))  # the extra dimension Torch7 keeps empty


def test_simplex_has_torch7s_coordinates():
    """Torch7's construction: vertex 0 is the first axis and each vertex k
    has zeros beyond coordinate k, with a positive coordinate k (a
    lower-triangular layout).  With the inner products checked above this
    fixes every coordinate, as a Cholesky factor is unique."""
    s = nn.ClassSimplexCriterion(5).simplex
    np.testing.assert_array_equal(s[0], [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(np.triu(s, 1), np.zeros((5, 5)))
    assert np.all(np.diag(s)[:-1] > 0)


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
def test_matches_numpy(sizeAverage):
    x, t = batch()
    c = nn.ClassSimplexCriterion(N_CLASSES)
    c.sizeAverage = sizeAverage
    loss, grad = numpy_class_simplex(x, t, c.simplex, sizeAverage)
    assert isinstance(c.forward(x, t), float)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


def test_matches_torch_mse_to_the_vertices():
    torch = torch_or_skip()
    x, t = batch()
    c = nn.ClassSimplexCriterion(N_CLASSES)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    loss = torch.nn.functional.mse_loss(tx, torch.from_numpy(c.simplex)[torch.from_numpy(t)])
    loss.backward()
    np.testing.assert_allclose(c.forward(x, t), loss.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


def test_zero_at_the_vertices():
    c = nn.ClassSimplexCriterion(N_CLASSES)
    t = np.array([2, 0, 3])
    assert c.forward(c.simplex[t].copy(), t) == 0.0


def test_single_sample_with_an_int_target():
    x, t = batch()
    c = nn.ClassSimplexCriterion(N_CLASSES)
    assert c.forward(x[1], int(t[1])) == c.forward(x[1:2], t[1:2])
    np.testing.assert_array_equal(c.backward(x[1], int(t[1])), c.backward(x[1:2], t[1:2])[0].copy())
    assert c.backward(x[1], np.array([t[1]])).shape == (N_CLASSES,)


def test_predictions():
    c = nn.ClassSimplexCriterion(N_CLASSES)
    x, _ = batch()
    np.testing.assert_allclose(c.getPredictions(x), x @ c.simplex.T, rtol=1e-15)
    assert c.getPredictions(x[0]).shape == (1, N_CLASSES)
    noisy = c.simplex[[3, 1, 0, 2]] + 0.1 * uniform((4, N_CLASSES), 5)
    np.testing.assert_array_equal(c.getTopPrediction(noisy), [3, 1, 0, 2])
    np.testing.assert_array_equal(c.getTopPrediction(c.simplex[2]), [2])


def test_float32_keeps_the_simplex_in_float64():
    c = nn.ClassSimplexCriterion(N_CLASSES)
    x, t = batch()
    assert c.backward(x.astype(np.float32), t).dtype == np.float32
    assert c.simplex.dtype == np.float64


def test_empty_batch_gives_zero_loss():
    c = nn.ClassSimplexCriterion(N_CLASSES)
    assert c.forward(np.zeros((0, N_CLASSES)), np.zeros(0, dtype=np.int64)) == 0.0
    assert c.backward(np.zeros((0, N_CLASSES)), np.zeros(0, dtype=np.int64)).shape == (0, N_CLASSES)


def test_loaded_from_torch7():
    """load_lua gives nClasses as a Lua number (float): the fixup makes it an int."""
    stored = TorchObject("nn.ClassSimplexCriterion", 1)
    simplex = nn.ClassSimplexCriterion(N_CLASSES).simplex
    stored.fields = LuaTable(nClasses=float(N_CLASSES), simplex=simplex, sizeAverage=True, output=0.0,
                             gradInput=np.zeros(0), _target=np.zeros(0))
    c = _Converter(_nn_classes()).convert(stored)
    assert c.nClasses == N_CLASSES and isinstance(c.nClasses, int)
    x, t = batch()
    assert c.forward(x, t) == nn.ClassSimplexCriterion(N_CLASSES).forward(x, t)
    t[0] = N_CLASSES
    with raises_exactly(ValueError, f"ClassSimplexCriterion: target {N_CLASSES} at index 0 is out of range "
                                    f"[0, {N_CLASSES})"):
        c.forward(x, t)


def test_repr():
    assert repr(nn.ClassSimplexCriterion(3)) == "nn.ClassSimplexCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, index", [(N_CLASSES, 2), (-1, 0)])
def test_target_out_of_range(bad, index):
    x, t = batch()
    t[index] = bad
    for verb in ("forward", "backward"):
        with raises_exactly(ValueError, f"ClassSimplexCriterion: target {bad} at index {index} is out of range "
                                        f"[0, {N_CLASSES})"):
            getattr(nn.ClassSimplexCriterion(N_CLASSES), verb)(x, t)


def test_target_must_be_integer_and_one_per_sample():
    x, t = batch()
    c = nn.ClassSimplexCriterion(N_CLASSES)
    with raises_exactly(TypeError, "ClassSimplexCriterion: target must be integer class indices, got float64"):
        c.forward(x, t.astype(np.float64))
    with raises_exactly(ValueError, "ClassSimplexCriterion: target must be 1D of size [6] (one class index per "
                                    "sample), got 1D of size [5]"):
        c.forward(x, t[:5])


def test_input_must_have_n_classes_columns():
    c = nn.ClassSimplexCriterion(N_CLASSES)
    with raises_exactly(ValueError, "ClassSimplexCriterion: input must be 1D [4] or 2D [batch, 4] "
                                    "(nClasses = 4), got 2D of size [6, 3]"):
        c.forward(np.zeros((6, 3)), np.zeros(6, dtype=np.int64))
    with raises_exactly(ValueError, "ClassSimplexCriterion.getPredictions: input must be 1D [4] or 2D [batch, 4], "
                                    "got 3D of size [1, 2, 4]"):
        c.getPredictions(np.zeros((1, 2, 4)))


@pytest.mark.parametrize("n, exc, message", [
    (1, ValueError, "ClassSimplexCriterion: nClasses must be at least 2, got 1"),
    (2.5, TypeError, "ClassSimplexCriterion: nClasses must be an integer, got 2.5"),
])
def test_n_classes(n, exc, message):
    with raises_exactly(exc, message):
        nn.ClassSimplexCriterion(n)
