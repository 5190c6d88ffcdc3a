"""nn_legacy.MultiLabelMarginCriterion and the MultiLabelMarginCriterion_* kernels:
per sample with target set J, sum_{j in J} sum_{i not in J} max(0, 1 - x[j] + x[i]) / dim,
summed over the batch and divided by batch with sizeAverage.  Targets are 0-based
classes padded with -1 (Torch7: 1-based padded with 0)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, check_criterion_matches_torch, raises_exactly, run_hypothesis, torch_or_skip,
                          uniform)

DIM = 5


def label_sets(batch, dim=DIM, seed=0):
    """[batch, dim] targets: each row a random set of 0..dim distinct classes,
    then -1, then junk in [-1, dim) that must be ignored."""
    rng = np.random.default_rng(seed)
    t = rng.integers(-1, dim, size=(batch, dim))
    for row, k in zip(t, rng.integers(0, dim + 1, size=batch)):
        row[:k] = rng.permutation(dim)[:k]
        if k < dim:
            row[k] = -1
    return t.astype(np.int64)


def numpy_mlm(x, t, sizeAverage=True):
    """(loss, gradient, isTarget) by the docstring's formula."""
    x2, t2 = np.atleast_2d(x), np.atleast_2d(t)
    batch, dim = x2.shape
    loss, grad, is_target = 0.0, np.zeros_like(x2), np.zeros_like(x2)
    for b in range(batch):
        targets = []
        for c in t2[b]:
            if c < 0:
                break
            targets.append(c)
        is_target[b, targets] = 1
        for j in targets:
            for i in range(dim):
                z = 1 - x2[b, j] + x2[b, i]
                if not is_target[b, i] and z > 0:
                    loss += z
                    grad[b, j] -= 1
                    grad[b, i] += 1
    norm = dim * (batch if sizeAverage and batch else 1)
    return loss / norm, (grad / norm).reshape(x.shape), is_target.reshape(x.shape)


def scores(shape, seed):
    return uniform(shape, seed, -1.0, 1.0)  # hinges both active and inactive


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
def test_matches_numpy(sizeAverage):
    x, t = scores((6, DIM), 1), label_sets(6, seed=2)
    c = nn.MultiLabelMarginCriterion(sizeAverage)
    loss, grad, is_target = numpy_mlm(x, t, sizeAverage)
    assert 0 < loss
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_array_equal(c.isTarget, is_target)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)
    np.testing.assert_array_equal(c.isTarget, is_target)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", [(DIM,), (6, DIM)], ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x = scores(shape, 1)
    t = label_sets(6, seed=2)[:shape[0]] if len(shape) == 2 else np.array([3, 0, -1, 4, 1])
    check_criterion_matches_torch(nn.MultiLabelMarginCriterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.multilabel_margin_loss(i, t, reduction=reduction),
                                  x, t)


def test_torch7_targets_minus_one():
    """A Torch7 target (1-based, padded with 0) is the same target minus 1."""
    x = scores((2, 4), 1)
    torch7_target = np.array([[4, 1, 0, 0], [2, 3, 1, 4]])
    c = nn.MultiLabelMarginCriterion()
    loss, _, _ = numpy_mlm(x, np.array([[3, 0, -1, -1], [1, 2, 0, 3]]))
    np.testing.assert_allclose(c.forward(x, torch7_target - 1), loss, rtol=1e-15)


def test_worked_example():
    """x = [0.1, 0.2, 0.4, 0.8], classes {3, 0}: (1-0.8+0.2) + (1-0.8+0.4) + (1-0.1+0.2) + (1-0.1+0.4), / 4."""
    c = nn.MultiLabelMarginCriterion()
    x = np.array([0.1, 0.2, 0.4, 0.8])
    np.testing.assert_allclose(c.forward(x, np.array([3, 0, -1, 1])), 3.4 / 4, rtol=1e-15)
    np.testing.assert_array_equal(c.isTarget, [1, 0, 0, 1])
    np.testing.assert_allclose(c.backward(x, np.array([3, 0, -1, 1])), [-0.5, 0.5, 0.5, -0.5], rtol=1e-15)


def test_no_targets_or_all_targets_give_zero():
    c = nn.MultiLabelMarginCriterion()
    x = scores((2, 3), 1)
    t = np.array([[-1, 2, 0], [0, 2, 1]])  # nothing, then every class
    assert c.forward(x, t) == 0.0
    np.testing.assert_array_equal(c.backward(x, t), np.zeros((2, 3)))


def test_a_class_listed_twice_counts_twice():
    c = nn.MultiLabelMarginCriterion(sizeAverage=False)
    x = np.array([0.5, 0.0, 0.0])
    once, twice = c.forward(x, np.array([0, -1, -1])), c.forward(x, np.array([0, 0, -1]))
    assert once == 1.0 / 3 and twice == 2.0 / 3


def test_target_as_list():
    x, t = scores((3, DIM), 1), label_sets(3, seed=2)
    c = nn.MultiLabelMarginCriterion()
    assert c.forward(x, t.tolist()) == c.forward(x, t)
    assert c.forward(x, t.astype(np.int32)) == c.forward(x, t)


def test_is_target_buffer_is_reused_and_cleared():
    c = nn.MultiLabelMarginCriterion()
    x, t = scores((3, DIM), 1), label_sets(3, seed=2)
    c.forward(x, t)
    buffer = c.isTarget
    assert buffer.shape == (3, DIM) and buffer.dtype == np.float64
    c.backward(x, t)
    assert c.isTarget is buffer
    c.clearState()
    assert c.isTarget is None and c.gradInput is None
    assert c.forward(x, t) == numpy_mlm(x, t)[0]


