"""nn_legacy.SpatialAutoCropMSECriterion: MSE against the centre of a larger target."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_criterion_gradient, check_float32_criterion, raises_exactly, uniform
from numpy_checks import from_torch7


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape, target_shape", [((3, 4, 5), (3, 7, 8)), ((2, 3, 4, 5), (2, 3, 4, 6)),
                                                 ((2, 3, 4, 5), (2, 3, 4, 5))], ids=["3D", "4D", "same"])
def test_crops_the_centre(shape, target_shape, sizeAverage):
    c = nn.SpatialAutoCropMSECriterion(sizeAverage)
    x, t = uniform(shape, 1), uniform(target_shape, 2)
    (h, w), (ht, wt) = shape[-2:], target_shape[-2:]
    centre = t[..., (ht - h) // 2:(ht - h) // 2 + h, (wt - w) // 2:(wt - w) // 2 + w]
    reference = nn.MSECriterion(sizeAverage)
    assert c.forward(x, t) == reference.forward(x, centre)
    np.testing.assert_array_equal(c.backward(x, t), reference.backward(x, centre))
    assert_criterion_gradient(c, x, t)
    check_float32_criterion(c, x, t)


def test_bad_shapes():
    c = nn.SpatialAutoCropMSECriterion()
    with raises_exactly(ValueError, "SpatialAutoCropMSECriterion: the input's planes (4x5) must be no larger than "
                                    "the target's (3x8)"):
        c.forward(uniform((2, 4, 5)), uniform((2, 3, 8)))
    with raises_exactly(ValueError, "SpatialAutoCropMSECriterion: input and target must both be 3D [planes, H, W] "
                                    "or 4D [batch, planes, H, W], got 2D of size [4, 5] and 2D of size [4, 5]"):
        c.forward(uniform((4, 5)), uniform((4, 5)))
    with raises_exactly(ValueError, "SpatialAutoCropMSECriterion: target must have the shape of input [2, 4, 5] "
                                    "(size-1 dims aside), got [3, 4, 5]"):
        c.backward(uniform((2, 4, 5)), uniform((3, 6, 7)))


def test_loads_from_torch7_fields():
    c = from_torch7("nn.SpatialAutoCropMSECriterion", sizeAverage=False)
    assert c.forward(np.ones((1, 2, 2)), np.zeros((1, 4, 4))) == 4.0
