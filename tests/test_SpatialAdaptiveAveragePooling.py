"""nn_legacy.SpatialAdaptiveAveragePooling and the
SpatialAdaptiveAveragePooling_* kernels: the mean over the windows of a
W x H grid laid over each plane."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import adaptive_windows, ref_avg, ref_avg_grad, torch_module_grad

SHAPE = (2, 3, 7, 9)
SIZES = [(4, 3), (5, 2), (12, 10), (1, 1), (9, 7)]


def windows(shape, W, H):
    return [adaptive_windows(shape[-2], H), adaptive_windows(shape[-1], W)]


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_matches_the_reference_loop(size):
    x = uniform(SHAPE, 1)
    w = windows(SHAPE, *size)
    out = ref_avg(x, w, "adaptive")
    g = uniform(out.shape, 2)
    m = nn.SpatialAdaptiveAveragePooling(*size)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), ref_avg_grad(x.shape, w, "adaptive", g))


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_matches_torch(size):
    torch = torch_or_skip()
    W, H = size
    x = uniform((2, 3, 11, 10), 1)
    m = nn.SpatialAdaptiveAveragePooling(W, H)
    out = m.forward(x)
    g = uniform(out.shape, 2)
    t_out, t_grad = torch_module_grad(torch, lambda t: torch.nn.functional.adaptive_avg_pool2d(t, (H, W)), x, g)
    grad = m.backward(x, g)
    if size == (1, 1):  # torch takes x.mean() here: another order of additions, one division
        np.testing.assert_allclose(out, t_out, rtol=1e-14, atol=0)
        np.testing.assert_allclose(grad, t_grad, rtol=1e-15, atol=0)
    else:
        np.testing.assert_array_equal(out, t_out)
        np.testing.assert_array_equal(grad, t_grad)


def test_one_output_is_the_plane_mean():
    x = uniform((3, 5, 4), 1)
    np.testing.assert_allclose(nn.SpatialAdaptiveAveragePooling(1, 1).forward(x)[:, 0, 0], x.mean(axis=(1, 2)),
                               rtol=1e-14)


def test_repr_and_torch7_file(tmp_path):
    from t7_writer import T7Object, t7_bytes
    assert repr(nn.SpatialAdaptiveAveragePooling(4, 3)) == "nn.SpatialAdaptiveAveragePooling(4x3)"
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialAdaptiveAveragePooling", {"W": 4.0, "H": 3.0})))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.W, m.H) == (4, 3) and type(m.W) is int
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), nn.SpatialAdaptiveAveragePooling(4, 3).forward(x))


# ---------------------------------------------------------------- bad input
def test_bad_output_size():
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveAveragePooling_updateOutput: output height must be at "
                                        "least 1, got 0"):
        nn.SpatialAdaptiveAveragePooling(3, 0).forward(uniform(SHAPE, 1))


def test_empty_plane_is_refused():
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveAveragePooling_updateOutput: input must have a height of "
                                        "at least 1, got 4D of size [1, 3, 0, 4]"):
        nn.SpatialAdaptiveAveragePooling(2, 2).forward(np.zeros((1, 3, 0, 4)))
