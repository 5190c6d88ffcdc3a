"""nn_legacy.GradientReversal: identity forward, -lambda * gradient backward, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_identity_forward_reversed_gradient(shape):
    m = nn.GradientReversal(0.25)
    x, g = uniform(shape, 1), uniform(shape, 2)
    out = m.forward(x)
    np.testing.assert_array_equal(out, x)
    assert out is not x and not np.shares_memory(out, x)
    np.testing.assert_array_equal(m.backward(x, g), -0.25 * g)


def test_default_lambda_is_one_and_setLambda_changes_it():
    m = nn.GradientReversal()
    x, g = uniform((3,), 1), uniform((3,), 2)
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, g), -g)
    assert m.setLambda(3) is m
    np.testing.assert_array_equal(m.backward(x, g), -3 * g)


def test_jacobian_of_the_identity_with_lambda_minus_one():
    """With lambda = -1 the backward pass is the true gradient of the identity."""
    assert_input_jacobian(nn.GradientReversal(-1), uniform((3, 4), 3))


def test_jacobian_check_sees_the_reversal():
    """With the default lambda the gradient is the true one reversed: the checker must notice."""
    from nn_legacy import jacobian
    report = jacobian.testJacobian(nn.GradientReversal(), uniform((2, 3), 3))
    assert abs(report.max_error - 2.0) < 1e-8, report


def test_bad_arrays():
    check_bad_arrays_numpy(nn.GradientReversal(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.GradientReversal()) == "nn.GradientReversal(1)"
    assert repr(nn.GradientReversal(0.5)) == "nn.GradientReversal(0.5)"


def test_loads_from_torch7_fields():
    m = from_torch7("nn.GradientReversal", **{"lambda": 0.5})
    x, g = uniform((2, 3), 1), uniform((2, 3), 2)
    np.testing.assert_array_equal(m.forward(x), x)
    np.testing.assert_array_equal(m.backward(x, g), -0.5 * g)
    assert repr(m) == "nn.GradientReversal(0.5)"
