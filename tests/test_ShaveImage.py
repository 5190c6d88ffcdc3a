"""nn_legacy.ShaveImage: fast-neural-style's border trim."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, uniform)
from t7_writer import T7Object, t7_bytes


def shaved(x, s):
    """The definition, element by element."""
    h, w = x.shape[-2:]
    out = np.empty(x.shape[:-2] + (h - 2 * s, w - 2 * s), x.dtype)
    for y, c in np.ndindex(*out.shape[-2:]):
        out[..., y, c] = x[..., y + s, c + s]
    return out


@pytest.mark.parametrize("size", [0, 1, 2])
@pytest.mark.parametrize("shape", [(3, 6, 7), (2, 3, 6, 5)], ids=["3D", "4D"])
def test_matches_the_definition(size, shape):
    m = nn.ShaveImage(size)
    x = uniform(shape, 1)
    out = m.forward(x)
    np.testing.assert_array_equal(out, shaved(x, size))
    g = uniform(out.shape, 2)
    expected = np.zeros(shape)
    expected[..., size:shape[-2] - size, size:shape[-1] - size] = g
    np.testing.assert_array_equal(m.backward(x, g), expected)


def test_moves_any_numbers():
    x = np.arange(16, dtype=np.int16).reshape(1, 4, 4)
    out = nn.ShaveImage(1).forward(x)
    assert out.dtype == np.int16 and out.tolist() == [[[5, 6], [9, 10]]]


def test_bad_input():
    with raises_exactly(TypeError, "ShaveImage: size must be an integer, got 1.5"):
        nn.ShaveImage(1.5)
    with raises_exactly(ValueError, "ShaveImage: size must be at least 0, got -1"):
        nn.ShaveImage(-1)
    m = nn.ShaveImage(2)
    with raises_exactly(ValueError, "ShaveImage: shaving 2 from each side of a 4x6 (height x width) input leaves "
                                    "nothing; the input must be larger than 4x4"):
        m.forward(uniform((1, 4, 6)))
    with raises_exactly(ValueError, "ShaveImage: input must be 3D [planes, height, width] or 4D [batch, planes, "
                                    "height, width], got 2D of size [6, 6]"):
        m.forward(uniform((6, 6)))
    with raises_exactly(ValueError, "ShaveImage: gradOutput must be of size [1, 2, 2] like the output, got 3D of "
                                    "size [1, 6, 6]"):
        m.backward(uniform((1, 6, 6)), uniform((1, 6, 6)))


def test_loads_from_a_fast_neural_style_file(tmp_path):
    # jcjohnson/fast-neural-style fast_neural_style/ShaveImage.lua: one field, size
    f = tmp_path / "shave.t7"
    f.write_bytes(t7_bytes(T7Object("nn.ShaveImage", {"size": 3, "output": np.zeros(0), "gradInput": np.zeros(0),
                                                       "train": True, "_type": "torch.FloatTensor"})))
    m = nn.load_lua(str(f))
    assert isinstance(m, nn.ShaveImage) and m.size == 3 and type(m.size) is int
    x = uniform((1, 3, 8, 9), 1)
    np.testing.assert_array_equal(m.forward(x), shaved(x, 3))


def test_repr():
    assert repr(nn.ShaveImage(4)) == "nn.ShaveImage(4)"
