"""nn_legacy.WeightedMSECriterion: sum (x - w t)^2 (the weight scales the
target, as in Torch7), averaged over the elements with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_criterion_matches_torch, raises_exactly, torch_or_skip, uniform

# (input shape, weight shape): a weight per element, or one sample's weight for every sample
LAYOUTS = [((7,), (7,)), ((4, 5), (5,)), ((4, 5), (4, 5)), ((2, 3, 4), (3, 4))]


def numpy_weighted_mse(x, t, w, sizeAverage=True):
    target = np.broadcast_to(w, x.shape) * t.reshape(x.shape)
    n = x.size if sizeAverage and x.size else 1
    return ((x - target) ** 2).sum() / n, 2 * (x - target) / n


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape, wshape", LAYOUTS, ids=str)
def test_matches_numpy(shape, wshape, sizeAverage):
    x, t, w = uniform(shape, 1), uniform(shape, 2), uniform(wshape, 3)
    c = nn.WeightedMSECriterion(w, sizeAverage)
    loss, grad = numpy_weighted_mse(x, t, w, sizeAverage)
    assert isinstance(c.forward(x, t), float)
    np.testing.assert_allclose(c.forward(x, t), loss, rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), grad, rtol=1e-14)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
def test_matches_torch(sizeAverage, reduction):
    torch = torch_or_skip()
    x, t, w = uniform((4, 5), 1), uniform((4, 5), 2), uniform((5,), 3)

    def loss_fn(i, t):
        return torch.nn.functional.mse_loss(i, torch.from_numpy(w) * t, reduction=reduction)

    check_criterion_matches_torch(nn.WeightedMSECriterion(w, sizeAverage), loss_fn, x, t)


def test_weight_scales_the_target_not_the_error():
    c = nn.WeightedMSECriterion(np.array([2.0, 0.0]), sizeAverage=False)
    assert c.forward(np.array([1.0, 1.0]), np.array([1.0, 5.0])) == 1.0 + 1.0
    assert c.sizeAverage is False and nn.WeightedMSECriterion(np.ones(2)).sizeAverage


def test_unit_weight_is_mse():
    x, t = uniform((4, 5), 1), uniform((4, 5), 2)
    assert nn.WeightedMSECriterion(np.ones(5)).forward(x, t) == pytest.approx(
        nn.MSECriterion().forward(x, t), rel=1e-14)


def test_weight_is_copied():
    w = np.ones(3)
    c = nn.WeightedMSECriterion(w)
    w[:] = 5
    np.testing.assert_array_equal(c.weight, np.ones(3))


def test_target_of_another_shape_but_for_size_1_dims_is_read_in_order():
    x, t, w = uniform((3, 4), 1), uniform((3, 1, 4), 2), uniform((4,), 3)
    c = nn.WeightedMSECriterion(w)
    np.testing.assert_allclose(c.forward(x, t), numpy_weighted_mse(x, t, w)[0], rtol=1e-14)
    assert c.backward(x, t).shape == (3, 4)


def test_empty_batch_gives_zero_loss():
    c = nn.WeightedMSECriterion(np.ones(3))
    assert c.forward(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
    assert c.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)


def test_repr():
    assert repr(nn.WeightedMSECriterion(np.ones(2))) == "nn.WeightedMSECriterion"


# ---------------------------------------------------------------- bad input
def test_weight_shape_must_fit_the_input():
    with raises_exactly(ValueError, "WeightedMSECriterion: weight must have the shape of input (2D of size [4, 5]) "
                                    "or of one sample, got 1D of size [4]"):
        nn.WeightedMSECriterion(np.ones(4)).forward(uniform((4, 5)), uniform((4, 5)))


def test_target_element_count_must_match():
    with raises_exactly(ValueError, "WeightedMSECriterion: target must have the shape of input [4, 5] "
                                    "(size-1 dims aside), got [4, 4]"):
        nn.WeightedMSECriterion(np.ones(5)).backward(uniform((4, 5)), uniform((4, 4)))
