"""nn_legacy.AbsCriterion and the AbsCriterion_* kernels: sum |x - t|, divided by
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
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = torch.nn.functional.l1_loss(tx, torch.from_numpy(t), reduction=reduction)
    tl.backward()
    c = nn.AbsCriterion(sizeAverage)
    np.testing.assert_allclose(c.forward(x, t), tl.item(), rtol=1e-14)
    np.testing.assert_allclose(c.backward(x, t), tx.grad.numpy(), rtol=1e-14)


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


def test_float32_matches_float64():
    check_float32_criterion(nn.AbsCriterion(), uniform((6, 5), 1), uniform((6, 5), 2))
    check_float32_criterion(nn.AbsCriterion(False), uniform((6, 5), 1), uniform((6, 5), 2))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input_and_target(shape):
    check_noncontiguous_criterion(nn.AbsCriterion(), uniform(shape, 1), uniform(shape, 2))


def test_buffer_reuse_across_batch_sizes():
    check_criterion_buffer_reuse(nn.AbsCriterion(), uniform((8, 5), 1), uniform((8, 5), 2),
                                 uniform((4, 5), 3), uniform((4, 5), 4))


def test_pickle_round_trip():
    check_criterion_pickle(nn.AbsCriterion(False), uniform((4, 5), 1), uniform((4, 5), 2))


def test_empty_input_gives_zero_loss():
    for sizeAverage in (True, False):
        c = nn.AbsCriterion(sizeAverage)
        assert c.forward(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
        assert c.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)


def test_repr():
    assert repr(nn.AbsCriterion()) == "nn.AbsCriterion"


# ---------------------------------------------------------------- bad input
def test_element_count_mismatch():
    c = nn.AbsCriterion()
    msg = ("target must be the same number of elements as input (2D of size [2, 3]), "
           "got 2D of size [2, 4]")
    x, t = uniform((2, 3)), uniform((2, 4))
    with raises_exactly(thnn.THNNError, "AbsCriterion_updateOutput: " + msg):   # the kernel only counts elements
        thnn.Double.AbsCriterion_updateOutput(x, t, None, True)
    with raises_exactly(thnn.THNNError, "AbsCriterion_updateGradInput: " + msg):
        thnn.Double.AbsCriterion_updateGradInput(x, t, None, True)
    with pytest.raises(ValueError, match=r"^AbsCriterion: target must have the shape of input \["):
        c.forward(x, t)
    with pytest.raises(ValueError, match=r"^AbsCriterion: target must have the shape of input \["):
        c.backward(x, t)


def test_input_must_be_a_float_array():
    c = nn.AbsCriterion()
    with raises_exactly(TypeError, "AbsCriterion: input must be a numpy array, got list"):
        c.forward([[1.0, 2.0]], np.zeros((1, 2)))
    with raises_exactly(TypeError, "AbsCriterion: input must be float32 or float64, got int64"):
        c.forward(np.ones((1, 2), dtype=np.int64), np.zeros((1, 2)))


def test_kernel_refuses_mixed_precisions():
    with raises_exactly(TypeError, "AbsCriterion_updateOutput: target must be float64 like the other "
                                   "tensors, got float32"):
        thnn.Double.AbsCriterion_updateOutput(uniform((2, 3)), uniform((2, 3)).astype(np.float32), None, True)


def test_non_numeric_target():
    with raises_exactly(TypeError, "AbsCriterion: target must be numeric, got <U1"):
        nn.AbsCriterion().forward(np.zeros(2), np.array(["a", "b"]))
