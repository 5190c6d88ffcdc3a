"""nn_legacy.ParallelCriterion: a weighted sum of criterions, criterion k on
input[k] and target[k] (or the one target with repeatTarget)."""
import numpy as np

import nn_legacy as nn
from layer_checks import (assert_table_criterion_gradient, classes, raises_exactly, uniform)


def nll_and_mse():
    """Torch7's documentation example: 0.5 NLL on input[0], MSE on input[1]."""
    return nn.ParallelCriterion().add(nn.ClassNLLCriterion(), 0.5).add(nn.MSECriterion())


def nll_mse_data(n=3, seed=1):
    return [uniform((n, 4), seed), uniform((n, 4), seed + 1)], [classes(n, 4, seed + 2), uniform((n, 4), seed + 3)]


def nested():
    """A criterion taking a table inside the table: [[x1, x2], x3]."""
    return nn.ParallelCriterion().add(nn.CosineEmbeddingCriterion(0.2), 3).add(nn.HingeEmbeddingCriterion(), -1)


def nested_data(n=4, seed=1):
    x = [[uniform((n, 3), seed), uniform((n, 3), seed + 1)], uniform((n,), seed + 2, 0, 2)]
    labels = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return x, [labels, labels.copy()]


def test_weighted_sum_of_losses_and_gradients():
    x, t = nll_mse_data()
    c = nll_and_mse()
    nll, mse = nn.ClassNLLCriterion(), nn.MSECriterion()
    assert isinstance(c.forward(x, t), float)
    np.testing.assert_allclose(c.forward(x, t), 0.5 * nll.forward(x[0], t[0]) + mse.forward(x[1], t[1]), rtol=1e-15)
    g = c.backward(x, t)
    assert isinstance(g, list) and len(g) == 2
    np.testing.assert_allclose(g[0], 0.5 * nll.backward(x[0], t[0]), rtol=1e-15)
    np.testing.assert_allclose(g[1], mse.backward(x[1], t[1]), rtol=1e-15)


def test_nested_tables():
    x, t = nested_data()
    c = nested()
    cos, hinge = nn.CosineEmbeddingCriterion(0.2), nn.HingeEmbeddingCriterion()
    np.testing.assert_allclose(c.forward(x, t), 3 * cos.forward(x[0], t[0]) - hinge.forward(x[1], t[1]), rtol=1e-15)
    g = c.backward(x, t)
    assert isinstance(g[0], list) and len(g[0]) == 2
    for gi, expected in zip(g[0], cos.backward(x[0], t[0])):
        np.testing.assert_allclose(gi, 3 * expected, rtol=1e-15)
    np.testing.assert_allclose(g[1], -hinge.backward(x[1], t[1]), rtol=1e-15)


def test_repeat_target():
    c = nn.ParallelCriterion(repeatTarget=True).add(nn.MSECriterion(), 2).add(nn.MSECriterion(False))
    x, target = [uniform((3, 2), 1), uniform((3, 2), 2)], uniform((3, 2), 3)
    mse, mse_sum = nn.MSECriterion(), nn.MSECriterion(False)
    np.testing.assert_allclose(c.forward(x, target), 2 * mse.forward(x[0], target) + mse_sum.forward(x[1], target),
                               rtol=1e-15)
    assert_table_criterion_gradient(c, x, target)


def test_extra_input_entries_count_for_nothing_as_in_torch7():
    x, t = nll_mse_data()
    extra = uniform((2, 5), 9)
    c = nll_and_mse()
    assert c.forward(x + [extra], t + ["unused"]) == c.forward(x, t)
    g = c.backward(x + [extra], t)
    assert len(g) == 3
    np.testing.assert_array_equal(g[2], np.zeros((2, 5)))
    assert_table_criterion_gradient(c, x + [extra], t)


def test_no_criterion_gives_zero():
    x, t = nll_mse_data()
    c = nn.ParallelCriterion()
    assert c.forward(x, t) == 0.0
    assert [g.tolist() for g in c.backward(x, t)] == [np.zeros((3, 4)).tolist()] * 2


def test_empty_batch():
    c = nn.ParallelCriterion().add(nn.MSECriterion()).add(nn.MarginRankingCriterion())
    x, t = [np.zeros((0, 2)), [np.zeros(0), np.zeros(0)]], [np.zeros((0, 2)), np.zeros(0)]
    assert c.forward(x, t) == 0.0
    g = c.backward(x, t)
    assert g[0].shape == (0, 2) and [a.shape for a in g[1]] == [(0,), (0,)]


def test_float_converts_the_children():
    c = nn.ParallelCriterion().add(nn.WeightedMSECriterion(np.ones(3))).float()
    assert c.criterions[0].weight.dtype == np.float32


def test_repr():
    assert repr(nn.ParallelCriterion()) == "nn.ParallelCriterion"
    inner = nn.MultiCriterion().add(nn.MSECriterion())
    assert repr(nn.ParallelCriterion().add(inner, 0.25)) == (
        "nn.ParallelCriterion {\n  (0) 0.25 * nn.MultiCriterion {\n    (0) 1 * nn.MSECriterion\n  }\n}")


# ---------------------------------------------------------------- bad input
def test_fewer_entries_than_criterions():
    x, t = nll_mse_data()
    with raises_exactly(ValueError, "ParallelCriterion: input has 1 entry for 2 criterions"):
        nll_and_mse().forward(x[:1], t)
    with raises_exactly(ValueError, "ParallelCriterion: target has 1 entry for 2 criterions"):
        nll_and_mse().backward(x, t[:1])


def test_input_and_target_must_be_tables():
    x, t = nll_mse_data()
    with raises_exactly(TypeError, "ParallelCriterion: input must be a table (list) with an entry per criterion, "
                                   "got ndarray"):
        nll_and_mse().forward(x[0], t)
    with raises_exactly(TypeError, "ParallelCriterion: target must be a table (list) with an entry per criterion "
                                   "(or use repeatTarget=True), got ndarray"):
        nll_and_mse().forward(x, t[1])


def test_extra_entries_must_still_be_float_arrays():
    x, t = nll_mse_data()
    with raises_exactly(TypeError, "ParallelCriterion: input[2] must be a numpy array, got str"):
        nll_and_mse().backward(x + ["label"], t)


def test_add_takes_criterions():
    with raises_exactly(TypeError, "ParallelCriterion.add: expected a Criterion, got ReLU"):
        nn.ParallelCriterion().add(nn.ReLU())
