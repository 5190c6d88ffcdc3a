"""nn_legacy.SpatialSubtractiveNormalization: each pixel minus the weighted
local mean over a kernel window and all planes, E(x) / E(1).
The checks it shares with SpatialDivisiveNormalization and
SpatialContrastiveNormalization run here over FAMILY."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_forward_backward, raises_exactly, uniform
from local_norm_checks import (KERNELS, SHAPES, check_bad_input, check_layer_properties,
                               check_precision_follows_the_input, check_samples_do_not_mix, divisive, subtractive,
                               torch_reference)
from numpy_checks import from_torch7

CLS = nn.SpatialSubtractiveNormalization


# The three local normalizations are one family: the checks they share run
# here, each layer with its numpy definition, torch formula and gradInput
# tolerance; each file keeps the cases only its layer has.
FAMILY = {
    "SpatialSubtractiveNormalization": (subtractive, "subtractive", (1e-13, 1e-14)),
    "SpatialDivisiveNormalization": (divisive, "divisive", (1e-12, 1e-13)),
    "SpatialContrastiveNormalization": (lambda x, kernel: divisive(subtractive(x, kernel), kernel), "contrastive",
                                        (1e-12, 1e-13)),
}


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("kernel", KERNELS.values(), ids=KERNELS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_matches_the_definition(kernel, shape, name):
    x = uniform(shape, 1)
    np.testing.assert_allclose(getattr(nn, name)(shape[-3], kernel).forward(x), FAMILY[name][0](x, kernel),
                               rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("kernel", KERNELS.values(), ids=KERNELS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_matches_torch_conv2d_formula(kernel, shape, name):
    x, g = uniform(shape, 1), uniform(shape, 2)
    out, gin = torch_reference(FAMILY[name][1], x, g, kernel)
    check_forward_backward(getattr(nn, name)(shape[-3], kernel), x, g, out, gin, (1e-13, 1e-14), FAMILY[name][2])


@pytest.mark.parametrize("name", FAMILY)
def test_layer_properties(name):
    check_layer_properties(lambda planes: getattr(nn, name)(planes, KERNELS["2D 3x5"]))


@pytest.mark.parametrize("name", FAMILY)
def test_samples_of_a_batch_do_not_mix(name):
    """torch.legacy.nn's port of SpatialContrastiveNormalization replicated the
    local mean along the batch dim, so the samples of a batch were mixed;
    Torch7 normalised each on its own."""
    check_samples_do_not_mix(lambda planes: getattr(nn, name)(planes, KERNELS["1D 5"]))


@pytest.mark.parametrize("name", FAMILY)
def test_precision_follows_the_input(name):
    check_precision_follows_the_input(lambda planes: getattr(nn, name)(planes, KERNELS["2D 3x5"]))


@pytest.mark.parametrize("name", FAMILY)
def test_bad_input(name):
    check_bad_input(getattr(nn, name), lambda planes: getattr(nn, name)(planes, KERNELS["1D 5"]))


def test_a_constant_image_becomes_zero_up_to_the_border():
    """E(c) / E(1) = c everywhere: the border correction is exact."""
    x = np.full((2, 5, 6), 3.5)
    np.testing.assert_allclose(CLS(2, KERNELS["2D 3x5"]).forward(x), 0, atol=1e-14)


def test_coef_is_one_inside_the_image():
    m = CLS(2, KERNELS["2D 3x5"])
    m.forward(uniform((2, 5, 8), 1))
    assert m.coef.shape == (1, 5, 8)
    np.testing.assert_allclose(m.coef[0, 1:-1, 2:-2], 1, rtol=1e-15)
    assert np.all(m.coef[0, 0] < 1) and np.all(m.coef[0, :, 0] < 1)


def test_the_kernel_scale_does_not_matter():
    x = uniform((2, 5, 6), 1)
    kernel = KERNELS["2D 3x5"]
    np.testing.assert_allclose(CLS(2, 7 * kernel).forward(x), CLS(2, kernel).forward(x), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(CLS(2, kernel).kernel.sum(), 0.5, rtol=1e-15)   # kept at sum 1 / nInputPlane


def test_torch7_defaults():
    m = CLS()
    assert m.nInputPlane == 1 and m.kernel.shape == (9, 9)


def test_from_torch7_fields():
    """Torch7 kept the kernel scaled and its estimators as nested modules;
    the estimator is rebuilt from the kernel."""
    kernel = KERNELS["2D 3x5"]
    m = from_torch7("nn.SpatialSubtractiveNormalization", nInputPlane=2.0, kernel=kernel / (2 * kernel.sum()),
                    coef=np.zeros((1, 1, 1)), ones=np.zeros(0), _coef=np.zeros(0))
    assert m.nInputPlane == 2 and isinstance(m.nInputPlane, int)
    assert not {"ones", "_coef"} & set(vars(m))
    x = uniform((2, 2, 4, 5), 1)
    np.testing.assert_allclose(m.forward(x), subtractive(x, kernel), rtol=1e-13, atol=1e-14)


def test_clearState_drops_coef():
    m = CLS(1, KERNELS["1D 5"])
    m.forward(uniform((1, 4, 5)))
    assert m.clearState().coef is None
    np.testing.assert_allclose(m.forward(uniform((1, 4, 5), 1)), subtractive(uniform((1, 4, 5), 1), KERNELS["1D 5"]),
                               rtol=1e-13, atol=1e-14)


def test_repr():
    assert repr(CLS(3, KERNELS["2D 3x5"])) == "nn.SpatialSubtractiveNormalization(3, kernel 3x5)"
    with raises_exactly(TypeError, "SpatialSubtractiveNormalization: nInputPlane must be an integer, got 2.5"):
        CLS(2.5)