def test_empty_batch_gives_zero_loss():
    c = nn.MultiLabelMarginCriterion()
    x, t = np.zeros((0, DIM)), np.zeros((0, DIM), dtype=np.int64)
    assert c.forward(x, t) == 0.0
    assert c.backward(x, t).shape == (0, DIM)


def test_repr():
    assert repr(nn.MultiLabelMarginCriterion()) == "nn.MultiLabelMarginCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, where", [(DIM, (1, 0)), (-2, (2, 1)), (99, (0, 4))], ids=str)
def test_target_out_of_range(bad, where):
    """Also after a row's -1: every value must be a class or -1."""
    t = np.array([[0, 1, -1, 3, 4], [2, -1, 0, 0, 0], [4, 3, 2, 1, 0]])
    t[where] = bad
    c = nn.MultiLabelMarginCriterion()
    msg = (f"target {bad} at [{where[0]}, {where[1]}] is out of range [0, {DIM}) "
           f"(-1 ends a sample's list of classes)")
    with raises_exactly(thnn.THNNError, "MultiLabelMarginCriterion_updateOutput: " + msg):
        c.forward(scores((3, DIM), 1), t)
    with raises_exactly(thnn.THNNError, "MultiLabelMarginCriterion_updateGradInput: " + msg):
        c.backward(scores((3, DIM), 1), t)


def test_target_out_of_range_single_sample():
    with raises_exactly(thnn.THNNError, "MultiLabelMarginCriterion_updateOutput: target 5 at [0, 1] is out of "
                                        "range [0, 5) (-1 ends a sample's list of classes)"):
        nn.MultiLabelMarginCriterion().forward(scores((DIM,), 1), np.array([0, 5, -1, 0, 0]))


@pytest.mark.parametrize("t, described", [
    (np.zeros((3, 4), dtype=np.int64), "2D of size [3, 4]"),
    (np.zeros(DIM, dtype=np.int64), "1D of size [5]"),
    (np.zeros((3, DIM, 1), dtype=np.int64), "3D of size [3, 5, 1]"),
])
def test_target_not_shaped_as_input(t, described):
    with raises_exactly(thnn.THNNError, f"MultiLabelMarginCriterion_updateOutput: target must be shaped as "
                                        f"input (2D of size [3, 5]), got {described}"):
        nn.MultiLabelMarginCriterion().forward(scores((3, DIM), 1), t)


@pytest.mark.parametrize("shape, described", [((2, 3, 4), "3D of size [2, 3, 4]"), ((2, 0), "2D of size [2, 0]")])
def test_wrong_input_shape(shape, described):
    with raises_exactly(thnn.THNNError, f"MultiLabelMarginCriterion_updateOutput: input must be 1D [dim] or "
                                        f"2D [batch, dim] with dim >= 1, got {described}"):
        nn.MultiLabelMarginCriterion().forward(np.zeros(shape), np.zeros(shape, dtype=np.int64))


def test_non_integer_target():
    with raises_exactly(TypeError, "MultiLabelMarginCriterion_updateOutput: target must be an integer array "
                                   "(class indices), got float64"):
        nn.MultiLabelMarginCriterion().forward(scores((2, 3), 1), np.zeros((2, 3)))


def test_kernel_refuses_an_is_target_of_the_other_precision_by_replacing_it():
    """isTarget is a [BUFFER]: one that does not fit is replaced, never written."""
    x, t = scores((2, DIM), 1), label_sets(2, seed=2)
    foreign = np.full((2, DIM), 7, dtype=np.float32)
    loss, is_target = thnn.Double.MultiLabelMarginCriterion_updateOutput(x, t, None, foreign, True)
    assert is_target is not foreign and is_target.dtype == np.float64
    assert np.all(foreign == 7)
    np.testing.assert_array_equal(is_target, numpy_mlm(x, t)[2])


@pytest.mark.slow
def test_any_sizes_targets_and_layouts():
    """Batch 0 to 4, 1 to 5 classes, any target rows (junk after the -1
    included), input in any layout and targets reversed or strided: the numpy
    formula, and identical to contiguous copies."""
    st = pytest.importorskip("hypothesis.strategies")

    def check(data):
        batch, dim = data.draw(st.integers(0, 4), label="batch"), data.draw(st.integers(1, 5), label="dim")
        x = data.draw(arbitrary_views((batch, dim), -1.5, 1.5), label="x")
        rows = st.lists(st.integers(-1, dim - 1), min_size=dim, max_size=dim)
        t = np.array(data.draw(st.lists(rows, min_size=batch, max_size=batch), label="t"),
                     dtype=np.int64).reshape(batch, dim)
        t_view = data.draw(st.sampled_from([t, t[::-1, ::-1].copy()[::-1, ::-1], np.repeat(t, 2, axis=1)[:, ::2]]),
                           label="target layout")
        sizeAverage = data.draw(st.booleans(), label="sizeAverage")
        c, ref = nn.MultiLabelMarginCriterion(sizeAverage), nn.MultiLabelMarginCriterion(sizeAverage)
        xc = np.ascontiguousarray(x)
        loss = c.forward(x, t_view)
        assert loss == ref.forward(xc, t)
        np.testing.assert_array_equal(c.backward(x, t_view), ref.backward(xc, t))
        want_loss, want_grad, want_is_target = numpy_mlm(xc, t, sizeAverage)
        np.testing.assert_allclose(loss, want_loss, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(c.gradInput, want_grad, rtol=1e-12, atol=1e-13)
        np.testing.assert_array_equal(c.isTarget, want_is_target)
    run_hypothesis(check)
