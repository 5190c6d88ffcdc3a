"""nn_legacy.SpatialClassNLLCriterion and the SpatialClassNLLCriterion_* kernels:
ClassNLLCriterion at every pixel of a [batch, nClasses, h, w] input with a
[batch, h, w] target: -sum w[c] x[b, c, y, x], divided by the sum of the counted
weights with sizeAverage; 0-based targets; ignore_index counts for nothing."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, check_criterion_matches_torch, check_criterion_values, raises_exactly,
                          run_hypothesis, torch_or_skip, uniform)

N_CLASSES = 3
WEIGHTS = np.array([0.5, 2.0, 1.5])
SHAPE = (2, N_CLASSES, 3, 4)


def log_probs(shape=SHAPE, seed=1):
    """Per-pixel log-probabilities (log-softmax over dim 1)."""
    x = uniform(shape, seed)
    return x - np.log(np.exp(x).sum(axis=1, keepdims=True))


def pixel_classes(shape=SHAPE, seed=2):
    batch, n, h, w = shape
    t = np.random.default_rng(seed).integers(0, n, size=(batch, h, w)).astype(np.int64)
    t.reshape(-1)[:n] = np.arange(n)  # every class appears
    return t


def numpy_spatial_nll(x, t, weights=None, sizeAverage=True, ignore_index=-100):
    """(loss, gradient) by the docstring's formula."""
    loss, total, grad = 0.0, 0.0, np.zeros_like(x)
    for b, yy, xx in np.ndindex(*t.shape):
        c = t[b, yy, xx]
        if c == ignore_index:
            continue
        w = 1.0 if weights is None else weights[c]
        loss -= w * x[b, c, yy, xx]
        total += w
        grad[b, c, yy, xx] = -w
    norm = total if sizeAverage and total != 0 else 1.0
    return loss / norm, grad / norm


VARIANTS = {
    "plain": dict(),
    "sum": dict(sizeAverage=False),
    "weights": dict(weights=WEIGHTS),
    "weights sum": dict(weights=WEIGHTS, sizeAverage=False),
    "ignore": dict(ignore_index=2),
    "weights ignore": dict(weights=WEIGHTS, ignore_index=0),
}


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, t = log_probs(), pixel_classes()
    loss, grad = numpy_spatial_nll(x, t, **options)
    check_criterion_values(nn.SpatialClassNLLCriterion(**options), x, t, loss, grad)


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch_nll_loss_on_4d_input(options):
    torch = torch_or_skip()
    x, t = log_probs(), pixel_classes()
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None

    def loss_fn(i, t):
        return torch.nn.functional.nll_loss(i, t, weight=weight,
                                            ignore_index=options.get("ignore_index", -100),
                                            reduction="mean" if options.get("sizeAverage", True) else "sum")

    check_criterion_matches_torch(nn.SpatialClassNLLCriterion(**options), loss_fn, x, t)


def test_equals_class_nll_on_the_pixels_as_rows():
    x, t = log_probs(), pixel_classes()
    rows = x.transpose(0, 2, 3, 1).reshape(-1, N_CLASSES)
    flat = nn.ClassNLLCriterion(WEIGHTS, ignore_index=1)
    spatial = nn.SpatialClassNLLCriterion(WEIGHTS, ignore_index=1)
    np.testing.assert_allclose(spatial.forward(x, t), flat.forward(rows, t.reshape(-1)), rtol=1e-14)
    np.testing.assert_allclose(spatial.backward(x, t).transpose(0, 2, 3, 1).reshape(-1, N_CLASSES),
                               flat.backward(rows, t.reshape(-1)), rtol=1e-14)
    np.testing.assert_array_equal(spatial.total_weight_tensor, flat.total_weight_tensor)


def test_defaults():
    c = nn.SpatialClassNLLCriterion()
    assert (c.weights, c.sizeAverage, c.ignore_index) == (None, True, -100)


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
def test_all_targets_ignored_gives_zero_loss_and_gradient(sizeAverage):
    c = nn.SpatialClassNLLCriterion(WEIGHTS, sizeAverage, ignore_index=1)
    x, t = log_probs(), np.ones((2, 3, 4), dtype=np.int64)
    assert c.forward(x, t) == 0.0
    assert c.total_weight_tensor[0] == 0.0
    np.testing.assert_array_equal(c.backward(x, t), np.zeros(SHAPE))


