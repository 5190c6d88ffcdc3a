"""nn_legacy.VolumetricUpSamplingTrilinear and its kernels: trilinear
resizing of the last three dims with the corners aligned."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, linear_plane, per_plane

# (input t, h, w) -> (output t, h, w)
SIZES = [((2, 3, 4), (3, 5, 2)), ((3, 1, 2), (1, 3, 4)), ((1, 2, 3), (2, 2, 5))]


def reference(out_size):
    return lambda x: per_plane(lambda p: linear_plane(p, out_size), x, 3)


def make(out_size):
    return nn.VolumetricUpSamplingTrilinear(odepth=out_size[0], oheight=out_size[1], owidth=out_size[2])


@pytest.mark.parametrize("in_size, out_size", SIZES, ids=str)
def test_matches_the_definition(in_size, out_size):
    x = uniform((2, 2) + in_size, 1)
    check_linear_reference(make(out_size), reference(out_size), x, uniform((2, 2) + out_size, 2))


def test_unbatched_input():
    x = uniform((2, 2, 3, 4), 1)
    check_linear_reference(make((3, 2, 5)), reference((3, 2, 5)), x, uniform((2, 3, 2, 5), 2))


def test_two_frames_blend_like_two_images():
    x = np.stack([np.zeros((2, 2)), np.full((2, 2), 6.0)])[None, None]
    out = make((4, 2, 2)).forward(x)
    np.testing.assert_allclose(out[0, 0, :, 0, 0], [0, 2, 4, 6], rtol=1e-15)


def test_scale_factor_multiplies_every_size():
    x = uniform((1, 2, 1, 2, 3), 1)
    by_scale = nn.VolumetricUpSamplingTrilinear(2).forward(x)
    assert by_scale.shape == (1, 2, 2, 4, 6)
    np.testing.assert_array_equal(by_scale, make((2, 4, 6)).forward(x))


def test_torch7_table_argument_and_repr():
    m = nn.VolumetricUpSamplingTrilinear({"odepth": 2, "oheight": 4, "owidth": 7})
    assert (m.odepth, m.oheight, m.owidth) == (2, 4, 7)
    assert repr(m) == "nn.VolumetricUpSamplingTrilinear(odepth=2, oheight=4, owidth=7)"
    assert repr(nn.VolumetricUpSamplingTrilinear(3)) == "nn.VolumetricUpSamplingTrilinear(3)"


@pytest.mark.parametrize("in_size, out_size", SIZES, ids=str)
def test_matches_torch(in_size, out_size):
    torch = torch_or_skip()
    x, g = uniform((2, 2) + in_size, 1), uniform((2, 2) + out_size, 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.interpolate(
        t, size=out_size, mode="trilinear", align_corners=True), x, g)
    m = make(out_size)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-14)


def test_common_properties():
    check_common(lambda: make((3, 2, 3)), uniform((2, 2, 2, 3, 2), 3), "VolumetricUpSamplingTrilinear", 3)


# ---------------------------------------------------------------- bad input
def test_needs_a_scale_or_all_three_sizes():
    with pytest.raises(ValueError, match=r"^VolumetricUpSamplingTrilinear: give scale_factor, or odepth, oheight "):
        nn.VolumetricUpSamplingTrilinear(oheight=2, owidth=3)


def test_kernel_refuses_an_empty_output():
    with raises_exactly(thnn.THNNError, "VolumetricUpSamplingTrilinear_updateOutput: outputDepth must be >= 1, "
                                        "got 0"):
        thnn.Double.VolumetricUpSamplingTrilinear_updateOutput(uniform((1, 2, 2, 2)), None, 0, 2, 2)


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "VolumetricUpSamplingTrilinear_updateOutput: input must be "
                                        "4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w], "
                                        "got 3D of size [2, 3, 4]"):
        make((2, 2, 2)).forward(uniform((2, 3, 4)))


def test_mismatched_gradOutput():
    m = make((2, 3, 4))
    x = uniform((1, 2, 1, 2, 3))
    m.forward(x)
    with raises_exactly(thnn.THNNError, "VolumetricUpSamplingTrilinear_updateGradInput: gradOutput must be "
                                        "5D of size [1, 2, 2, 3, 4], got 5D of size [1, 2, 2, 4, 3]"):
        m.backward(x, np.zeros((1, 2, 2, 4, 3)))
