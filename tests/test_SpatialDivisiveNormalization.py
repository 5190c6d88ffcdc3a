"""nn_legacy.SpatialDivisiveNormalization: each pixel divided by the local
standard deviation sqrt(E(x^2)) / E(1), thresholded.
Its values against the definition and torch, layer properties, batches,
precision and bad input run with SpatialSubtractiveNormalization's, over the
family table in test_SpatialSubtractiveNormalization.py."""
import numpy as np

import nn_legacy as nn
from layer_checks import assert_input_jacobian, raises_exactly, uniform
from local_norm_checks import KERNELS, divisive, torch_reference
from numpy_checks import from_torch7

CLS = nn.SpatialDivisiveNormalization


def test_threshold_and_thresval():
    """Where the local deviation is at most threshold the pixel is divided by thresval instead."""
    x = uniform((2, 4, 6), 1)
    x[:, :, :3] *= 0.01                         # a quiet left half
    m = CLS(2, KERNELS["1D 5"], 0.5, 2.0)
    out = m.forward(x)
    np.testing.assert_allclose(out, divisive(x, KERNELS["1D 5"], 0.5, 2.0), rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(out[:, :, 0], x[:, :, 0] / 2.0)
    assert np.all(out[:, :, -1] != x[:, :, -1] / 2.0)
    g = uniform((2, 4, 6), 2)
    out_t, gin_t = torch_reference("divisive", x, g, KERNELS["1D 5"], 0.5, 2.0)
    np.testing.assert_allclose(m.backward(x, g), gin_t, rtol=1e-12, atol=1e-13)
    assert_input_jacobian(CLS(2, KERNELS["1D 5"], 0.5, 2.0), x)


def test_zero_image_has_a_finite_gradient():
    """sqrt's infinite slope at 0 is taken as 0 (Torch7's Sqrt did so): no NaN."""
    m = CLS(1, KERNELS["2D 3x5"])
    x = np.zeros((1, 3, 5))
    np.testing.assert_array_equal(m.forward(x), x)
    g = uniform((1, 3, 5), 2)
    np.testing.assert_array_equal(m.backward(x, g), g / 1e-4)


def test_a_constant_image_becomes_its_sign_inside():
    x = np.full((2, 5, 8), -3.0)
    out = CLS(2, KERNELS["2D 3x5"]).forward(x)
    np.testing.assert_allclose(out[:, 1:-1, 2:-2], -1, rtol=1e-14)


def test_torch7_defaults():
    m = CLS()
    assert (m.nInputPlane, m.kernel.shape, m.threshold, m.thresval) == (1, (9, 9), 1e-4, 1e-4)
    assert CLS(1, None, 0.3).thresval == 0.3


def test_bad_threshold():
    with raises_exactly(TypeError, "SpatialDivisiveNormalization: threshold must be a number, got 'x'"):
        CLS(1, None, "x")
    with raises_exactly(TypeError, "SpatialDivisiveNormalization: thresval must be a number, got [1]"):
        CLS(1, None, 0.1, [1])


def test_from_torch7_fields():
    """A 1D kernel as Torch7 kept it (scaled by 1 / (sum sqrt(nInputPlane))) gives the same module."""
    kernel = KERNELS["1D 5"]
    m = from_torch7("nn.SpatialDivisiveNormalization", nInputPlane=2.0, kernel=kernel / (kernel.sum() * 2 ** 0.5),
                    threshold=0.5, thresval=2.0, coef=np.zeros((1, 1, 1)))
    assert (m.nInputPlane, m.threshold, m.thresval) == (2, 0.5, 2.0)
    x = uniform((2, 2, 4, 5), 1)
    np.testing.assert_allclose(m.forward(x), divisive(x, kernel, 0.5, 2.0), rtol=1e-13, atol=1e-14)


def test_repr():
    assert repr(CLS(3, KERNELS["2D 3x5"], 0.5)) == \
        "nn.SpatialDivisiveNormalization(3, kernel 3x5, threshold=0.5, thresval=0.5)"
