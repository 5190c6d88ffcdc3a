"""nn_legacy.BCECriterion and the BCECriterion_* kernels: for probabilities x,
-sum w (t log x + (1 - t) log(1 - x)) with logs clamped at -100, divided by the
element count with sizeAverage; optional weights per element (or per class,
broadcast over the batch)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

SHAPE = (4, 3)
CLASS_WEIGHTS = np.array([0.5, 2.0, 1.5])
ELEMENT_WEIGHTS = uniform(SHAPE, 9, 0.1, 3.0)


def probabilities(shape, seed):
    return uniform(shape, seed, 0.02, 0.98)


def binary(shape, seed):
    return (uniform(shape, seed) > 0).astype(np.float64)


def numpy_bce(x, t, weights=None, sizeAverage=True):
    """(loss, gradient) by the docstring's formula."""
    w = np.ones_like(x) if weights is None else np.broadcast_to(weights, x.shape)
    with np.errstate(divide="ignore"):
        log_x, log_1mx = np.maximum(np.log(x), -100), np.maximum(np.log1p(-x), -100)
    n = x.size if sizeAverage else 1
    loss = -(w * (t * log_x + (1 - t) * log_1mx)).sum() / n
    return loss, w * (x - t) / np.maximum(x * (1 - x), 1e-12) / n


VARIANTS = {
    "plain": dict(),
    "sum": dict(sizeAverage=False),
    "class weights": dict(weights=CLASS_WEIGHTS),
    "element weights sum": dict(weights=ELEMENT_WEIGHTS, sizeAverage=False),
}


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_numpy(options):
    x, t = probabilities(SHAPE, 1), binary(SHAPE, 2)
    loss, grad = numpy_bce(x, t, **options)
    check_criterion_values(nn.BCECriterion(**options), x, t, loss, grad)


@pytest.mark.parametrize("soft", [False, True], ids=["binary targets", "soft targets"])
@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_matches_torch(options, soft):
    torch = torch_or_skip()
    x = probabilities(SHAPE, 1)
    t = probabilities(SHAPE, 2) if soft else binary(SHAPE, 2)
    weight = torch.from_numpy(options["weights"]) if "weights" in options else None

    def loss_fn(i, t):
        return torch.nn.functional.binary_cross_entropy(
            i, t, weight=weight, reduction="mean" if options.get("sizeAverage", True) else "sum")

    check_criterion_matches_torch(nn.BCECriterion(**options), loss_fn, x, t)


def test_probabilities_of_exactly_0_and_1_stay_finite_as_in_torch():
    """Decided: PyTorch's clamps (log >= -100, x (1 - x) >= 1e-12), so a
    confident wrong answer costs 100, not inf."""
    torch = torch_or_skip()
    x = np.array([0.0, 1.0, 0.0, 1.0, 0.5])
    t = np.array([1.0, 0.0, 0.0, 1.0, 1.0])
    c = nn.BCECriterion(sizeAverage=False)
    loss = c.forward(x, t)
    np.testing.assert_allclose(loss, 200 + np.log(2), rtol=1e-15)
    grad = c.backward(x, t)
    np.testing.assert_array_equal(grad, [-1e12, 1e12, 0.0, 0.0, -2.0])
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.binary_cross_entropy(tx, torch.from_numpy(t), reduction="sum")
    tl.backward()
    assert loss == tl.item()
    # torch's clamp is the float32 constant 1e-12f = 0.99999999600e-12, so its
    # gradients at 0 and 1 are 1.000000004e12: the same up to that constant
    np.testing.assert_allclose(grad, tx.grad.numpy(), rtol=5e-9)


def test_single_sample_and_3d():
    for shape in [(5,), (2, 3, 4)]:
        x, t = probabilities(shape, 1), binary(shape, 2)
        loss, grad = numpy_bce(x, t)
        c = nn.BCECriterion()
        np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
        np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


def test_defaults():
    c = nn.BCECriterion()
    assert c.weights is None and c.sizeAverage
    np.testing.assert_allclose(c.forward(np.array([0.5, 0.5]), np.array([1.0, 0.0])), np.log(2), rtol=1e-15)


