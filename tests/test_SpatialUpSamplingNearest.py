"""nn_legacy.SpatialUpSamplingNearest and its kernels: every pixel of the
last two dims becomes a scale x scale block."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, check_nearest_bits, nearest_plane, per_plane


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize("shape", [(2, 3, 2, 5), (3, 4, 2)], ids=["4D", "3D"])
def test_matches_the_definition(scale, shape):
    x = uniform(shape, 1)
    reference = lambda a: per_plane(lambda p: nearest_plane(p, scale), a, 2)  # noqa: E731
    g = uniform(reference(x).shape, 2)
    check_linear_reference(nn.SpatialUpSamplingNearest(scale), reference, x, g, exact=True)


def test_blocks_and_their_gradient():
    x = np.array([[[1.0, 2.0, 3.0]]])
    m = nn.SpatialUpSamplingNearest(2)
    np.testing.assert_array_equal(m.forward(x), [[[1, 1, 2, 2, 3, 3], [1, 1, 2, 2, 3, 3]]])
    g = np.arange(12.0).reshape(1, 2, 6)
    np.testing.assert_array_equal(m.backward(x, g), [[[0 + 1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5 + 10 + 11]]])


@pytest.mark.parametrize("scale", [2, 3])
def test_matches_torch(scale):
    torch = torch_or_skip()
    x = uniform((2, 3, 2, 5), 1)
    g = uniform((2, 3, 2 * scale, 5 * scale), 2)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.interpolate(t, scale_factor=scale, mode="nearest"), x, g)
    m = nn.SpatialUpSamplingNearest(scale)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=1e-14)


def test_common_properties():
    check_common(lambda: nn.SpatialUpSamplingNearest(2), uniform((3, 2, 2, 3), 3), "SpatialUpSamplingNearest", 2)


def test_repr_and_field():
    m = nn.SpatialUpSamplingNearest(3)
    assert m.scale_factor == 3 and repr(m) == "nn.SpatialUpSamplingNearest(3)"


@pytest.mark.parametrize("scale", [0, -2, "2"])
def test_scale_must_be_a_positive_integer(scale):
    with pytest.raises(ValueError, match=r"^SpatialUpSamplingNearest: scale_factor must be an integer >= 1, got "):
        nn.SpatialUpSamplingNearest(scale)


def test_kernel_refuses_a_zero_scale():
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingNearest_updateOutput: scale_factor must be an "
                                        "integer >= 1, got 0"):
        thnn.Double.SpatialUpSamplingNearest_updateOutput(uniform((1, 2, 2)), None, 0)


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingNearest_updateOutput: input must be 3D [nPlane, h, w] "
                                        "or 4D [batch, nPlane, h, w], got 2D of size [2, 3]"):
        nn.SpatialUpSamplingNearest(2).forward(uniform((2, 3)))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("scale", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("shape", [(3, 5, 37, 29), (7, 61, 43), (1, 1, 1, 1), (2, 3, 1, 200)],
                         ids=["4D", "3D", "one pixel", "one row"])
def test_rows_widened_and_summed_bit_for_bit(shape, scale, dtype, threads):
    # each input row widened once (a loop per scale 1-4, the general one
    # beyond) and copied to the block's other rows; the rows split between
    # the threads (4D and 3D at scale 2 and above have enough elements for two); odd widths (the
    # vector loops' tails), NaN, infinities and -0.0, a Fortran-ordered input
    rng = np.random.default_rng(scale)
    x = rng.standard_normal(shape).astype(dtype)
    x.flat[::31] = np.nan
    x.flat[1::29] = -0.0
    x.flat[2::23] = np.inf
    m = nn.SpatialUpSamplingNearest(scale)
    if dtype == np.float32:
        m.float()
    check_nearest_bits(m, np.asfortranarray(x), scale, 2, threads)
