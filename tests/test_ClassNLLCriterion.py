"""nn_legacy.ClassNLLCriterion and the ClassNLLCriterion_* kernels:
loss = -sum_i w[t_i] x[i, t_i], divided by sum_i w[t_i] with sizeAverage;
0-based targets; targets equal to ignore_index count for nothing."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, assert_criterion_gradient, check_criterion_matches_torch,
                          check_criterion_values, classes, raises_exactly, run_hypothesis, torch_or_skip, uniform)

N_CLASSES = 4
WEIGHTS = np.array([0.5, 2.0, 1.0, 3.0])


def log_probs(batch, seed=1):
    """A batch of log-probabilities (rows of log-softmax of uniform scores)."""
    x = uniform((batch, N_CLASSES), seed)
    return x - np.log(np.exp(x).sum(axis=1, keepdims=True))


def numpy_nll(x, t, weights=None, sizeAverage=True, ignore_index=-100):
    """(loss, gradient) by the docstring's formula."""
    x2 = np.atleast_2d(x)
    t = np.atleast_1d(t)
    w = np.array([0.0 if c == ignore_index else (1.0 if weights is None else weights[c]) for c in t])
    picked = np.array([x2[i, c] if w[i] else 0.0 for i, c in enumerate(t)])
    total = w.sum()
    norm = total if sizeAverage and total != 0 else 1.0
    grad = np.zeros_like(x2)
    for i, c in enumerate(t):
        if w[i]:
            grad[i, c] = -w[i] / norm
    return -(w * picked).sum() / norm, grad.reshape(x.shape)


VARIANTS = {
    "plain": dict(),
    "sum": dict(sizeAverage=False),
    "weights": dict(weights=WEIGHTS),
    "weights sum": dict(weights=WEIGHTS, sizeAverage=False),
    "ignore": dict(ignore_index=2),
    "weights ignore": dict(weights=WEIGHTS, ignore_index=1),
}


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, t = log_probs(6), classes(6, N_CLASSES, 2)
    t[:3] = [0, 1, 2]  # every variant meets weighted and ignored classes
    loss, grad = numpy_nll(x, t, **options)
    check_criterion_values(nn.ClassNLLCriterion(**options), x, t, loss, grad)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options):
    torch = torch_or_skip()
    x, t = log_probs(6), classes(6, N_CLASSES, 2)
    t[:3] = [0, 1, 2]
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None

    def loss_fn(i, t):
        return torch.nn.functional.nll_loss(i, t, weight=weight,
                                            ignore_index=options.get("ignore_index", -100),
                                            reduction="mean" if options.get("sizeAverage", True) else "sum")

    check_criterion_matches_torch(nn.ClassNLLCriterion(**options), loss_fn, x, t)


def test_single_sample_with_an_int_target():
    x = log_probs(1)[0]
    c = nn.ClassNLLCriterion()
    assert c.forward(x, 2) == -x[2]
    assert c.forward(x, np.int32(2)) == -x[2]
    assert c.forward(x, np.array([2])) == -x[2]
    np.testing.assert_array_equal(c.backward(x, 2), [0, 0, -1, 0])


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int16])
def test_integer_target_types(dtype):
    x, t = log_probs(5), classes(5, N_CLASSES, 2)
    c = nn.ClassNLLCriterion(WEIGHTS)
    assert c.forward(x, t.astype(dtype)) == c.forward(x, t)
    assert c.forward(x, t.tolist()) == c.forward(x, t)


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("weights", [None, WEIGHTS], ids=["unweighted", "weighted"])
def test_all_targets_ignored_gives_zero_loss_and_gradient(sizeAverage, weights):
    c = nn.ClassNLLCriterion(weights, sizeAverage, ignore_index=1)
    x = log_probs(4)
    t = np.array([1, 1, 1, 1])
    assert c.forward(x, t) == 0.0
    np.testing.assert_array_equal(c.backward(x, t), np.zeros((4, N_CLASSES)))
    assert c.total_weight_tensor[0] == 0.0
    assert_criterion_gradient(c, x, t)


def test_ignore_index_outside_the_class_range():
    x = log_probs(4)
    c = nn.ClassNLLCriterion(ignore_index=-1)
    t = np.array([-1, 0, -1, 3])
    np.testing.assert_allclose(c.forward(x, t), -(x[1, 0] + x[3, 3]) / 2, rtol=1e-15)