def test_ignore_index_outside_the_class_range():
    x, t = log_probs(), pixel_classes()
    t[0, 0, :] = -1
    loss, grad = numpy_spatial_nll(x, t, ignore_index=-1)
    check_criterion_values(nn.SpatialClassNLLCriterion(ignore_index=-1), x, t, loss, grad)


def test_backward_without_forward_computes_the_total_weight():
    x, t = log_probs(), pixel_classes()
    expected = nn.SpatialClassNLLCriterion(WEIGHTS)
    expected.forward(x, t)
    np.testing.assert_array_equal(nn.SpatialClassNLLCriterion(WEIGHTS).backward(x, t), expected.backward(x, t))


def test_float32_call_leaves_float64_weights_exact():
    weights = np.array([0.1, 0.3, 0.7])  # not representable in float32
    x, t = log_probs(), pixel_classes()
    c = nn.SpatialClassNLLCriterion(weights)
    before = c.forward(x, t)
    c.forward(x.astype(np.float32), t)
    assert c.backward(x.astype(np.float32), t).dtype == np.float32
    assert c.forward(x, t) == before
    np.testing.assert_array_equal(c.weights, weights)


def test_noncontiguous_weights():
    x, t = log_probs(), pixel_classes()
    expected = nn.SpatialClassNLLCriterion(WEIGHTS).forward(x, t)
    c = nn.SpatialClassNLLCriterion(WEIGHTS)
    c.weights = WEIGHTS[::-1].copy()[::-1]
    assert not c.weights.flags.c_contiguous
    assert c.forward(x, t) == expected


def test_empty_batch_gives_zero_loss():
    c = nn.SpatialClassNLLCriterion()
    x, t = np.zeros((0, N_CLASSES, 2, 2)), np.zeros((0, 2, 2), dtype=np.int64)
    assert c.forward(x, t) == 0.0
    assert c.backward(x, t).shape == (0, N_CLASSES, 2, 2)


def test_repr():
    assert repr(nn.SpatialClassNLLCriterion()) == "nn.SpatialClassNLLCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, where", [(N_CLASSES, (0, 1, 2)), (-1, (1, 0, 0)), (-100, (1, 2, 3))], ids=str)
def test_target_out_of_range(bad, where):
    t = pixel_classes()
    t[where] = bad
    c = nn.SpatialClassNLLCriterion(ignore_index=-7)
    msg = f"target {bad} at [{where[0]}, {where[1]}, {where[2]}] is out of range [0, {N_CLASSES})"
    with raises_exactly(thnn.THNNError, "SpatialClassNLLCriterion_updateOutput: " + msg):
        c.forward(log_probs(), t)
    with raises_exactly(thnn.THNNError, "SpatialClassNLLCriterion_updateGradInput: " + msg):
        thnn.Double.SpatialClassNLLCriterion_updateGradInput(log_probs(), t, None, True, None, np.ones(1), -7)


@pytest.mark.parametrize("t, described", [
    (np.zeros((2, 4, 3), dtype=np.int64), "3D of size [2, 4, 3]"),
    (np.zeros((1, 3, 4), dtype=np.int64), "3D of size [1, 3, 4]"),
    (np.zeros((2, 12), dtype=np.int64), "2D of size [2, 12]"),
    (np.zeros((2, 1, 3, 4), dtype=np.int64), "4D of size [2, 1, 3, 4]"),
])
def test_target_of_the_wrong_shape(t, described):
    with raises_exactly(thnn.THNNError, f"SpatialClassNLLCriterion_updateOutput: target must be 3D of size "
                                        f"[2, 3, 4] (a class index per pixel), got {described}"):
        nn.SpatialClassNLLCriterion().forward(log_probs(), t)


