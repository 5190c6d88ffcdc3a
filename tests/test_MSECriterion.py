"""nn_legacy.MSECriterion and the MSECriterion_* kernels: sum (x - t)^2, divided by
the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_criterion_matches_torch, check_criterion_values, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    x, t = uniform(shape, 1), uniform(shape, 2)
    n = x.size if sizeAverage else 1
    check_criterion_values(nn.MSECriterion(sizeAverage), x, t, ((x - t) ** 2).sum() / n, 2 * (x - t) / n)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), uniform(shape, 2)
    check_criterion_matches_torch(nn.MSECriterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.mse_loss(i, t, reduction=reduction), x, t)


def test_default_is_size_average():
    c = nn.MSECriterion()
    assert c.sizeAverage
    assert c.forward(np.array([1.0, 3.0]), np.array([0.0, 0.0])) == 5.0


def test_zero_at_the_target():
    c = nn.MSECriterion()
    x = uniform((3, 4), 1)
    assert c.forward(x, x.copy()) == 0.0
    np.testing.assert_array_equal(c.backward(x, x.copy()), np.zeros((3, 4)))


def test_target_of_another_shape_but_for_size_1_dims():
    """[N, 1] against [N] (common in Torch7 code): elements pair up in order.
    Other shapes of as many elements are refused (tests/test_pointwise_targets.py)."""
    c = nn.MSECriterion()
    x, t = uniform((12, 1), 1), uniform((12,), 2)
    np.testing.assert_allclose(c.forward(x, t), ((x.ravel() - t) ** 2).mean(), rtol=1e-14)
    grad = c.backward(x, t)
    assert grad.shape == (12, 1)
    np.testing.assert_allclose(grad, 2 * (x - t.reshape(12, 1)) / 12, rtol=1e-14)


def test_target_as_list_or_other_precision_is_converted():
    c = nn.MSECriterion()
    x, t = uniform((2, 3), 1), uniform((2, 3), 2)
    expected = c.forward(x, t)
    assert c.forward(x, t.tolist()) == expected
    t32 = t.astype(np.float32)
    assert c.forward(x, t32) == c.forward(x, t32.astype(np.float64))
    assert c.backward(x, t32).dtype == np.float64


def test_batch_sum_equals_sum_over_samples():
    x, t = uniform((5, 3), 1), uniform((5, 3), 2)
    summed = nn.MSECriterion(sizeAverage=False)
    batch_loss = summed.forward(x, t)
    batch_grad = summed.backward(x, t).copy()
    np.testing.assert_allclose(batch_loss, sum(summed.forward(x[i], t[i]) for i in range(5)), rtol=1e-14)
    np.testing.assert_allclose(batch_grad, np.stack([summed.backward(x[i], t[i]).copy() for i in range(5)]),
                               rtol=1e-14)


def test_nan_gives_nan_loss_and_gradient_there_only():
    c = nn.MSECriterion()
    x, t = uniform((3, 4), 1), uniform((3, 4), 2)
    x[1, 1] = np.nan
    assert np.isnan(c.forward(x, t))
    grad = c.backward(x, t)
    expected_nan = np.zeros((3, 4), dtype=bool)
    expected_nan[1, 1] = True
    np.testing.assert_array_equal(np.isnan(grad), expected_nan)


def test_repr():
    assert repr(nn.MSECriterion()) == "nn.MSECriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = uniform((2, 3)), uniform((2, 4))
    check_element_count_mismatch(nn.MSECriterion(), x, t, "(2D of size [2, 3]), got 2D of size [2, 4]")


def test_non_numeric_target():
    with raises_exactly(TypeError, "MSECriterion: target must be numeric, got <U1"):
        nn.MSECriterion().forward(np.zeros(2), np.array(["a", "b"]))


def test_zero_dimensional_input():
    with raises_exactly(thnn.THNNError, f"MSECriterion_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got 0"):
        nn.MSECriterion().forward(np.array(1.0), np.array([1.0]))