def test_zero_class_weight_counts_for_nothing():
    x = log_probs(3)
    c = nn.ClassNLLCriterion(np.array([0.0, 1.0, 1.0, 1.0]))
    np.testing.assert_allclose(c.forward(x, np.array([0, 1, 2])), -(x[1, 1] + x[2, 2]) / 2, rtol=1e-15)


def test_float32_after_float64_use():
    """The class weights follow the input's precision."""
    c = nn.ClassNLLCriterion(WEIGHTS)
    x, t = log_probs(6), classes(6, N_CLASSES, 2)
    loss64 = c.forward(x, t)
    loss32 = c.forward(x.astype(np.float32), t)
    assert abs(loss32 - loss64) < 1e-4 * abs(loss64)
    assert c.backward(x.astype(np.float32), t).dtype == np.float32


def test_float32_call_leaves_float64_weights_exact():
    weights = np.array([0.1, 0.3, 0.7, 0.9])  # not representable in float32
    x, t = log_probs(6), classes(6, N_CLASSES, 2)
    c = nn.ClassNLLCriterion(weights)
    before = c.forward(x, t)
    c.forward(x.astype(np.float32), t)
    c.backward(x.astype(np.float32), t)
    assert c.forward(x, t) == before
    np.testing.assert_array_equal(c.weights, weights)


def test_noncontiguous_weights():
    x, t = log_probs(5), classes(5, N_CLASSES, 2)
    expected = nn.ClassNLLCriterion(WEIGHTS).forward(x, t)
    c = nn.ClassNLLCriterion(WEIGHTS)
    c.weights = np.repeat(WEIGHTS, 2)[::2]
    assert not c.weights.flags.c_contiguous
    assert c.forward(x, t) == expected


def test_batch_equals_samples():
    x, t = log_probs(5), classes(5, N_CLASSES, 2)
    summed = nn.ClassNLLCriterion(WEIGHTS, sizeAverage=False)
    batch_loss = summed.forward(x, t)
    batch_grad = summed.backward(x, t).copy()
    per_sample, per_sample_grad = [], []
    for i in range(5):  # backward uses its own forward's total weight
        per_sample.append(summed.forward(x[i], t[i]))
        per_sample_grad.append(summed.backward(x[i], t[i]).copy())
    np.testing.assert_allclose(batch_loss, sum(per_sample), rtol=1e-14)
    np.testing.assert_array_equal(batch_grad, np.stack(per_sample_grad))
    mean = nn.ClassNLLCriterion(WEIGHTS)
    np.testing.assert_allclose(mean.forward(x, t), sum(per_sample) / WEIGHTS[t].sum(), rtol=1e-14)


def test_nan_in_a_target_entry_gives_nan_loss():
    x, t = log_probs(3), np.array([0, 1, 2])
    x[1, 1] = np.nan
    assert np.isnan(nn.ClassNLLCriterion().forward(x, t))
    x2 = log_probs(3)
    x2[1, 3] = np.nan  # not a target entry: the loss never reads it
    assert np.isfinite(nn.ClassNLLCriterion().forward(x2, t))


def test_empty_batch_gives_zero_loss():
    c = nn.ClassNLLCriterion()
    x, t = np.zeros((0, N_CLASSES)), np.zeros(0, dtype=np.int64)
    assert c.forward(x, t) == 0.0
    assert c.backward(x, t).shape == (0, N_CLASSES)


def test_repr():
    assert repr(nn.ClassNLLCriterion()) == "nn.ClassNLLCriterion"