@pytest.mark.parametrize("shape, described", [((2, 3), "2D of size [2, 3]"), ((3, 3, 4), "3D of size [3, 3, 4]")])
def test_input_must_be_4d(shape, described):
    with raises_exactly(thnn.THNNError, f"SpatialClassNLLCriterion_updateOutput: input must be 4D "
                                        f"[batch, nClasses, height, width], got {described}"):
        nn.SpatialClassNLLCriterion().forward(np.zeros(shape), np.zeros((3, 4), dtype=np.int64))


def test_wrong_weights_length():
    with raises_exactly(thnn.THNNError, "SpatialClassNLLCriterion_updateOutput: weights must be 1D of size [3], "
                                        "got 1D of size [4]"):
        nn.SpatialClassNLLCriterion(np.ones(4)).forward(log_probs(), pixel_classes())


def test_weights_must_be_1d():
    with raises_exactly(ValueError, "SpatialClassNLLCriterion: weights must be 1D [nClasses], got shape (3, 1)"):
        nn.SpatialClassNLLCriterion(np.ones((3, 1)))


def test_kernel_checks_total_weight():
    x, t = log_probs(), pixel_classes()
    with raises_exactly(thnn.THNNError, "SpatialClassNLLCriterion_updateGradInput: total_weight must be a "
                                        "1-element tensor, got 1D of size [2]"):
        thnn.Double.SpatialClassNLLCriterion_updateGradInput(x, t, None, True, None, np.ones(2), -100)


def test_non_integer_target():
    with raises_exactly(TypeError, "SpatialClassNLLCriterion_updateOutput: target must be an integer array "
                                   "(class indices), got float64"):
        nn.SpatialClassNLLCriterion().forward(log_probs(), pixel_classes().astype(np.float64))


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "SpatialClassNLLCriterion_updateOutput: weights must be float32 like the "
                                   "other tensors, got float64"):
        thnn.Float.SpatialClassNLLCriterion_updateOutput(log_probs().astype(np.float32), pixel_classes(), None,
                                                         True, WEIGHTS, None, -100)


@pytest.mark.slow
def test_any_sizes_options_and_layouts():
    """Batch 0 to 3, 1 to 4 classes, maps up to 3x3, any weights,
    ignore_index in or out of range, input in any layout (the kernel reads it
    through its strides) and strided targets: the numpy formula, and identical
    to contiguous copies."""
    st = pytest.importorskip("hypothesis.strategies")
    hnp = pytest.importorskip("hypothesis.extra.numpy")

    def check(data):
        batch, n = data.draw(st.integers(0, 3), label="batch"), data.draw(st.integers(1, 4), label="nClasses")
        h, w = data.draw(st.integers(1, 3), label="h"), data.draw(st.integers(1, 3), label="w")
        x = data.draw(arbitrary_views((batch, n, h, w)), label="x")
        t = data.draw(hnp.arrays(np.int64, (batch, h, w), elements=st.integers(0, n - 1)), label="t")
        layouts = [t, t[::-1, :, ::-1].copy()[::-1, :, ::-1], np.repeat(t, 2, axis=2)[..., ::2]]
        t_view = data.draw(st.sampled_from(layouts), label="target layout")
        weights = data.draw(st.none() | hnp.arrays(np.float64, n, elements=st.floats(0, 3)), label="weights")
        options = dict(weights=weights, sizeAverage=data.draw(st.booleans(), label="sizeAverage"),
                       ignore_index=data.draw(st.integers(-1, n), label="ignore_index"))
        c, ref = nn.SpatialClassNLLCriterion(**options), nn.SpatialClassNLLCriterion(**options)
        xc = np.ascontiguousarray(x)
        loss = c.forward(x, t_view)
        assert loss == ref.forward(xc, t)
        np.testing.assert_array_equal(c.backward(x, t_view), ref.backward(xc, t))
        want_loss, want_grad = numpy_spatial_nll(xc, t, **options)
        np.testing.assert_allclose(loss, want_loss, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(c.gradInput, want_grad, rtol=1e-12, atol=1e-13)
    run_hypothesis(check)
