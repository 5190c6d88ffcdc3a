"""nn_legacy.SpatialPadding: nnx's padder (any value, any two dims; negative pads crop)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)
from t7_writer import T7Object, t7_bytes

PADS = {"grow": (1, 2, 3, 0), "crop": (-1, -2, -1, 0), "mixed": (-1, 2, 3, -2)}


def padded(x, l, r, t, b, y, xd, val):
    """The definition, element by element: output[.., i, .., j] = input[.., i - t, .., j - l] where it exists."""
    xs = np.moveaxis(x, (y, xd), (-2, -1))
    h, w = xs.shape[-2:]
    out = np.full(xs.shape[:-2] + (h + t + b, w + l + r), val, dtype=x.dtype)
    for i, j in np.ndindex(*out.shape[-2:]):
        if 0 <= i - t < h and 0 <= j - l < w:
            out[..., i, j] = xs[..., i - t, j - l]
    return np.moveaxis(out, (-2, -1), (y, xd))


@pytest.mark.parametrize("pads", PADS.values(), ids=PADS.keys())
@pytest.mark.parametrize("shape, dims", [((3, 5, 4), (1, 2)), ((2, 3, 5, 4), (-2, -1)), ((5, 3, 4), (0, 2)),
                                         ((2, 4, 3, 5), (3, 1))], ids=["3D", "4D", "dims 0,2", "dims 3,1"])
def test_matches_the_definition(pads, shape, dims):
    m = nn.SpatialPadding(*pads, *dims, val=0.5)
    x = uniform(shape, 1)
    out = m.forward(x)
    np.testing.assert_array_equal(out, padded(x, *pads, *dims, 0.5))
    # the gradient is the definition's transpose: the output positions that came from the input
    g = uniform(out.shape, 2)
    marker = m.clone()
    marker.val = 0
    where = marker.forward(np.arange(1, x.size + 1, dtype=np.float64).reshape(shape))
    expected = np.zeros(x.size)
    kept = where > 0
    expected[where[kept].astype(int) - 1] = g[kept]
    np.testing.assert_array_equal(m.backward(x, g), expected.reshape(shape))


@pytest.mark.parametrize("pads", PADS.values(), ids=PADS.keys())
def test_matches_torch_pad(pads):
    torch = torch_or_skip()
    x = uniform((2, 3, 5, 4), 1)
    m = nn.SpatialPadding(*pads, val=-1)
    out = m.forward(x)
    g = uniform(out.shape, 2)
    t_out, t_grad = torch_forward_backward(lambda t: torch.nn.functional.pad(t, pads, value=-1), x, g)
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(m.backward(x, g), t_grad)


def test_pads_default_to_the_first_and_any_numbers_move():
    m = nn.SpatialPadding(1)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b, m.y_dim, m.x_dim, m.val) == (1, 1, 1, 1, -2, -1, 0)
    out = nn.SpatialPadding(1, 0, 0, 0, val=9).forward(np.arange(4, dtype=np.int32).reshape(2, 2))
    assert out.dtype == np.int32 and out.tolist() == [[9, 0, 1], [9, 2, 3]]


def test_bad_input():
    with raises_exactly(TypeError, "SpatialPadding: pad_t must be an integer, got 1.5"):
        nn.SpatialPadding(1, 1, 1.5)
    with raises_exactly(TypeError, "SpatialPadding: val must be a number, got 'x'"):
        nn.SpatialPadding(1, val="x")
    with raises_exactly(ValueError, "SpatialPadding: y_dim 4 is out of range for input 3D of size [2, 3, 4]"):
        nn.SpatialPadding(1, y_dim=4).forward(uniform((2, 3, 4)))
    with raises_exactly(ValueError, "SpatialPadding: y_dim and x_dim are both dim 2 of input 3D of size [2, 3, 4]"):
        nn.SpatialPadding(1, y_dim=2, x_dim=-1).forward(uniform((2, 3, 4)))
    with raises_exactly(ValueError, "SpatialPadding: the output would be 0x4 (rows x columns) for an input of 3x4 "
                                    "with pad_l=0, pad_r=0, pad_t=-2, pad_b=-1; it must be at least 1x1"):
        nn.SpatialPadding(0, 0, -2, -1).forward(uniform((2, 3, 4)))
    with raises_exactly(ValueError, "SpatialPadding: gradOutput must be of size [2, 5, 6] like the output, got 3D "
                                    "of size [2, 3, 4]"):
        nn.SpatialPadding(1).backward(uniform((2, 3, 4)), uniform((2, 3, 4)))


def test_loads_nnx_files(tmp_path):
    f = tmp_path / "pad.t7"
    # clementfarabet/lua---nnx SpatialPadding.lua (2016): dims counted from 1, a fill value
    f.write_bytes(t7_bytes(T7Object("nn.SpatialPadding", {"pad_l": 1, "pad_r": 0, "pad_t": -1, "pad_b": 2,
                                                           "y_dim": 2, "x_dim": 3, "val": 0.25, "train": True})))
    m = nn.load_lua(str(f))
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b, m.y_dim, m.x_dim, m.val) == (1, 0, -1, 2, 1, 2, 0.25)
    x = uniform((3, 4, 5), 1)
    np.testing.assert_array_equal(m.forward(x), padded(x, 1, 0, -1, 2, 1, 2, 0.25))
    # the 2011 one had neither dims nor value: nnx's defaults (dims 2 and 3, zeros)
    f.write_bytes(t7_bytes(T7Object("nn.SpatialPadding", {"pad_l": 2, "pad_r": 2, "pad_t": 2, "pad_b": 2})))
    m = nn.load_lua(str(f))
    np.testing.assert_array_equal(m.forward(x), padded(x, 2, 2, 2, 2, 1, 2, 0))


def test_repr():
    assert repr(nn.SpatialPadding(1, 2, 3, 4)) == "nn.SpatialPadding(l=1, r=2, t=3, b=4)"
    assert repr(nn.SpatialPadding(1, y_dim=1, x_dim=2, val=2)) == "nn.SpatialPadding(l=1, r=1, t=1, b=1, dims 1,2, val=2)"
