"""nn_legacy.VolumetricUpSamplingNearest and its kernels: every voxel of
the last three dims becomes a scale^3 block."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, check_nearest_bits, nearest_plane, per_plane


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize("shape", [(2, 2, 1, 2, 3), (2, 2, 3, 1)], ids=["5D", "4D"])
def test_matches_the_definition(scale, shape):
    x = uniform(shape, 1)
    reference = lambda a: per_plane(lambda p: nearest_plane(p, scale), a, 3)  # noqa: E731
    g = uniform(reference(x).shape, 2)
    check_linear_reference(nn.VolumetricUpSamplingNearest(scale), reference, x, g, exact=True)


def test_matches_numpy_repeat():
    x = uniform((2, 2, 2, 3, 4), 1)
    want = x.repeat(2, axis=2).repeat(2, axis=3).repeat(2, axis=4)
    np.testing.assert_array_equal(nn.VolumetricUpSamplingNearest(2).forward(x), want)


def test_matches_torch():
    torch = torch_or_skip()
    x = uniform((2, 2, 2, 3, 4), 1)
    g = uniform((2, 2, 4, 6, 8), 2)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.interpolate(t, scale_factor=2, mode="nearest"), x, g)
    m = nn.VolumetricUpSamplingNearest(2)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=1e-14)


def test_common_properties():
    check_common(lambda: nn.VolumetricUpSamplingNearest(2), uniform((2, 2, 2, 1, 3), 3),
                 "VolumetricUpSamplingNearest", 3)


def test_repr():
    assert repr(nn.VolumetricUpSamplingNearest(2)) == "nn.VolumetricUpSamplingNearest(2)"


def test_scale_must_be_a_positive_integer():
    with raises_exactly(ValueError, "VolumetricUpSamplingNearest: scale_factor must be an integer >= 1, got 0"):
        nn.VolumetricUpSamplingNearest(0)


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "VolumetricUpSamplingNearest_updateOutput: input must be "
                                        "4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w], "
                                        "got 3D of size [2, 3, 4]"):
        nn.VolumetricUpSamplingNearest(2).forward(uniform((2, 3, 4)))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("scale", [1, 2, 3, 5])
@pytest.mark.parametrize("shape", [(2, 3, 5, 7, 19), (4, 3, 9, 11)], ids=["5D", "4D"])
def test_rows_widened_and_summed_bit_for_bit(shape, scale, dtype, threads):
    # the rows of every (t, h) block copied from one widened row; gradInput
    # summed over t, then h, then w; odd sizes, NaN, -0.0, a strided input
    rng = np.random.default_rng(scale)
    x = rng.standard_normal(shape).astype(dtype)
    x.flat[::31] = np.nan
    x.flat[1::29] = -0.0
    m = nn.VolumetricUpSamplingNearest(scale)
    if dtype == np.float32:
        m.float()
    check_nearest_bits(m, np.swapaxes(np.swapaxes(x, -1, -3).copy(), -1, -3), scale, 3, threads)