@pytest.mark.slow
def test_any_sizes_options_and_layouts():
    """Batch 0 to 5, 1 to 5 classes, any weights, ignore_index in or out of
    range, input in any layout and targets reversed or strided: the numpy
    formula, and identical to contiguous copies."""
    st = pytest.importorskip("hypothesis.strategies")
    hnp = pytest.importorskip("hypothesis.extra.numpy")

    def check(data):
        batch, n = data.draw(st.integers(0, 5), label="batch"), data.draw(st.integers(1, 5), label="nClasses")
        x = data.draw(arbitrary_views((batch, n)), label="x")
        t = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=batch, max_size=batch)), dtype=np.int64)
        t_view = data.draw(st.sampled_from([t, t[::-1].copy()[::-1], np.repeat(t, 2)[::2]]), label="target")
        weights = data.draw(st.none() | hnp.arrays(np.float64, n, elements=st.floats(0, 3)), label="weights")
        options = dict(weights=weights, sizeAverage=data.draw(st.booleans(), label="sizeAverage"),
                       ignore_index=data.draw(st.integers(-1, n), label="ignore_index"))
        c, ref = nn.ClassNLLCriterion(**options), nn.ClassNLLCriterion(**options)
        xc = np.ascontiguousarray(x)
        loss = c.forward(x, t_view)
        assert loss == ref.forward(xc, t)
        np.testing.assert_array_equal(c.backward(x, t_view), ref.backward(xc, t))
        want_loss, want_grad = numpy_nll(xc, t, **options)
        np.testing.assert_allclose(loss, want_loss, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(c.gradInput, want_grad, rtol=1e-12, atol=1e-13)
    run_hypothesis(check)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, index", [(N_CLASSES, 2), (-1, 1), (99, 0), (-100, 3)])
def test_target_out_of_range(bad, index):
    t = np.array([0, 1, 2, 3])
    t[index] = bad
    c = nn.ClassNLLCriterion(ignore_index=-7)
    with raises_exactly(thnn.THNNError, f"ClassNLLCriterion_updateOutput: target {bad} at index {index} "
                                        f"is out of range [0, {N_CLASSES})"):
        c.forward(log_probs(4), t)


def test_target_out_of_range_in_backward():
    c = nn.ClassNLLCriterion()
    x = log_probs(4)
    c.forward(x, np.array([0, 1, 2, 3]))
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateGradInput: target 4 at index 3 "
                                        "is out of range [0, 4)"):
        c.backward(x, np.array([0, 1, 2, 4]))


def test_int_target_out_of_range_for_a_single_sample():
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: target 4 at index 0 "
                                        "is out of range [0, 4)"):
        nn.ClassNLLCriterion().forward(log_probs(1)[0], 4)


@pytest.mark.parametrize("t, described", [
    (np.array([0, 1, 2]), "1D of size [3]"),
    (np.array([0, 1, 2, 3, 0]), "1D of size [5]"),
    (np.zeros((4, 1), dtype=np.int64), "2D of size [4, 1]"),
])
def test_wrong_target_length(t, described):
    with raises_exactly(thnn.THNNError, f"ClassNLLCriterion_updateOutput: target must be 1D of size [4] "
                                        f"(one class index per sample), got {described}"):
        nn.ClassNLLCriterion().forward(log_probs(4), t)


def test_wrong_target_length_single_sample():
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: target must be 1D of size [1] "
                                        "(one class index per sample), got 1D of size [2]"):
        nn.ClassNLLCriterion().forward(log_probs(1)[0], np.array([0, 1]))


def test_wrong_weights_length():
    with raises_exactly(thnn.THNNError, "ClassNLLCriterion_updateOutput: weights must be 1D of size [4], "
                                        "got 1D of size [3]"):
        nn.ClassNLLCriterion(np.ones(3)).forward(log_probs(2), np.array([0, 1]))


def test_weights_must_be_1d():
    with raises_exactly(ValueError, "ClassNLLCriterion: weights must be 1D [nClasses], got shape (2, 2)"):
        nn.ClassNLLCriterion(np.ones((2, 2)))


@pytest.mark.parametrize("t, dtype", [(np.array([0.0, 1.0]), "float64"), (np.array([True, False]), "bool")])
def test_non_integer_target(t, dtype):
    with raises_exactly(TypeError, f"ClassNLLCriterion_updateOutput: target must be an integer array "
                                   f"(class indices), got {dtype}"):
        nn.ClassNLLCriterion().forward(log_probs(2), t)


@pytest.mark.parametrize("shape, described", [((2, 3, 4), "3D of size [2, 3, 4]")])
def test_wrong_input_ndim(shape, described):
    with raises_exactly(thnn.THNNError, f"ClassNLLCriterion_updateOutput: input must be 1D [nClasses] or "
                                        f"2D [batch, nClasses], got {described}"):
        nn.ClassNLLCriterion().forward(np.zeros(shape), np.array([0, 1]))
