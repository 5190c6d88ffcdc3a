"""nn_legacy.LogSigmoid and the LogSigmoid_* kernels: y = log(sigmoid(x))."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout
from layer_checks import (check_nan_propagates, raises_exactly, torch_forward_backward, torch_or_skip, uniform)

SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.LogSigmoid()
    x, g = uniform(shape, 1, -6, 6), uniform(shape, 2)
    np.testing.assert_allclose(m.forward(x), -np.logaddexp(0, -x), rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), g / (1 + np.exp(x)), rtol=1e-15, atol=0)
    # numpy's exp and the C library's may differ in the last bit
    np.testing.assert_allclose(m.buffer, np.exp(-np.abs(x)), rtol=1e-15, atol=0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1, -6, 6), uniform(shape, 2)
    out, gin = torch_forward_backward(torch.nn.functional.logsigmoid, x, g)
    m = nn.LogSigmoid()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15, atol=0)


def test_extreme_inputs_neither_overflow_nor_lose_precision():
    """Torch7's kernel computed log(1 + exp(-x)) directly: -inf at x = -800.
    Here the tails are exact: y -> x below, y -> -exp(-x) above."""
    m = nn.LogSigmoid()
    x = np.array([-800.0, -40.0, 0.0, 40.0, 800.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
        grad = m.backward(x, np.ones(5))
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
    x = uniform((3, 4), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[1, 0] = True
    check_nan_propagates(nn.LogSigmoid(), x, (1, 0), mask, uniform((3, 4), 2))


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