def test_float32_call_leaves_float64_weights_exact():
    weights = np.array([0.1, 0.3, 0.7])  # not representable in float32
    c = nn.BCECriterion(weights)
    x, t = probabilities(SHAPE, 1), binary(SHAPE, 2)
    before = c.forward(x, t)
    assert c.backward(x.astype(np.float32), t).dtype == np.float32
    assert abs(c.forward(x.astype(np.float32), t) - before) < 1e-4 * before
    assert c.forward(x, t) == before
    np.testing.assert_array_equal(c.weights, weights)


def test_noncontiguous_weights():
    x, t = probabilities(SHAPE, 1), binary(SHAPE, 2)
    expected = nn.BCECriterion(ELEMENT_WEIGHTS).forward(x, t)
    c = nn.BCECriterion()
    c.weights = ELEMENT_WEIGHTS[::-1, ::-1].copy()[::-1, ::-1]
    assert not c.weights.flags.c_contiguous
    assert c.forward(x, t) == expected


def test_weights_with_as_many_elements_pair_up_in_order():
    """As Torch7: a weight array of another shape but input's element count is read in order."""
    x, t = probabilities(SHAPE, 1), binary(SHAPE, 2)
    c = nn.BCECriterion(ELEMENT_WEIGHTS.ravel())
    assert c.forward(x, t) == nn.BCECriterion(ELEMENT_WEIGHTS).forward(x, t)


def test_repr():
    assert repr(nn.BCECriterion()) == "nn.BCECriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, shown", [(1.5, "1.5"), (-0.25, "-0.25"), (np.nan, "nan")])
def test_input_outside_0_1(bad, shown):
    x, t = probabilities(SHAPE, 1), binary(SHAPE, 2)
    x[1, 2] = bad
    c = nn.BCECriterion()
    msg = f"input must hold probabilities in [0, 1], got {shown} at flat index 5"
    with raises_exactly(thnn.THNNError, "BCECriterion_updateOutput: " + msg):
        c.forward(x, t)
    with raises_exactly(thnn.THNNError, "BCECriterion_updateGradInput: " + msg):
        c.backward(x, t)


def test_input_outside_0_1_in_a_strided_view():
    x = probabilities((4, 6), 1)
    x[2, 4] = 2.0
    with raises_exactly(thnn.THNNError, "BCECriterion_updateOutput: input must hold probabilities in [0, 1], "
                                        "got 2 at flat index 8"):
        nn.BCECriterion().forward(x[:, ::2], binary((4, 3), 2))  # x[2, 4] is the view's [2, 2]


def test_element_count_mismatch():
    # the kernels only count elements
    x, t = probabilities(SHAPE, 1), binary((4,), 2)
    check_element_count_mismatch(nn.BCECriterion(), x, t, "(2D of size [4, 3]), got 1D of size [4]", None)


@pytest.mark.parametrize("weights", [np.ones(2), np.ones(4), np.ones((2, 3))], ids=["2", "4", "2x3"])
def test_wrong_weights_shape(weights):
    c = nn.BCECriterion(weights)
    with raises_exactly(ValueError, f"BCECriterion: weights must have input's number of elements or broadcast "
                                    f"to its shape [4, 3], got shape {list(weights.shape)}"):
        c.forward(probabilities(SHAPE, 1), binary(SHAPE, 2))


def test_kernel_checks_the_weights_count():
    with raises_exactly(thnn.THNNError, "BCECriterion_updateGradInput: weights must be the same number of "
                                        "elements as input (2D of size [4, 3]), got 1D of size [3]"):
        thnn.Double.BCECriterion_updateGradInput(probabilities(SHAPE, 1), binary(SHAPE, 2), None, True,
                                                 CLASS_WEIGHTS)


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "BCECriterion_updateOutput: weights must be float64 like the other tensors, "
                                   "got float32"):
        thnn.Double.BCECriterion_updateOutput(probabilities(SHAPE, 1), binary(SHAPE, 2), None, True,
                                              ELEMENT_WEIGHTS.astype(np.float32))
