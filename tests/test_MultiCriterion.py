"""nn_legacy.MultiCriterion: a weighted sum of criterions on the same input and target."""
import numpy as np

import nn_legacy as nn
from nn_legacy.serialization.t7 import LuaTable, TorchObject, _Converter, _nn_classes
from layer_checks import (assert_table_criterion_gradient,
                          classes, raises_exactly, uniform)


def nll_and_cross_entropy():
    """Torch7's documentation example: 0.5 NLL + 1 cross-entropy, on scores with class targets."""
    return nn.MultiCriterion().add(nn.ClassNLLCriterion(), 0.5).add(nn.CrossEntropyCriterion())


def scores(n=5, seed=1):
    return uniform((n, 4), seed), classes(n, 4, seed + 1)


def pair_criterions():
    """Two criterions on the same table input [x1, x2] (DistanceRatio reads
    no target, Cosine its labels)."""
    return nn.MultiCriterion().add(nn.CosineEmbeddingCriterion(0.1), 2.0).add(nn.DistanceRatioCriterion(), -0.5)


def pair_input(n=6, seed=1):
    x = [uniform((n, 3), seed, 0, 2), uniform((n, 3), seed + 1, 0, 2)]
    return x, np.where(np.arange(n) % 2 == 0, 1.0, -1.0)


def test_weighted_sum_of_losses_and_gradients():
    x, t = scores()
    c = nll_and_cross_entropy()
    nll, ce = nn.ClassNLLCriterion(), nn.CrossEntropyCriterion()
    assert isinstance(c.forward(x, t), float)
    np.testing.assert_allclose(c.forward(x, t), 0.5 * nll.forward(x, t) + ce.forward(x, t), rtol=1e-15)
    np.testing.assert_allclose(c.backward(x, t), 0.5 * nll.backward(x, t) + ce.backward(x, t), rtol=1e-15)


def test_add_returns_self_and_keeps_order():
    c = nn.MultiCriterion()
    mse, abs_like = nn.MSECriterion(), nn.HingeEmbeddingCriterion()
    assert c.add(mse, 3) is c
    c.add(abs_like)
    assert c.criterions == [mse, abs_like] and c.weights == [3.0, 1.0]


def test_table_input():
    x, y = pair_input()
    c = pair_criterions()
    cos, ratio = nn.CosineEmbeddingCriterion(0.1), nn.DistanceRatioCriterion()
    np.testing.assert_allclose(c.forward(x, y), 2 * cos.forward(x, y) - 0.5 * ratio.forward(x, y), rtol=1e-15)
    grads = c.backward(x, y)
    assert isinstance(grads, list) and len(grads) == 2
    for g, gc, gr in zip(grads, cos.backward(x, y), ratio.backward(x, y)):
        np.testing.assert_allclose(g, 2 * gc - 0.5 * gr, rtol=1e-15)
    assert_table_criterion_gradient(c, x, y)


def test_same_criterion_twice():
    x, t = scores()
    mse = nn.MSECriterion()
    c = nn.MultiCriterion().add(mse, 1).add(mse, 2)
    target = uniform(x.shape, 9)
    np.testing.assert_allclose(c.forward(x, target), 3 * mse.forward(x, target), rtol=1e-15)
    np.testing.assert_allclose(c.backward(x, target), 3 * mse.backward(x, target), rtol=1e-15)


def test_no_criterion_gives_zero():
    c = nn.MultiCriterion()
    x, t = scores()
    assert c.forward(x, t) == 0.0
    np.testing.assert_array_equal(c.backward(x, t), np.zeros_like(x))


def test_float_converts_the_children():
    c = nn.MultiCriterion().add(nn.MultiLabelSoftMarginCriterion(np.ones(4))).float()
    assert c.criterions[0].weights.dtype == np.float32


def test_empty_batch():
    c = nn.MultiCriterion().add(nn.MSECriterion()).add(nn.HingeEmbeddingCriterion(), 2)
    assert c.forward(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
    assert c.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)


def test_clear_state_reaches_the_children():
    c = nll_and_cross_entropy()
    x, t = scores()
    c.forward(x, t)
    c.backward(x, t)
    c.clearState()
    assert c.gradInput is None and all(child.gradInput is None for child in c.criterions)


def test_repr():
    assert repr(nn.MultiCriterion()) == "nn.MultiCriterion"
    assert repr(nll_and_cross_entropy()) == ("nn.MultiCriterion {\n  (0) 0.5 * nn.ClassNLLCriterion\n"
                                              "  (1) 1 * nn.CrossEntropyCriterion\n}")


# ---------------------------------------------------------------- bad input
def test_add_takes_criterions_and_numbers():
    with raises_exactly(TypeError, "MultiCriterion.add: expected a Criterion, got Linear"):
        nn.MultiCriterion().add(nn.Linear(2, 2))
    with raises_exactly(TypeError, "MultiCriterion: weight must be a number, got str"):
        nn.MultiCriterion().add(nn.MSECriterion(), "1")


def test_children_errors_pass_through():
    x, t = scores()
    with raises_exactly(ValueError, "HingeEmbeddingCriterion: target must hold only 1 or -1, got 0 at index (0, 0)"):
        nn.MultiCriterion().add(nn.MSECriterion()).add(nn.HingeEmbeddingCriterion()).forward(x, np.zeros_like(x))


def test_a_child_gradient_of_the_wrong_shape_is_named():
    class Broken(nn.MSECriterion):
        def updateGradInput(self, input, target):
            return super().updateGradInput(input, target)[:1]

    x = uniform((3, 2))
    with raises_exactly(ValueError, "MultiCriterion: criterion 1 (Broken) returned a gradient of 2D of size [1, 2] "
                                    "for an input of 2D of size [3, 2]"):
        nn.MultiCriterion().add(nn.MSECriterion()).add(Broken()).backward(x, x)


def test_input_must_hold_float_arrays():
    with raises_exactly(TypeError, "MultiCriterion: input[1] must be a numpy array, got str"):
        nn.MultiCriterion().backward([np.zeros(2), "x"], None)
    with raises_exactly(TypeError, "MultiCriterion: input[0][1] must be float32 or float64, got int64"):
        nn.MultiCriterion().backward([[np.zeros(2), np.zeros(2, dtype=np.int64)]], None)


def test_loaded_from_torch7():
    """Torch7 stores the weights in a DoubleStorage: after load_lua's fixup
    they are a list again, and add works."""
    hinge = TorchObject("nn.HingeEmbeddingCriterion", 1)
    hinge.fields = LuaTable(margin=1.0, sizeAverage=True, output=0.0, gradInput=np.zeros(0))
    stored = TorchObject("nn.MultiCriterion", 1)
    stored.fields = LuaTable(criterions=LuaTable({1.0: hinge}), weights=np.array([2.0]), output=0.0,
                             gradInput=np.zeros(0))
    c = _Converter(_nn_classes()).convert(stored)
    assert isinstance(c, nn.MultiCriterion) and c.weights == [2.0]
    c.add(nn.HingeEmbeddingCriterion(), 3)
    x, y = uniform((2, 3)), np.ones((2, 3))
    np.testing.assert_allclose(c.forward(x, y), 5 * nn.HingeEmbeddingCriterion().forward(x, y), rtol=1e-15)
