"""nn_legacy.SpatialContrastiveNormalization: subtractive then divisive
normalization with one kernel, each sample of a batch on its own.
Its values against the definition and torch, layer properties, batches,
precision and bad input run with SpatialSubtractiveNormalization's, over the
family table in test_SpatialSubtractiveNormalization.py."""
import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from local_norm_checks import KERNELS, divisive, subtractive
from numpy_checks import from_torch7

CLS = nn.SpatialContrastiveNormalization


def test_is_subtractive_then_divisive():
    kernel, x, g = KERNELS["2D 3x5"], uniform((2, 2, 4, 6), 1), uniform((2, 2, 4, 6), 2)
    sub, div = nn.SpatialSubtractiveNormalization(2, kernel), nn.SpatialDivisiveNormalization(2, kernel, 0.3, 0.7)
    m = CLS(2, kernel, 0.3, 0.7)
    np.testing.assert_array_equal(m.forward(x), div.forward(sub.forward(x)))
    np.testing.assert_array_equal(m.backward(x, g), sub.backward(x, div.backward(sub.output, g)))


def test_thresval_reaches_the_divisive_step():
    m = CLS(1, KERNELS["1D 5"], 0.5, 2.0)
    assert (m.normalizer.modules[1].threshold, m.normalizer.modules[1].thresval) == (0.5, 2.0)
    assert CLS(1, None, 0.25).normalizer.modules[1].thresval == 0.25


def test_torch7_defaults():
    m = CLS()
    assert (m.nInputPlane, m.kernel.shape, m.threshold, m.thresval) == (1, (9, 9), 1e-4, 1e-4)


def test_bad_threshold():
    with raises_exactly(TypeError, "SpatialContrastiveNormalization: threshold must be a number, got 'x'"):
        CLS(1, None, "x")


def test_from_torch7_fields():
    kernel = KERNELS["2D 3x5"]
    inner = [nn.SpatialSubtractiveNormalization(2, kernel), nn.SpatialDivisiveNormalization(2, kernel, 0.5, 2.0)]
    m = from_torch7("nn.SpatialContrastiveNormalization", nInputPlane=2.0, kernel=kernel / (2 * kernel.sum()),
                    threshold=0.5, thresval=2.0, normalizer=nn.Sequential(*inner))
    assert (m.nInputPlane, m.threshold, m.thresval) == (2, 0.5, 2.0)
    x = uniform((2, 2, 4, 5), 1)
    np.testing.assert_allclose(m.forward(x), divisive(subtractive(x, kernel), kernel, 0.5, 2.0),
                               rtol=1e-13, atol=1e-14)


def test_clearState_reaches_the_normalizer():
    m = CLS(1, KERNELS["1D 5"])
    m.forward(uniform((1, 4, 5)))
    m.clearState()
    assert m.output is None and m.normalizer.modules[0].output is None and m.normalizer.modules[1].coef is None


def test_repr():
    assert repr(CLS(3, KERNELS["2D 3x5"], 0.5, 1.0)) == \
        "nn.SpatialContrastiveNormalization(3, kernel 3x5, threshold=0.5, thresval=1)"
