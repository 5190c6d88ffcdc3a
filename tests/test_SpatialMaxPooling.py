"""nn_legacy.SpatialMaxPooling and the SpatialMaxPooling_* kernels: the max
of every kW x kH window, with 0-based indices within each plane."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import distinct, fixed_windows, ref_index_grad, ref_max, torch_module_grad

# (kW, kH, dW, dH, padW, padH, ceil): never square, the 2x2 fast path, ceil mode, padding
WINDOWS = [(3, 2, 2, 1, 1, 0, False), (2, 3, 1, 2, 0, 1, True), (2, 2, 2, 2, 0, 0, False),
           (2, 2, 2, 2, 0, 0, True), (3, 2, 3, 2, 1, 1, True)]
SHAPE = (2, 3, 5, 7)


def make(kW=3, kH=2, dW=2, dH=1, padW=1, padH=0, ceil=False):
    m = nn.SpatialMaxPooling(kW, kH, dW, dH, padW, padH)
    return m.ceil() if ceil else m


def reference(x, kW, kH, dW, dH, padW, padH, ceil):
    H, W = x.shape[-2:]
    return ref_max(x, [fixed_windows(H, kH, dH, padH, 1, ceil), fixed_windows(W, kW, dW, padW, 1, ceil)])


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("shape", [SHAPE, (3, 6, 5), (1, 2, 4, 4)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(window, shape, dtype):
    x = distinct(shape, 1).astype(dtype)
    g = uniform(shape[:-2] + reference(x, *window)[0].shape[-2:], 2).astype(dtype)
    m = make(*window)
    out, ind = reference(x, *window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    assert m.indices.dtype == np.int64 and m.output.dtype == dtype
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 2, ind, g).astype(dtype))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch(window, dtype):
    torch = torch_or_skip()
    kW, kH, dW, dH, padW, padH, ceil = window
    x = uniform((2, 3, 9, 11), 1).astype(dtype)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)

    def pool(t):
        return torch.nn.functional.max_pool2d(t, (kH, kW), (dH, dW), (padH, padW), ceil_mode=ceil,
                                              return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_unbatched_input_matches_torch():
    torch = torch_or_skip()
    x = uniform((3, 6, 8), 1)
    m = make(3, 2, 2, 1, 1, 0, True)
    t_out, t_ind = torch.nn.functional.max_pool2d(torch.from_numpy(x), (2, 3), (1, 2), (0, 1), ceil_mode=True,
                                                  return_indices=True)
    np.testing.assert_array_equal(m.forward(x), t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("window", [(2, 2, 2, 2, 0, 0, False), (3, 2, 2, 1, 1, 0, False)], ids=str)
def test_ties_keep_the_first_and_nan_wins(window, dtype):
    """Equal values: the first in row-major order; NaN: the output is NaN and
    its index the window's last NaN (PyTorch's rule), in the 2x2 fast path
    (both types) and elsewhere."""
    x = np.zeros((1, 1, 4, 6), dtype=dtype)
    x[0, 0, 0, 2] = x[0, 0, 1, 2] = x[0, 0, 1, 3] = 1.0      # a tie
    x[0, 0, 2, 0] = x[0, 0, 3, 1] = np.nan                    # two NaNs in one window
    x[0, 0, 2, 4] = -np.inf
    x[0, 0, 2, 5] = x[0, 0, 3, 4] = x[0, 0, 3, 5] = -np.inf   # a window of -inf only
    m = make(*window)
    out = m.forward(x)
    ref_out, ref_ind = reference(x, *window)
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(m.indices, ref_ind)
    if window[0] == 2:
        np.testing.assert_array_equal(m.indices[0, 0], [[0, 2, 4], [19, 14, 16]])
        assert np.isnan(out[0, 0, 1, 0]) and out[0, 0, 1, 2] == -np.inf
    torch = pytest.importorskip("torch")
    kW, kH, dW, dH, padW, padH, ceil = window
    t_out, t_ind = torch.nn.functional.max_pool2d(torch.from_numpy(x), (kH, kW), (dH, dW), (padH, padW),
                                                  return_indices=True)
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())


def test_indices_buffer_is_reused_for_the_same_shape():
    m = make()
    m.forward(uniform(SHAPE, 1))
    first = m.indices
    kept = first.copy()
    m.forward(uniform(SHAPE, 2))
    assert m.indices is first
    m.forward(uniform((1,) + SHAPE[1:], 3))
    assert m.indices is not first and m.indices.shape == (1, 3, 4, 4)
    m.forward(uniform(SHAPE, 2))
    assert m.indices is not first
    first[...] = kept  # the array handed out before is still valid memory


def test_empty_batch_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0, 3, 5, 7))).shape == (0, 3, 4, 4)
    assert m.indices.shape == (0, 3, 4, 4)
    assert m.backward(np.zeros((0, 3, 5, 7)), np.zeros((0, 3, 4, 4))).shape == (0, 3, 5, 7)


def test_has_no_parameters_and_clearState_drops_the_indices():
    m = make()
    m.forward(uniform(SHAPE, 1))
    assert m.parameters() == ([], [])
    m.clearState()
    assert m.indices is None and m.output is None


# ---------------------------------------------------------------- Torch7 API
def test_defaults_are_torch7s():
    m = nn.SpatialMaxPooling(3, 2)
    assert (m.kW, m.kH, m.dW, m.dH, m.padW, m.padH, m.ceil_mode) == (3, 2, 3, 2, 0, 0, False)
    assert m.ceil() is m and m.ceil_mode
    assert m.floor() is m and not m.ceil_mode


def test_ceil_mode_drops_a_last_window_starting_in_the_padding():
    # W = 6, kW = 3, dW = 2: ceil mode adds a window at column 4, cut at the border;
    # H = 5, kH = 2, dH = 2, padH = 1: the extra window would start at row 5, in the padding
    x = uniform((1, 5, 6), 1)
    assert nn.SpatialMaxPooling(3, 2, 2, 2, 0, 1).forward(x).shape == (1, 3, 2)
    m = nn.SpatialMaxPooling(3, 2, 2, 2, 0, 1).ceil()
    assert m.forward(x).shape == (1, 3, 3)
    np.testing.assert_array_equal(m.output[0, :, 2], [x[0, 0, 4:].max(), x[0, 1:3, 4:].max(), x[0, 3:, 4:].max()])


def test_records_the_input_size_for_unpooling():
    m = make()
    m.forward(uniform(SHAPE, 1))
    assert (m.iheight, m.iwidth) == (5, 7)


def test_repr():
    assert repr(nn.SpatialMaxPooling(3, 2)) == "nn.SpatialMaxPooling(3x2, 3,2)"
    assert repr(make()) == "nn.SpatialMaxPooling(3x2, 2,1, 1,0)"


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    fields = {"kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "padW": 1.0, "padH": 0.0, "ceil_mode": True,
              "indices": np.ones((2, 3, 4, 5)), "output": np.zeros(0), "gradInput": np.zeros(0), "train": True}
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.kW, m.kH, m.dW, m.dH, m.padW, m.padH, m.ceil_mode, m.indices) == (3, 2, 2, 1, 1, 0, True, None)
    assert all(type(v) is int for v in (m.kW, m.kH, m.dW, m.dH, m.padW, m.padH))
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make(ceil=True).forward(x))
    # a file from before padding and ceil mode existed
    (tmp_path / "old.t7").write_bytes(t7_bytes(T7Object("nn.SpatialMaxPooling", {"kW": 2.0, "kH": 3.0, "dW": 2.0,
                                                                                 "dH": 3.0})))
    old = nn.load_lua(str(tmp_path / "old.t7"))
    assert (old.padW, old.padH, old.ceil_mode) == (0, 0, False)
    np.testing.assert_array_equal(old.forward(x), nn.SpatialMaxPooling(2, 3).forward(x))


def test_sizes_must_be_integers():
    with raises_exactly(TypeError, "SpatialMaxPooling: kH must be an integer, got 2.5"):
        nn.SpatialMaxPooling(3, 2.5)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("shape, described", [((5, 7), "2D of size [5, 7]"),
                                             ((1, 2, 3, 5, 7), "5D of size [1, 2, 3, 5, 7]")])
def test_wrong_number_of_dims(shape, described):
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateOutput: input must be 3D [planes, height, width] "
                                        f"or 4D [batch, planes, height, width], got {described}"):
        make().forward(np.zeros(shape))


@pytest.mark.parametrize("args, message", [
    ((0, 2), "kernel size must be > 0, got kW=0"),
    ((3, -1), "kernel size must be > 0, got kH=-1"),
    ((3, 2, 0, 1), "stride must be > 0, got dW=0"),
    ((3, 2, 2, -2), "stride must be > 0, got dH=-2"),
    ((3, 2, 2, 1, 2, 0), "padding must be >= 0 and at most half the kernel size, got padW=2 for kW=3"),
    ((3, 2, 2, 1, 1, -1), "padding must be >= 0 and at most half the kernel size, got padH=-1 for kH=2"),
])
def test_bad_window(args, message):
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateOutput: " + message):
        nn.SpatialMaxPooling(*args).forward(uniform(SHAPE, 1))


def test_input_smaller_than_the_window():
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateOutput: input (4D of size [2, 3, 5, 3]) is too "
                                        "small along width (3) for the window kW=5, dW=1, padW=0: the output width "
                                        "would be -1, it must be at least 1"):
        nn.SpatialMaxPooling(5, 2, 1, 1).forward(uniform((2, 3, 5, 3), 1))


def test_mismatched_gradOutput():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 3, 4, 4], got 4D of size [2, 3, 4, 5]"):
        m.backward(x, uniform((2, 3, 4, 5), 2))


def test_indices_out_of_range_are_refused_and_nothing_is_written():
    m = make()
    x, g = uniform(SHAPE, 1), uniform((2, 3, 4, 4), 2)
    m.forward(x)
    grad = m.backward(x, g)
    kept = grad.copy()
    m.indices[1, 2, 3, 0] = 35
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateGradInput: indices[1, 2, 3, 0] = 35 is out of "
                                        "range [0, 35)"):
        m.backward(x, g)
    m.indices[1, 2, 3, 0] = -1
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateGradInput: indices[1, 2, 3, 0] = -1 is out of "
                                        "range [0, 35)"):
        m.backward(x, g)
    np.testing.assert_array_equal(grad, kept)


def test_indices_of_the_wrong_shape_are_refused():
    m = make()
    x, g = uniform(SHAPE, 1), uniform((2, 3, 4, 4), 2)
    m.forward(x)
    m.indices = m.indices[:, :2]
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateGradInput: indices must be 4D of size "
                                        "[2, 3, 4, 4], got 4D of size [2, 2, 4, 4]"):
        m.backward(x, g)


def test_strided_indices_are_read_through_their_strides():
    x, g = uniform(SHAPE, 1), uniform((2, 3, 4, 4), 2)
    out, ind = thnn.Double.SpatialMaxPooling_updateOutput(x, None, None, 3, 2, 2, 1, 1, 0, False)
    want = thnn.Double.SpatialMaxPooling_updateGradInput(x, g, None, ind, 3, 2, 2, 1, 1, 0, False)
    strided = np.zeros((2, 3, 4, 8), dtype=np.int64) - 99
    strided[..., ::2] = ind
    np.testing.assert_array_equal(
        thnn.Double.SpatialMaxPooling_updateGradInput(x, g, None, strided[..., ::2], 3, 2, 2, 1, 1, 0, False), want)
    strided[0, 0, 0, 2] = 77
    with raises_exactly(thnn.THNNError, "SpatialMaxPooling_updateGradInput: indices[0, 0, 0, 1] = 77 is out of "
                                        "range [0, 35)"):
        thnn.Double.SpatialMaxPooling_updateGradInput(x, g, None, strided[..., ::2], 3, 2, 2, 1, 1, 0, False)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("width", [6, 8, 24, 31, 36], ids=lambda w: f"width{w}")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_2x2_path_on_short_and_long_rows(width, dtype, threads):
    # rows shorter than a vector (one pass) and longer (two passes), an odd
    # last column no window reads, ties, NaN and -inf; sizes at which the
    # planes are shared between threads (64K elements and more)
    rng = np.random.default_rng(width)
    x = rng.integers(-3, 4, size=(9, 8, 34, width)).astype(dtype)   # many ties
    x[rng.random(x.shape) < 0.01] = np.nan
    x[rng.random(x.shape) < 0.01] = -np.inf
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        m = make(2, 2, 2, 2, 0, 0, False)
        out = m.forward(x)
        g = uniform(out.shape, 3).astype(dtype)
        gi = m.backward(x, g)
    finally:
        thnn.set_num_threads(before)
    ref_out, ref_ind = reference(x, 2, 2, 2, 2, 0, 0, False)
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(m.indices, ref_ind)
    np.testing.assert_array_equal(gi, ref_index_grad(x.shape, 2, ref_ind, g).astype(dtype))
