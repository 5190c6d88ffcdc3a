"""nn_legacy.SpatialUpSamplingNearest and its kernels: every pixel of the
last two dims becomes a scale x scale block."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, nearest_plane, per_plane


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


def test_mismatched_gradOutput():
    m = nn.SpatialUpSamplingNearest(2)
    x = uniform((2, 3, 2, 5))
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialUpSamplingNearest_updateGradInput: gradOutput must be "
                                        "4D of size [2, 3, 4, 10], got 4D of size [2, 3, 10, 4]"):
        m.backward(x, np.zeros((2, 3, 10, 4)))
