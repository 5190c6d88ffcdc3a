"""nn_legacy.SpatialCrossMapLRN: y[c] = x[c] (k + alpha/size * sum of x[d]^2 over the window of c)^-beta."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7

ALPHA, BETA, K = 0.3, 0.8, 1.5


def window(c, size, planes):
    """The planes whose squares scale plane c: centred for odd sizes."""
    return [d for d in range(c - size // 2, c + (size - 1) // 2 + 1) if 0 <= d < planes]


def lrn(x, size, alpha=ALPHA, beta=BETA, k=K):
    """Plane by plane from the definition; x [batch, planes, H, W]."""
    y = np.empty_like(x)
    for c in range(x.shape[1]):
        scale = k + alpha / size * sum(x[:, d] ** 2 for d in window(c, size, x.shape[1]))
        y[:, c] = x[:, c] * scale ** -beta
    return y


@pytest.mark.parametrize("size", [1, 3, 5, 2, 4])
def test_matches_the_definition(size):
    x = uniform((2, 6, 3, 4), 1)
    np.testing.assert_allclose(nn.SpatialCrossMapLRN(size, ALPHA, BETA, K).forward(x), lrn(x, size),
                               rtol=1e-14, atol=0)


@pytest.mark.parametrize("size", [1, 3, 5, 9, 2, 4])
@pytest.mark.parametrize("shape", [(6, 3, 4), (2, 7, 4, 3)], ids=["3D", "4D"])
def test_matches_torch_local_response_norm(size, shape):
    """PyTorch's local_response_norm follows Torch7's definition (the
    window centred on the plane for odd sizes); for a 3D input it takes
    dim 1 as the channels, so it gets the sample with a batch dim."""
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    batch = (lambda t: t) if len(shape) == 4 else (lambda t: t.unsqueeze(0))
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.local_response_norm(batch(t), size, ALPHA, BETA, K).reshape(shape), x, g)
    m = nn.SpatialCrossMapLRN(size, ALPHA, BETA, K)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-15)


def test_a_plane_scales_only_the_planes_within_its_window():
    """The first plane's squares leave planes beyond the half window alone.
    (torch.legacy.nn's port never removed them from the running sum, an
    off-by-one against Torch7: every later plane was scaled by plane 0.)"""
    x = np.zeros((6, 2, 3))
    x[0] = 10.0
    x[1:] = uniform((5, 2, 3), 1)
    m = nn.SpatialCrossMapLRN(3, ALPHA, BETA, K)
    out = m.forward(x).copy()
    np.testing.assert_allclose(out[1], x[1] * (K + ALPHA / 3 * (x[0] ** 2 + x[1] ** 2 + x[2] ** 2)) ** -BETA,
                               rtol=1e-15)
    without_plane0 = x.copy()
    without_plane0[0] = 0
    cleared = m.forward(without_plane0)
    np.testing.assert_array_equal(out[2:], cleared[2:])   # the windows of planes 2.. do not hold plane 0
    assert np.all(out[1] != cleared[1])                    # plane 1's does


def test_a_cut_window_still_divides_by_size():
    x = uniform((4, 2, 3), 1)
    out = nn.SpatialCrossMapLRN(5, ALPHA, BETA, K).forward(x)
    scale0 = K + ALPHA / 5 * (x[0] ** 2 + x[1] ** 2 + x[2] ** 2)
    np.testing.assert_allclose(out[0], x[0] * scale0 ** -BETA, rtol=1e-15)


def test_torch7_defaults():
    m = nn.SpatialCrossMapLRN(5)
    assert (m.size, m.alpha, m.beta, m.k) == (5, 1e-4, 0.75, 1.0)


# ---------------------------------------------------------------- bad input
def test_bad_arrays():
    check_bad_arrays_numpy(nn.SpatialCrossMapLRN(3), uniform((4, 2, 3), 1), uniform((4, 2, 3), 2))


def test_bad_dimensions():
    with raises_exactly(ValueError, "SpatialCrossMapLRN: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 2D of size [4, 5]"):
        nn.SpatialCrossMapLRN(3).forward(uniform((4, 5)))
    with raises_exactly(ValueError, "SpatialCrossMapLRN: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 5D of size [1, 2, 3, 4, 5]"):
        nn.SpatialCrossMapLRN(3).backward(uniform((1, 2, 3, 4, 5)), uniform((1, 2, 3, 4, 5)))


def test_bad_arguments():
    with raises_exactly(ValueError, "SpatialCrossMapLRN: size must be at least 1, got 0"):
        nn.SpatialCrossMapLRN(0)
    with raises_exactly(TypeError, "SpatialCrossMapLRN: size must be an integer, got 2.5"):
        nn.SpatialCrossMapLRN(2.5)
    with raises_exactly(TypeError, "SpatialCrossMapLRN: beta must be a number, got 'x'"):
        nn.SpatialCrossMapLRN(3, 1e-4, "x")


def test_from_torch7_fields():
    m = from_torch7("nn.SpatialCrossMapLRN", size=3.0, alpha=ALPHA, beta=BETA, k=K, scale=np.zeros((1, 2, 3)))
    assert m.size == 3 and isinstance(m.size, int)
    assert "scale" not in vars(m)
    x = uniform((2, 4, 2, 3), 1)
    np.testing.assert_allclose(m.forward(x), lrn(x, 3), rtol=1e-14)


def test_repr():
    assert repr(nn.SpatialCrossMapLRN(5)) == "nn.SpatialCrossMapLRN(5, alpha=0.0001, beta=0.75, k=1)"
