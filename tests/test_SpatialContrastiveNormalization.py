"""nn_legacy.SpatialContrastiveNormalization: subtractive then divisive
normalization with one kernel, each sample of a batch on its own."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from local_norm_checks import (KERNELS, SHAPES, check_bad_input, check_layer_properties,
                               check_precision_follows_the_input, check_samples_do_not_mix, divisive, subtractive,
                               torch_reference)
from numpy_checks import from_torch7

CLS = nn.SpatialContrastiveNormalization


@pytest.mark.parametrize("kernel", KERNELS.values(), ids=KERNELS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_matches_the_definition(kernel, shape):
    x = uniform(shape, 1)
    np.testing.assert_allclose(CLS(shape[-3], kernel).forward(x), divisive(subtractive(x, kernel), kernel),
                               rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("kernel", KERNELS.values(), ids=KERNELS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_matches_torch_conv2d_formula(kernel, shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    out, gin = torch_reference("contrastive", x, g, kernel)
    m = CLS(shape[-3], kernel)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-13)


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


def test_layer_properties():
    check_layer_properties(lambda planes: CLS(planes, KERNELS["2D 3x5"]))


def test_samples_of_a_batch_do_not_mix():
    """torch.legacy.nn's port replicated the local mean along the batch dim,
    so the samples of a batch were mixed; Torch7 normalised each on its own."""
    check_samples_do_not_mix(lambda planes: CLS(planes, KERNELS["1D 5"]))


def test_precision_follows_the_input():
    check_precision_follows_the_input(lambda planes: CLS(planes, KERNELS["2D 3x5"]))


def test_bad_input():
    check_bad_input(CLS, lambda planes: CLS(planes, KERNELS["1D 5"]))
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
