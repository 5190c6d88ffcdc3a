"""Every pointwise criterion takes a target of the input's shape, or of the same shape once size-1 dims are
dropped ([N, 1] against [N], common in Torch7 code); any other shape is refused naming both, even with as many
elements (Torch7 only counted them, so [2, 3] against [3, 2] gave a number)."""
import inspect

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform

# criterion -> a target maker for a given shape
POINTWISE = {
    "MSECriterion": lambda shape: uniform(shape, 2),
    "AbsCriterion": lambda shape: uniform(shape, 2),
    "SmoothL1Criterion": lambda shape: uniform(shape, 2),
    "BCECriterion": lambda shape: (uniform(shape, 2) > 0).astype(np.float64),
    "DistKLDivCriterion": lambda shape: uniform(shape, 2, 0.1, 1.0),
    "MarginCriterion": lambda shape: np.sign(uniform(shape, 2)),
    "SoftMarginCriterion": lambda shape: np.sign(uniform(shape, 2)),
    "SpatialAutoCropMSECriterion": None,   # 3D/4D only: tested with its own file
}


def make(name, x):
    """The criterion, for input x (WeightedMSECriterion's weight is shaped as x)."""
    return nn.WeightedMSECriterion(np.ones(x.shape)) if name == "WeightedMSECriterion" else getattr(nn, name)()


def test_every_criterion_reading_targets_as_floats_is_listed():
    from nn_legacy.Criterion import Criterion
    users = sorted(name for name in nn.__all__ if isinstance(getattr(nn, name), type)
                   and issubclass(getattr(nn, name), Criterion)
                   and any("_float_target" in inspect.getsource(k) for k in getattr(nn, name).__mro__
                           if k.__module__.startswith("nn_legacy") and k is not Criterion))
    assert users == sorted(POINTWISE)


@pytest.mark.parametrize("name", sorted(n for n, t in POINTWISE.items() if t) + ["WeightedMSECriterion"])
def test_size_1_dims_aside_the_shapes_must_agree(name):
    target = POINTWISE.get(name) or (lambda shape: uniform(shape, 2))
    x = uniform((4, 1), 1, 0.1, 0.9)
    c = make(name, x)
    loss = c.forward(x, target((4, 1)))
    assert c.forward(x, target((4, 1)).reshape(4)) == loss             # [N, 1] against [N]
    assert make(name, x.reshape(4)).forward(x.reshape(4), target((4, 1))) == loss   # and the other way round
    assert c.backward(x, target((4, 1)).reshape(1, 4)).shape == (4, 1)
    x, t = uniform((2, 3), 1, 0.1, 0.9), target((3, 2))
    c = make(name, x)
    with raises_exactly(ValueError, f"{name}: target must have the shape of input [2, 3] (size-1 dims aside), "
                                    f"got [3, 2]"):
        c.forward(x, t)
    with raises_exactly(ValueError, f"{name}: target must have the shape of input [2, 3] (size-1 dims aside), "
                                    f"got [6]"):
        c.backward(x, t.reshape(6))
