"""nn_legacy.MSECriterion and the MSECriterion_* kernels: sum (x - t)^2, divided by
the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, check_criterion_buffer_reuse, check_criterion_pickle,
                          check_float32_criterion, check_noncontiguous_criterion, raises_exactly,
                          torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    c = nn.MSECriterion(sizeAverage)
    x, t = uniform(shape, 1), uniform(shape, 2)
    n = x.size if sizeAverage else 1
    loss = c.forward(x, t)
    assert isinstance(loss, float)
    np.testing.assert_allclose(loss, ((x - t) ** 2).sum() / n, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), 2 * (x - t) / n, rtol=1e-14)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), uniform(shape, 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.mse_loss(tx, torch.from_numpy(t), reduction=reduction)
    tl.backward()
    c = nn.MSECriterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), tl.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


def test_default_is_size_average():
    c = nn.MSECriterion()
    assert c.sizeAverage
    assert c.forward(np.array([1.0, 3.0]), np.array([0.0, 0.0])) == 5.0


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient(shape, sizeAverage):
    assert_criterion_gradient(nn.MSECriterion(sizeAverage), uniform(shape, 3), uniform(shape, 4))


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


def test_float32_matches_float64():
    check_float32_criterion(nn.MSECriterion(), uniform((6, 5), 1), uniform((6, 5), 2))
    check_float32_criterion(nn.MSECriterion(False), uniform((6, 5), 1), uniform((6, 5), 2))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input_and_target(shape):
    check_noncontiguous_criterion(nn.MSECriterion(), uniform(shape, 1), uniform(shape, 2))


def test_batch_sum_equals_sum_over_samples():
    x, t = uniform((5, 3), 1), uniform((5, 3), 2)
    summed = nn.MSECriterion(sizeAverage=False)
    batch_loss = summed.forward(x, t)
    batch_grad = summed.backward(x, t).copy()
    np.testing.assert_allclose(batch_loss, sum(summed.forward(x[i], t[i]) for i in range(5)), rtol=1e-14)
    np.testing.assert_allclose(batch_grad, np.stack([summed.backward(x[i], t[i]).copy() for i in range(5)]),
                               rtol=1e-14)


def test_buffer_reuse_across_batch_sizes():
    check_criterion_buffer_reuse(nn.MSECriterion(), uniform((8, 5), 1), uniform((8, 5), 2),
                                 uniform((4, 5), 3), uniform((4, 5), 4))


def test_pickle_round_trip():
    check_criterion_pickle(nn.MSECriterion(False), uniform((4, 5), 1), uniform((4, 5), 2))


def test_nan_gives_nan_loss_and_gradient_there_only():
    c = nn.MSECriterion()
    x, t = uniform((3, 4), 1), uniform((3, 4), 2)
    x[1, 1] = np.nan
    assert np.isnan(c.forward(x, t))
    grad = c.backward(x, t)
    expected_nan = np.zeros((3, 4), dtype=bool)
    expected_nan[1, 1] = True
    np.testing.assert_array_equal(np.isnan(grad), expected_nan)


def test_empty_input_gives_zero_loss():
    """Decided: no elements, no error (0, not the 0/0 a mean would give)."""
    for sizeAverage in (True, False):
        c = nn.MSECriterion(sizeAverage)
        assert c.forward(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
        assert c.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)


def test_repr():
    assert repr(nn.MSECriterion()) == "nn.MSECriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    c = nn.MSECriterion()
    msg = ("target must be the same number of elements as input (2D of size [2, 3]), "
           "got 2D of size [2, 4]")
    x, t = uniform((2, 3)), uniform((2, 4))
    with raises_exactly(thnn.THNNError, "MSECriterion_updateOutput: " + msg):   # the kernel only counts elements
        thnn.Double.MSECriterion_updateOutput(x, t, None, True)
    with raises_exactly(thnn.THNNError, "MSECriterion_updateGradInput: " + msg):
        thnn.Double.MSECriterion_updateGradInput(x, t, None, True)
    with pytest.raises(ValueError, match=r"^MSECriterion: target must have the shape of input \["):
        c.forward(x, t)
    with pytest.raises(ValueError, match=r"^MSECriterion: target must have the shape of input \["):
        c.backward(x, t)


def test_input_must_be_a_float_array():
    c = nn.MSECriterion()
    with raises_exactly(TypeError, "MSECriterion: input must be a numpy array, got list"):
        c.forward([[1.0, 2.0]], np.zeros((1, 2)))
    with raises_exactly(TypeError, "MSECriterion: input must be float32 or float64, got int64"):
        c.forward(np.ones((1, 2), dtype=np.int64), np.zeros((1, 2)))


def test_non_numeric_target():
    with raises_exactly(TypeError, "MSECriterion: target must be numeric, got <U1"):
        nn.MSECriterion().forward(np.zeros(2), np.array(["a", "b"]))


def test_zero_dimensional_input():
    with raises_exactly(thnn.THNNError, f"MSECriterion_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got 0"):
        nn.MSECriterion().forward(np.array(1.0), np.array([1.0]))
