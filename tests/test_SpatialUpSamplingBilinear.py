"""nn_legacy.SpatialUpSamplingBilinear and its kernels: bilinear resizing
of the last two dims with the corner pixels aligned (Torch7's rule)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, linear_plane, per_plane

# (input h, w) -> (output h, w): up, down, mixed, and sizes of 1
SIZES = [((3, 4), (7, 5)), ((5, 6), (3, 2)), ((2, 5), (4, 5)), ((1, 3), (4, 1)), ((4, 1), (1, 6))]


def reference(out_hw):
    return lambda x: per_plane(lambda p: linear_plane(p, out_hw), x, 2)


@pytest.mark.parametrize("in_hw, out_hw", SIZES, ids=str)
def test_matches_the_definition(in_hw, out_hw):
    x = uniform((2, 2) + in_hw, 1)
    m = nn.SpatialUpSamplingBilinear(oheight=out_hw[0], owidth=out_hw[1])
    check_linear_reference(m, reference(out_hw), x, uniform((2, 2) + out_hw, 2))


def test_corners_are_copied_and_the_middle_blended():
    x = np.array([[[0.0, 4.0], [8.0, 12.0]]])
    out = nn.SpatialUpSamplingBilinear(oheight=3, owidth=5).forward(x)
    np.testing.assert_array_equal(out, [[[0, 1, 2, 3, 4], [4, 5, 6, 7, 8], [8, 9, 10, 11, 12]]])


def test_scale_factor_multiplies_the_size():
    x = uniform((3, 2, 5), 1)
    by_scale = nn.SpatialUpSamplingBilinear(3).forward(x)
    assert by_scale.shape == (3, 6, 15)
    np.testing.assert_array_equal(by_scale, nn.SpatialUpSamplingBilinear(oheight=6, owidth=15).forward(x))


def test_torch7_table_argument():
    m = nn.SpatialUpSamplingBilinear({"oheight": 4, "owidth": 7})
    assert (m.scale_factor, m.oheight, m.owidth) == (None, 4, 7)
    assert repr(m) == "nn.SpatialUpSamplingBilinear(oheight=4, owidth=7)"
    assert repr(nn.SpatialUpSamplingBilinear(2)) == "nn.SpatialUpSamplingBilinear(2)"


@pytest.mark.parametrize("in_hw, out_hw", SIZES, ids=str)
def test_matches_torch(in_hw, out_hw):
    torch = torch_or_skip()
    x, g = uniform((2, 3) + in_hw, 1), uniform((2, 3) + out_hw, 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.interpolate(
        t, size=out_hw, mode="bilinear", align_corners=True), x, g)
    m = nn.SpatialUpSamplingBilinear(oheight=out_hw[0], owidth=out_hw[1])
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-14)


def test_common_properties():
    check_common(lambda: nn.SpatialUpSamplingBilinear(oheight=4, owidth=5), uniform((3, 2, 2, 3), 3),
                 "SpatialUpSamplingBilinear", 2)


def test_common_properties_by_scale():
    check_common(lambda: nn.SpatialUpSamplingBilinear(2), uniform((2, 2, 3, 2), 4), "SpatialUpSamplingBilinear", 2)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs", [{}, {"scale_factor": 2, "oheight": 3, "owidth": 3}, {"oheight": 3},
                                    {"scale_factor": 2, "owidth": 3}])
def test_needs_a_scale_or_both_sizes(kwargs):
    with pytest.raises(ValueError, match=r"^SpatialUpSamplingBilinear: give scale_factor, or oheight and owidth"):
        nn.SpatialUpSamplingBilinear(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"scale_factor": 0}, "scale_factor must be an integer >= 1, got 0"),
    ({"scale_factor": "2"}, "scale_factor must be an integer >= 1, got '2'"),
    ({"oheight": 0, "owidth": 3}, "oheight must be an integer >= 1, got 0")])
def test_sizes_must_be_positive_integers(kwargs, message):
    with raises_exactly(ValueError, "SpatialUpSamplingBilinear: " + message):
        nn.SpatialUpSamplingBilinear(**kwargs)


def test_kernel_refuses_an_empty_output():
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingBilinear_updateOutput: outputWidth must be >= 1, got 0"):
        thnn.Double.SpatialUpSamplingBilinear_updateOutput(uniform((1, 2, 2)), None, 3, 0)


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingBilinear_updateOutput: input must be 3D [nPlane, h, w] "
                                        "or 4D [batch, nPlane, h, w], got 5D of size [1, 1, 1, 2, 3]"):
        nn.SpatialUpSamplingBilinear(2).forward(uniform((1, 1, 1, 2, 3)))
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingBilinear_updateOutput: input must be 3D [nPlane, h, w] "
                                        "or 4D [batch, nPlane, h, w] with no empty spatial dim, "
                                        "got 4D of size [1, 1, 0, 3]"):
        nn.SpatialUpSamplingBilinear(2).forward(uniform((1, 1, 0, 3)))


def test_mismatched_gradOutput():
    m = nn.SpatialUpSamplingBilinear(oheight=4, owidth=7)
    x = uniform((2, 3, 2, 5))
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingBilinear_updateGradInput: gradOutput must be "
                                        "4D of size [2, 3, 4, 7], got 4D of size [2, 3, 7, 4]"):
        m.backward(x, np.zeros((2, 3, 7, 4)))
