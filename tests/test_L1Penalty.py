"""nn_legacy.L1Penalty: identity forward recording loss = w * sum|x|; backward adds w * sign(x)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, check_noncontiguous, noncontiguous_views, torch_or_skip, uniform,
                          with_zeros)
from numpy_checks import check_bad_arrays_numpy

W = 0.3


class PenaltyAsOutput(nn.Module):
    """The penalty as a module output [loss], so the Jacobian checker can
    compare L1Penalty's gradient with the loss it reports."""

    def __init__(self, penalty):
        super().__init__()
        self.penalty = penalty

    def updateOutput(self, input):
        self.penalty.forward(input)
        self.output = np.array([self.penalty.loss])
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput[0] * self.penalty.updateGradInput(input, None)
        return self.gradInput


@pytest.mark.parametrize("size_average", [False, True], ids=["sum", "average"])
@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)], ids=str)
def test_matches_numpy(shape, size_average):
    m = nn.L1Penalty(W, size_average)
    x, g = with_zeros(shape), uniform(shape, 2)
    weight = W / x.size if size_average else W
    out = m.forward(x)
    np.testing.assert_array_equal(out, x)
    assert out is not x
    assert m.loss == pytest.approx(weight * np.abs(x).sum(), rel=1e-15)
    np.testing.assert_array_equal(m.backward(x, g), g + weight * np.sign(x))


def test_without_provideOutput_only_the_penalty_flows_back():
    m = nn.L1Penalty(W, provideOutput=False)
    x, g = with_zeros((3, 4)), uniform((3, 4), 2)
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, g), W * np.sign(x))
    np.testing.assert_array_equal(m.backward(x, None), W * np.sign(x))


def test_matches_torch():
    """gradInput is the gradient of <y, gradOutput> + loss."""
    torch = torch_or_skip()
    x, g = with_zeros((4, 5)), uniform((4, 5), 2)
    t = torch.from_numpy(x.copy()).requires_grad_(True)
    total = (t * torch.from_numpy(g)).sum() + W * t.abs().sum()
    total.backward()
    m = nn.L1Penalty(W)
    m.forward(x)
    assert m.loss == pytest.approx(W * t.abs().sum().item(), rel=1e-15)
    np.testing.assert_allclose(m.backward(x, g), t.grad.numpy(), rtol=1e-15, atol=0)


@pytest.mark.parametrize("size_average", [False, True], ids=["sum", "average"])
def test_jacobian_of_the_loss(size_average):
    x = with_zeros((3, 4), 3)
    report = assert_input_jacobian(PenaltyAsOutput(nn.L1Penalty(W, size_average, provideOutput=False)), x,
                                   kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_jacobian_of_the_output_is_the_identity():
    # with a zero weight the backward pass is the output's own gradient
    assert_input_jacobian(nn.L1Penalty(0), uniform((3, 4), 3))


@pytest.mark.parametrize("shape", [(7,), (4, 5)], ids=str)
def test_noncontiguous_input_and_gradOutput(shape):
    m = nn.L1Penalty(W)
    x = uniform(shape, 1)
    check_noncontiguous(m, x, uniform(shape, 2))
    m.forward(x)
    loss = m.loss
    for name, view in noncontiguous_views(x):
        m.forward(view)
        assert m.loss == loss, name


def test_bad_arrays():
    check_bad_arrays_numpy(nn.L1Penalty(W), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.L1Penalty(0.5)) == "nn.L1Penalty(0.5)"
    assert repr(nn.L1Penalty(0.5, True, False)) == "nn.L1Penalty(0.5, sizeAverage, no output gradient)"
