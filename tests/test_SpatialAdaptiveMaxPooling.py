"""nn_legacy.SpatialAdaptiveMaxPooling and the SpatialAdaptiveMaxPooling_*
kernels: the max over the windows of a W x H grid laid over each plane."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import adaptive_windows, distinct, ref_index_grad, ref_max, torch_module_grad

SHAPE = (2, 3, 7, 9)
# (W, H): shrinking, overlapping windows, growing (windows repeat), one output
SIZES = [(4, 3), (5, 2), (12, 10), (1, 1), (9, 7)]


def reference(x, W, H):
    return ref_max(x, [adaptive_windows(x.shape[-2], H), adaptive_windows(x.shape[-1], W)])


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(size, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    out, ind = reference(x, *size)
    g = uniform(out.shape, 2).astype(dtype)
    m = nn.SpatialAdaptiveMaxPooling(*size)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 2, ind, g))


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_matches_torch(size):
    torch = torch_or_skip()
    W, H = size
    x = uniform((2, 3, 11, 10), 1)
    m = nn.SpatialAdaptiveMaxPooling(W, H)
    out = m.forward(x)
    g = uniform(out.shape, 2)

    def pool(t):
        return torch.nn.functional.adaptive_max_pool2d(t, (H, W), return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_nan_wins_and_ties_keep_the_first():
    x = np.zeros((1, 4, 6))
    x[0, 0, 1] = x[0, 1, 0] = 2.0
    x[0, 2, 4] = np.nan
    m = nn.SpatialAdaptiveMaxPooling(2, 2)
    out = m.forward(x)
    np.testing.assert_array_equal(m.indices[0], [[1, 3], [12, 16]])
    assert out[0, 0, 0] == 2 and np.isnan(out[0, 1, 1])


def test_any_input_size_gives_the_same_output_size():
    m = nn.SpatialAdaptiveMaxPooling(4, 3)
    for shape in [(3, 7, 9), (3, 3, 4), (3, 1, 1), (3, 20, 5)]:
        assert m.forward(uniform(shape, 1)).shape == (3, 3, 4)


def test_repr_and_torch7_file(tmp_path):
    from t7_writer import T7Object, t7_bytes
    assert repr(nn.SpatialAdaptiveMaxPooling(4, 3)) == "nn.SpatialAdaptiveMaxPooling(4x3)"
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialAdaptiveMaxPooling",
                                                      {"W": 4.0, "H": 3.0, "indices": np.ones((2, 3))})))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.W, m.H, m.indices) == (4, 3, None)
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), nn.SpatialAdaptiveMaxPooling(4, 3).forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("size, message", [((0, 3), "output width must be at least 1, got 0"),
                                           ((4, -1), "output height must be at least 1, got -1")])
def test_bad_output_size(size, message):
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateOutput: " + message):
        nn.SpatialAdaptiveMaxPooling(*size).forward(uniform(SHAPE, 1))


def test_empty_plane_is_refused():
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateOutput: input must have a width of at "
                                        "least 1, got 3D of size [3, 4, 0]"):
        nn.SpatialAdaptiveMaxPooling(2, 2).forward(np.zeros((3, 4, 0)))


def test_output_too_large_for_the_window_arithmetic():
    """Window bounds multiply output and input sizes: a broadcast input of
    2^40 rows with 2^24 outputs would overflow int64."""
    x = np.broadcast_to(np.ones(1), (1, 1, 2 ** 40, 1))
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateOutput: output height 16777216 is too "
                                        "large for an input 4D of size [1, 1, 1099511627776, 1]"):
        nn.SpatialAdaptiveMaxPooling(1, 2 ** 24).forward(x)


def test_wrong_number_of_dims():
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateOutput: input must be 3D [planes, height, "
                                        "width] or 4D [batch, planes, height, width], got 2D of size [7, 9]"):
        nn.SpatialAdaptiveMaxPooling(2, 2).forward(uniform((7, 9), 1))


def test_mismatched_gradOutput_and_tampered_indices():
    m = nn.SpatialAdaptiveMaxPooling(4, 3)
    x = uniform(SHAPE, 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 3, 3, 4], got 4D of size [2, 3, 4, 3]"):
        m.backward(x, uniform((2, 3, 4, 3), 2))
    m.indices[1, 0, 2, 3] = 1000
    with raises_exactly(thnn.THNNError, "SpatialAdaptiveMaxPooling_updateGradInput: indices[1, 0, 2, 3] = 1000 is "
                                        "out of range [0, 63)"):
        m.backward(x, uniform((2, 3, 3, 4), 2))
