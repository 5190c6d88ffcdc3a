"""nn_legacy.PixelShuffle: output[c, y*r + i, x*r + j] = input[c*r*r + i*r + j, y, x]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7

# (upscale factor, input shape): non-square planes, with and without a batch dim
CASES = {"r=2, 3D": (2, (8, 3, 5)), "r=3, 4D": (3, (2, 18, 2, 3)), "r=1, 4D": (1, (2, 3, 4, 2)),
         "r=2, 4D": (2, (3, 4, 5, 2))}


def out_shape(r, shape):
    return shape[:-3] + (shape[-3] // (r * r), shape[-2] * r, shape[-1] * r)


def shuffled(x, r):
    """The definition, element by element."""
    out = np.empty(out_shape(r, x.shape), dtype=x.dtype)
    c_out, h, w = out.shape[-3], x.shape[-2], x.shape[-1]
    for c, y, col, i, j in np.ndindex(c_out, h, w, r, r):
        out[..., c, y * r + i, col * r + j] = x[..., c * r * r + i * r + j, y, col]
    return out


@pytest.mark.parametrize("r, shape", CASES.values(), ids=CASES.keys())
def test_matches_the_definition(r, shape):
    x, g = uniform(shape, 1), uniform(out_shape(r, shape), 2)
    m = nn.PixelShuffle(r)
    np.testing.assert_array_equal(m.forward(x), shuffled(x, r))
    # backward moves gradOutput back: the inverse permutation
    np.testing.assert_array_equal(shuffled(m.backward(x, g), r), g)


@pytest.mark.parametrize("r, shape", CASES.values(), ids=CASES.keys())
def test_matches_torch_pixel_shuffle(r, shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(out_shape(r, shape), 2)
    check_matches_torch(nn.PixelShuffle(r), lambda t: torch.nn.functional.pixel_shuffle(t, r), x, g)


def test_moves_any_numbers():
    x = np.arange(8, dtype=np.int64).reshape(4, 1, 2)
    out = nn.PixelShuffle(2).forward(x)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, [[[0, 2, 1, 3], [4, 6, 5, 7]]])


# ---------------------------------------------------------------- bad input
def test_bad_input():
    m = nn.PixelShuffle(2)
    with raises_exactly(ValueError, "PixelShuffle: the number of input planes must be a multiple of "
                                    "upscaleFactor^2 = 4, got 6 in 4D of size [2, 6, 3, 5]"):
        m.forward(uniform((2, 6, 3, 5)))
    with raises_exactly(ValueError, "PixelShuffle: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 2D of size [4, 5]"):
        m.forward(uniform((4, 5)))
    with raises_exactly(TypeError, "PixelShuffle: input must be a numpy array, got list"):
        m.forward([[[1.0]]])
    with raises_exactly(ValueError, "PixelShuffle: gradOutput must be of size [2, 4, 6] like the output, "
                                    "got 3D of size [2, 6, 4]"):
        m.backward(uniform((8, 2, 3)), uniform((2, 6, 4)))


def test_bad_arguments():
    with raises_exactly(ValueError, "PixelShuffle: upscaleFactor must be at least 1, got 0"):
        nn.PixelShuffle(0)
    with raises_exactly(TypeError, "PixelShuffle: upscaleFactor must be an integer, got 2.5"):
        nn.PixelShuffle(2.5)


def test_from_torch7_fields():
    m = from_torch7("nn.PixelShuffle", upscaleFactor=2.0, upscaleFactorSquared=4.0, _shuffleOut=np.zeros(3))
    assert (m.upscaleFactor, m.upscaleFactorSquared) == (2, 4)
    assert "_shuffleOut" not in vars(m)
    x = uniform((8, 2, 3), 1)
    np.testing.assert_array_equal(m.forward(x), shuffled(x, 2))


def test_repr():
    assert repr(nn.PixelShuffle(3)) == "nn.PixelShuffle(3)"
