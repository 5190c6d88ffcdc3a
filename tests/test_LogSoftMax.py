"""nn_legacy.LogSoftMax and the LogSoftMax_* kernels: y_i = x_i - log sum_j exp(x_j)
over the feature dim (dim 0 of 1D and 3D input, dim 1 of 2D and 4D).
Its values against numpy and torch, spatial forms, NaN, empty batch, repr,
layouts and 5D refusal run with SoftMax's, over the family table in
test_SoftMax.py."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform


def log_softmax(v):
    """Of a vector: shifted by its maximum first, as the kernel does."""
    shifted = v - v.max()
    return shifted - np.log(np.exp(shifted).sum())


@pytest.mark.parametrize("shape", [(6,), (4, 5), (5, 3, 2), (2, 4, 3, 2)], ids=["1D", "2D", "3D", "4D"])
def test_is_the_log_of_softmax(shape):
    x = uniform(shape, 1)
    np.testing.assert_allclose(nn.LogSoftMax().forward(x), np.log(nn.SoftMax().forward(x)),
                               rtol=1e-13, atol=1e-15)


def test_large_inputs_do_not_overflow():
    m = nn.LogSoftMax()
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
    # exact to the resolution of the input itself (one ulp of 1000 is 1.1e-13)
    ulp = np.spacing(1001.0)
    np.testing.assert_allclose(out[0], log_softmax(np.array([1.0, 2.0, 0.0])), rtol=0, atol=ulp)
    np.testing.assert_allclose(out[1], log_softmax(np.array([-1.0, -2.0, 0.0])), rtol=0, atol=ulp)


def test_far_below_the_maximum_stays_finite():
    """log(softmax) would give -inf here; the shifted form keeps the value."""
    out = nn.LogSoftMax().forward(np.array([0.0, -800.0]))
    np.testing.assert_allclose(out, [0.0, -800.0], rtol=1e-15, atol=1e-300)


def test_minus_infinity_stays_minus_infinity():
    m = nn.LogSoftMax()
    x = np.array([[-np.inf, 0.0, 0.0]])
    np.testing.assert_array_equal(m.forward(x), [[-np.inf, -np.log(2), -np.log(2)]])
    np.testing.assert_allclose(m.backward(x, np.array([[1.0, 1.0, 0.0]])), [[1.0, 0.0, -1.0]], rtol=1e-15)
