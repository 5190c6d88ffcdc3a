"""nn_legacy.AbsCriterion and the AbsCriterion_* kernels: sum |x - t|, divided by
the element count with sizeAverage."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_criterion_gradient, check_criterion_matches_torch, check_element_count_mismatch,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, sizeAverage):
    c = nn.AbsCriterion(sizeAverage)
    x, t = uniform(shape, 1), uniform(shape, 2)
    n = x.size if sizeAverage else 1
    loss = c.forward(x, t)
    assert isinstance(loss, float)
    np.testing.assert_allclose(loss, np.abs(x - t).sum() / n, rtol=1e-14)
    np.testing.assert_array_equal(c.backward(x, t), np.sign(x - t) / n)


@pytest.mark.parametrize("sizeAverage, reduction", [(True, "mean"), (False, "sum")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, sizeAverage, reduction):
    torch = torch_or_skip()
    x, t = uniform(shape, 1), uniform(shape, 2)
    check_criterion_matches_torch(nn.AbsCriterion(sizeAverage),
                                  lambda i, t: torch.nn.functional.l1_loss(i, t, reduction=reduction), x, t)


def test_gradient_at_the_target_is_plus_one_as_in_torch7():
    """Decided: Torch7's choice (x - t >= 0 gives +1), not PyTorch's sign(0) = 0."""
    c = nn.AbsCriterion(sizeAverage=False)
    x = np.array([1.0, 2.0, 3.0])
    assert c.forward(x, np.array([1.0, 0.0, 4.0])) == 3.0
    np.testing.assert_array_equal(c.backward(x, np.array([1.0, 0.0, 4.0])), [1.0, 1.0, -1.0])


def test_default_is_size_average():
    c = nn.AbsCriterion()
    assert c.sizeAverage
    assert c.forward(np.array([1.0, -3.0]), np.array([0.0, 0.0])) == 2.0


@pytest.mark.parametrize("sizeAverage", [True, False], ids=["mean", "sum"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gradient(shape, sizeAverage):
    assert_criterion_gradient(nn.AbsCriterion(sizeAverage), uniform(shape, 3), uniform(shape, 4))


def test_target_of_another_shape_but_for_size_1_dims():
    c = nn.AbsCriterion()
    x, t = uniform((1, 12), 1), uniform((12, 1), 2)
    np.testing.assert_allclose(c.forward(x, t), np.abs(x.ravel() - t.ravel()).mean(), rtol=1e-14)
    assert c.backward(x, t).shape == (1, 12)


def test_target_as_list_is_converted():
    c = nn.AbsCriterion()
    x, t = uniform((2, 3), 1), uniform((2, 3), 2)
    assert c.forward(x, t.tolist()) == c.forward(x, t)


def test_repr():
    assert repr(nn.AbsCriterion()) == "nn.AbsCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    # the kernels only count elements
    x, t = uniform((2, 3)), uniform((2, 4))
    check_element_count_mismatch(nn.AbsCriterion(), x, t, "(2D of size [2, 3]), got 2D of size [2, 4]")


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "AbsCriterion_updateOutput: target must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.AbsCriterion_updateOutput(uniform((2, 3)), uniform((2, 3)).astype(np.float32), None, True)


def test_non_numeric_target():
    with raises_exactly(TypeError, "AbsCriterion: target must be numeric, got <U1"):
        nn.AbsCriterion().forward(np.zeros(2), np.array(["a", "b"]))
