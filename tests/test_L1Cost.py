"""nn_legacy.L1Cost and the L1Cost_* kernels: the criterion sum |x| without a
target (forward(input), backward(input)), as Torch7's and torch.legacy's L1Cost."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (noncontiguous_views, raises_exactly, torch_forward_backward, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    c = nn.L1Cost()
    x = uniform(shape, 1)
    loss = c.forward(x)
    assert isinstance(loss, float)
    np.testing.assert_allclose(loss, np.abs(x).sum(), rtol=1e-14)
    np.testing.assert_array_equal(c.backward(x), np.sign(x))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    x = uniform(shape, 1)
    loss, grad = torch_forward_backward(lambda tx: tx.abs().sum(), x, 1.0)
    c = nn.L1Cost()
    np.testing.assert_allclose(c.forward(x), loss, rtol=1e-14)
    np.testing.assert_array_equal(c.backward(x), grad)


def test_gradient_at_zero_is_zero():
    c = nn.L1Cost()
    x = np.array([0.0, -0.0, 2.0, -3.0])
    assert c.forward(x) == 5.0
    np.testing.assert_array_equal(c.backward(x), [0.0, 0.0, 1.0, -1.0])


def test_target_none_is_accepted_anything_else_refused():
    c = nn.L1Cost()
    x = uniform((2, 3), 1)
    assert c.forward(x, None) == c.updateOutput(x) == c.forward(x)
    np.testing.assert_array_equal(c.backward(x, None), c.updateGradInput(x))
    with raises_exactly(TypeError, "L1Cost takes no target (it is the L1 norm of the input), got ndarray"):
        c.forward(x, np.zeros((2, 3)))
    with raises_exactly(TypeError, "L1Cost takes no target (it is the L1 norm of the input), got int"):
        c.backward(x, 0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_noncontiguous_input(shape):
    c = nn.L1Cost()
    x = uniform(shape, 1)
    loss, grad = c.forward(x), c.backward(x).copy()
    for name, view in noncontiguous_views(x):
        assert c.forward(view) == loss, name
        np.testing.assert_array_equal(c.backward(view), grad, err_msg=name)


def test_buffer_reuse_across_batch_sizes():
    c = nn.L1Cost()
    big, small = uniform((8, 5), 1), uniform((4, 5), 2)
    c.forward(big)
    g1 = c.backward(big)
    kept = g1.copy()
    c.forward(small)
    g2 = c.backward(small)
    np.testing.assert_array_equal(g1, kept)  # the first array was not overwritten
    np.testing.assert_array_equal(g2, np.sign(small))
    again = -small
    assert c.forward(again) == np.abs(small).sum()
    assert c.backward(again) is g2, "a second backward of the same shape did not reuse gradInput"
    np.testing.assert_array_equal(g2, np.sign(again))


def test_empty_input_gives_zero():
    assert nn.L1Cost().forward(np.zeros((0, 3))) == 0.0


def test_repr():
    assert repr(nn.L1Cost()) == "nn.L1Cost"


# ---------------------------------------------------------------- bad input
def test_kernel_reuses_only_a_matching_output():
    x = uniform((3, 4), 1)
    out = np.zeros(1)
    assert thnn.Double.L1Cost_updateOutput(x, out) is out
    assert out[0] == np.abs(x).sum()
    fresh = thnn.Double.L1Cost_updateOutput(x, np.zeros(2))
    assert fresh.shape == (1,) and fresh[0] == out[0]
