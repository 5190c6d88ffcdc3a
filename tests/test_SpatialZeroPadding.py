"""nn_legacy.SpatialZeroPadding: zeros around each plane; negative pads crop."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)
from numpy_checks import from_torch7

# (pad_l, pad_r, pad_t, pad_b)
PADS = {
    "grow": (1, 2, 3, 0),
    "crop": (-1, -2, -1, 0),
    "mixed": (-1, 2, 3, -2),
    "crop left, grow right": (-2, 3, 0, 1),
}


def padded(x, l, r, t, b):
    """The definition, pixel by pixel: output[..., y, x] = input[..., y - t, x - l] where it exists."""
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + (h + t + b, w + l + r), dtype=x.dtype)
    for y, col in np.ndindex(*out.shape[-2:]):
        if 0 <= y - t < h and 0 <= col - l < w:
            out[..., y, col] = x[..., y - t, col - l]
    return out


def padded_grad(g, l, r, t, b, in_shape):
    h, w = in_shape[-2:]
    out = np.zeros(in_shape)
    for i, j in np.ndindex(h, w):
        if 0 <= i + t < g.shape[-2] and 0 <= j + l < g.shape[-1]:
            out[..., i, j] = g[..., i + t, j + l]
    return out


def out_shape(shape, l, r, t, b):
    return shape[:-2] + (shape[-2] + t + b, shape[-1] + l + r)


@pytest.mark.parametrize("pads", PADS.values(), ids=PADS.keys())
@pytest.mark.parametrize("shape", [(3, 5, 4), (2, 3, 4, 6)], ids=["3D", "4D"])
def test_matches_the_definition(pads, shape):
    m = nn.SpatialZeroPadding(*pads)
    x, g = uniform(shape, 1), uniform(out_shape(shape, *pads), 2)
    np.testing.assert_array_equal(m.forward(x), padded(x, *pads))
    np.testing.assert_array_equal(m.backward(x, g), padded_grad(g, *pads, shape))


@pytest.mark.parametrize("pads", PADS.values(), ids=PADS.keys())
def test_matches_torch_pad(pads):
    """torch's constant pad takes (left, right, top, bottom), negative values cropping, as here."""
    torch = torch_or_skip()
    x = uniform((2, 3, 5, 4), 1)
    g = uniform(out_shape(x.shape, *pads), 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.pad(t, pads), x, g)
    m = nn.SpatialZeroPadding(*pads)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_one_pad_for_all_sides_by_default():
    m = nn.SpatialZeroPadding(2)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == (2, 2, 2, 2)
    m = nn.SpatialZeroPadding(1, 3)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == (1, 3, 1, 1)
    assert m.forward(uniform((2, 3, 4))).shape == (2, 5, 8)


def test_cropping_past_the_whole_input_gives_zeros():
    """The output rows lie entirely below the input: nothing of it is kept."""
    m = nn.SpatialZeroPadding(0, 0, -5, 5)
    x = uniform((2, 3, 4), 1)
    np.testing.assert_array_equal(m.forward(x), np.zeros((2, 3, 4)))
    np.testing.assert_array_equal(m.backward(x, uniform((2, 3, 4), 2)), np.zeros((2, 3, 4)))


def test_moves_any_numbers():
    m = nn.SpatialZeroPadding(1, 0, 0, -1)
    x = np.arange(12, dtype=np.int32).reshape(1, 3, 4)
    out = m.forward(x)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [[[0, 0, 1, 2, 3], [0, 4, 5, 6, 7]]])
    np.testing.assert_array_equal(m.backward(x, out), [[[0, 1, 2, 3], [4, 5, 6, 7], [0, 0, 0, 0]]])


# ---------------------------------------------------------------- bad input
def test_bad_arguments():
    with raises_exactly(TypeError, "SpatialZeroPadding: pad_l must be an integer, got 1.5"):
        nn.SpatialZeroPadding(1.5)
    with raises_exactly(TypeError, "SpatialZeroPadding: pad_b must be an integer, got '2'"):
        nn.SpatialZeroPadding(1, 1, 1, "2")


def test_bad_input():
    m = nn.SpatialZeroPadding(1, 2, -1, 0)
    with raises_exactly(TypeError, "SpatialZeroPadding: input must be a numpy array, got list"):
        m.forward([[[1.0]]])
    with raises_exactly(ValueError, "SpatialZeroPadding: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 2D of size [5, 4]"):
        m.forward(uniform((5, 4)))
    with raises_exactly(ValueError, "SpatialZeroPadding: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 5D of size [1, 2, 3, 5, 4]"):
        m.forward(uniform((1, 2, 3, 5, 4)))
    with raises_exactly(ValueError, "SpatialZeroPadding: gradOutput must be of size [2, 4, 7] like the output, "
                                    "got 3D of size [2, 5, 4]"):
        m.backward(uniform((2, 5, 4)), uniform((2, 5, 4)))
    with raises_exactly(TypeError, "SpatialZeroPadding: gradOutput must be a numpy array, got list"):
        m.backward(uniform((2, 5, 4)), [1.0])


def test_output_must_keep_a_pixel():
    m = nn.SpatialZeroPadding(-2, -2, 0, 1)
    with raises_exactly(ValueError, "SpatialZeroPadding: the output would be 4x0 (height x width) for an input "
                                    "of 3x4 with pad_l=-2, pad_r=-2, pad_t=0, pad_b=1; it must be at least 1x1"):
        m.forward(uniform((2, 3, 4)))


def test_from_torch7_fields():
    m = from_torch7("nn.SpatialZeroPadding", pad_l=1.0, pad_r=-1.0, pad_t=2.0, pad_b=0.0)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == (1, -1, 2, 0)
    assert all(isinstance(v, int) for v in (m.pad_l, m.pad_r, m.pad_t, m.pad_b))
    np.testing.assert_array_equal(m.forward(np.ones((1, 1, 2))), [[[0, 0], [0, 0], [0, 1]]])


def test_repr():
    assert repr(nn.SpatialZeroPadding(-1, 2, 3, 0)) == "nn.SpatialZeroPadding(l=-1, r=2, t=3, b=0)"
