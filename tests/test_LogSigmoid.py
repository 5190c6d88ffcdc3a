"""nn_legacy.LogSigmoid and the LogSigmoid_* kernels: y = log(sigmoid(x))."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout
from layer_checks import (check_forward_backward, check_matches_torch, check_nan_at, forward_backward_silently,
                          raises_exactly, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.LogSigmoid()
    x, g = uniform(shape, 1, -6, 6), uniform(shape, 2)
    check_forward_backward(m, x, g, -np.logaddexp(0, -x), g / (1 + np.exp(x)), (1e-15, 0), (1e-15, 0))
    # numpy's exp and the C library's may differ in the last bit
    np.testing.assert_allclose(m.buffer, np.exp(-np.abs(x)), rtol=1e-15, atol=0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.LogSigmoid(), torch.nn.functional.logsigmoid, uniform(shape, 1, -6, 6), uniform(shape, 2),
                        (1e-15, 0), (1e-15, 0))


def test_extreme_inputs_neither_overflow_nor_lose_precision():
    """Torch7's kernel computed log(1 + exp(-x)) directly: -inf at x = -800.
    Here the tails are exact: y -> x below, y -> -exp(-x) above."""
    out, grad = forward_backward_silently(nn.LogSigmoid(), np.array([-800.0, -40.0, 0.0, 40.0, 800.0]))
    np.testing.assert_allclose(out, [-800, -40 - np.exp(-40.0), -np.log(2), -np.exp(-40.0), 0],
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(grad, [1, 1, 0.5, np.exp(-40.0), 0], rtol=1e-15, atol=0)


def test_work_buffer_is_reused_and_cleared():
    m = nn.LogSigmoid()
    m.forward(uniform((4, 5), 1))
    buffer = m.buffer
    m.forward(uniform((4, 5), 2))
    assert m.buffer is buffer
    m.clearState()
    assert m.buffer is None and m.output is None


def test_nan_propagates():
    check_nan_at(nn.LogSigmoid(), uniform((3, 4), 1), (1, 0), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(nn.LogSigmoid)


def test_repr():
    assert repr(nn.LogSigmoid()) == "nn.LogSigmoid"


def test_buffer_from_another_input_shape():
    m = nn.LogSigmoid()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "LogSigmoid_updateGradInput: buffer must be shaped as input "
                                        "(1D of size [6]), got 2D of size [2, 3]"):
        m.backward(uniform((6,)), uniform((6,)))
