"""nn_legacy.TemporalMaxPooling and the TemporalMaxPooling_* kernels:
y[t, c] = max_{k<kW} x[t*dW + k, c], indices[t, c] = the k of that maximum."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_buffer_reuse,
                          raises_exactly,
                          torch_forward_backward, torch_or_skip, uniform)

C = 3
WINDOWS = [(3, 1), (3, 2), (2, 2), (2, 3), (1, 1)]
WINDOW_IDS = ["k3d1", "k3d2", "k2d2", "k2d3", "k1d1"]


def _binding_returns_int64_buffers():
    _, indices = thnn.Double.TemporalMaxPooling_updateOutput(np.zeros((1, 1)), None, None, 1, 1)
    return indices.dtype == np.int64


# thnn/_binding.py (not this layer's file) hands back an int64 [BUFFER] with the
# float dtype of the call, and then refuses it as indices ("must be an integer
# array") in the backward pass.  Until that is fixed these tests are expected to
# fail in exactly that way (strict: they must fail, and with that exception);
# once it is fixed they run as ordinary tests.
needs_int64_buffers = pytest.mark.xfail(
    not _binding_returns_int64_buffers(), raises=TypeError, strict=True,
    reason="bug in thnn/_binding.py: an int64 [BUFFER] comes back with the float dtype")


def make(kW=3, dW=2):
    return nn.TemporalMaxPooling(kW, dW)


def n_out(n_frames, kW, dW):
    return (n_frames - kW) // dW + 1


def distinct(shape, seed=0):
    """Values 0.01 or more apart: no ties, not even within a Jacobian step."""
    return np.random.default_rng(seed).permutation(int(np.prod(shape))).reshape(shape) * 0.01 - 1.0


def numpy_pool(x, kW, dW):
    """(output, indices, gradInput for gradOutput = 1 everywhere)."""
    windows = np.stack([x[..., t * dW:t * dW + kW, :] for t in range(n_out(x.shape[-2], kW, dW))], axis=-3)
    k = windows.argmax(axis=-2)                    # argmax: the first maximum
    out = np.take_along_axis(windows, k[..., None, :], axis=-2)[..., 0, :]
    return out, k


def numpy_backward(x, g, k, dW):
    gin = np.zeros_like(x)
    for t in range(g.shape[-2]):
        rows = t * dW + k[..., t, :]               # the winning frame of every (sample, feature)
        np.put_along_axis(gin, rows[..., None, :],
                          np.take_along_axis(gin, rows[..., None, :], axis=-2) + g[..., t, None, :], axis=-2)
    return gin


def data(shape, kW, dW, seed=1):
    return distinct(shape, seed), uniform(shape[:-2] + (n_out(shape[-2], kW, dW), shape[-1]), seed + 1)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("shape", [(10, C), (2, 10, C)], ids=["2D", "3D"])
def test_forward_matches_numpy(shape, kW, dW):
    x, _ = data(shape, kW, dW)
    np.testing.assert_array_equal(make(kW, dW).forward(x), numpy_pool(x, kW, dW)[0])


@needs_int64_buffers
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
@pytest.mark.parametrize("shape", [(10, C), (2, 10, C)], ids=["2D", "3D"])
def test_backward_matches_numpy(shape, kW, dW):
    m = make(kW, dW)
    x, g = data(shape, kW, dW)
    m.forward(x)
    gin = m.backward(x, g)
    np.testing.assert_array_equal(gin, numpy_backward(x, g, numpy_pool(x, kW, dW)[1], dW))


@pytest.mark.xfail(not _binding_returns_int64_buffers(), raises=AssertionError, strict=True,
                   reason="bug in thnn/_binding.py: an int64 [BUFFER] comes back with the float dtype")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_indices_are_int64_window_offsets(dtype):
    m = make(3, 2)
    x = distinct((2, 10, C)).astype(dtype)
    m.forward(x)
    assert m.indices.dtype == np.int64, m.indices.dtype
    np.testing.assert_array_equal(m.indices, numpy_pool(x, 3, 2)[1])


def test_a_hand_computed_example():
    x = np.array([[1.0, 9.0], [5.0, 2.0], [3.0, 7.0], [4.0, 8.0], [0.0, 0.0]])
    np.testing.assert_array_equal(nn.TemporalMaxPooling(2, 2).forward(x), [[5.0, 9.0], [4.0, 8.0]])


def test_dW_defaults_to_kW():
    m = nn.TemporalMaxPooling(3)
    assert (m.kW, m.dW) == (3, 3)
    assert m.forward(distinct((9, C))).shape == (3, C)


@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
def test_forward_matches_torch_max_pool1d(kW, dW):
    torch = torch_or_skip()
    x, _ = data((2, 10, C), kW, dW)
    out = torch.nn.functional.max_pool1d(torch.from_numpy(x).transpose(1, 2), kW, dW).transpose(1, 2)
    np.testing.assert_array_equal(make(kW, dW).forward(x), out.numpy())


@needs_int64_buffers
@pytest.mark.parametrize("kW, dW", WINDOWS, ids=WINDOW_IDS)
def test_backward_and_indices_match_torch_max_pool1d(kW, dW):
    """torch's indices are absolute frame numbers: t*dW + our window offset."""
    torch = torch_or_skip()
    x, g = data((2, 10, C), kW, dW)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.max_pool1d(t.transpose(1, 2), kW, dW).transpose(1, 2), x, g)
    m = make(kW, dW)
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    _, where = torch.nn.functional.max_pool1d(torch.from_numpy(x).transpose(1, 2), kW, dW, return_indices=True)
    frames = np.arange(out.shape[1])[None, :, None] * dW
    np.testing.assert_array_equal(frames + m.indices, where.transpose(1, 2).numpy())


@needs_int64_buffers
def test_ties_go_to_the_first_maximum():
    m = nn.TemporalMaxPooling(3, 1)
    x = np.array([[2.0], [2.0], [1.0], [2.0]])
    np.testing.assert_array_equal(m.forward(x), [[2.0], [2.0]])
    np.testing.assert_array_equal(m.backward(x, np.array([[1.0], [10.0]])), [[1.0], [10.0], [0.0], [0.0]])
    np.testing.assert_array_equal(m.indices, [[0], [0]])


@needs_int64_buffers
def test_overlapping_windows_add_up():
    m = nn.TemporalMaxPooling(3, 1)
    x = np.array([[0.0], [5.0], [1.0], [2.0]])      # frame 1 wins both windows
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, np.array([[1.0], [10.0]])), [[0.0], [11.0], [0.0], [0.0]])


@needs_int64_buffers
def test_a_window_of_minus_infinity_picks_its_first_frame():
    """The index stays inside the window (Torch7's kernel left it at -1 and
    wrote the gradient before the window)."""
    m = nn.TemporalMaxPooling(2, 2)
    x = np.array([[-np.inf, 1.0], [-np.inf, 3.0], [0.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal(m.forward(x), [[-np.inf, 3.0], [1.0, 0.0]])
    np.testing.assert_array_equal(m.backward(x, np.ones((2, 2))), [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    np.testing.assert_array_equal(m.indices, [[0, 1], [1, 0]])


@needs_int64_buffers
@pytest.mark.parametrize("frame", [2, 3], ids=["first-in-window", "second-in-window"])
def test_nan_propagates_and_takes_the_gradient(frame):
    """A NaN at frame 2 or 3 (window 1 of kW = dW = 2) makes that output NaN
    and nothing else; the window's gradient goes to the NaN frame."""
    m = make(2, 2)
    x, g = data((2, 8, C), 2, 2)
    clean_out = m.forward(x).copy()
    clean_gin = m.backward(x, g).copy()
    x[1, frame, 2] = np.nan
    out = m.forward(x)
    gin = m.backward(x, g)
    mask = np.zeros(clean_out.shape, dtype=bool)
    mask[1, 1, 2] = True
    np.testing.assert_array_equal(np.isnan(out), mask)
    np.testing.assert_array_equal(out[~mask], clean_out[~mask])
    expected = clean_gin.copy()
    expected[1, 2:4, 2] = 0
    expected[1, frame, 2] = g[1, 1, 2]
    np.testing.assert_array_equal(gin, expected)
    assert m.indices[1, 1, 2] == frame - 2


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
@needs_int64_buffers
def test_buffer_reuse_across_shapes():
    m = make()
    check_buffer_reuse(m, *data((3, 12, C), 3, 2), *data((2, 7, C), 3, 2, seed=5))
    indices, x = m.indices, distinct((2, 7, C), 9)
    kept = indices.copy()
    m.forward(x)
    assert m.indices is indices, "a forward of the same shape did not reuse the indices buffer"
    np.testing.assert_array_equal(m.indices, numpy_pool(x, 3, 2)[1])
    m.forward(distinct((1, 9, C), 10))
    assert m.indices is not indices and m.indices.shape == (1, 4, C)
    np.testing.assert_array_equal(indices, numpy_pool(x, 3, 2)[1])  # the old buffer was left alone
    assert kept.shape == indices.shape


def test_a_float_indices_array_is_never_handed_to_the_kernel():
    """An indices attribute that is not int64 (assigned, or loaded from an
    old Torch7 file where indices were a float tensor) is replaced, not
    written through: int64 values in a float32 array of the same shape
    would run past its end."""
    m = make(3, 2)
    x = distinct((9, C)).astype(np.float32)
    guard = np.zeros(24, np.float32)
    m.indices = guard[:12].reshape(4, C)
    m.forward(x)
    assert m.indices is not guard[:12] and not guard.any()
    np.testing.assert_array_equal(m.output, numpy_pool(x, 3, 2)[0])


def test_clearState_drops_the_indices():
    m = make()
    m.forward(distinct((9, C)))
    assert m.indices is not None
    m.clearState()
    assert m.indices is None and m.output is None


def test_repr():
    assert repr(nn.TemporalMaxPooling(3)) == "nn.TemporalMaxPooling(kW=3, dW=3)"


# ---------------------------------------------------------------- bad input
def test_backward_before_forward():
    with raises_exactly(RuntimeError, "TemporalMaxPooling: updateGradInput needs the indices of a forward pass first"):
        make().updateGradInput(distinct((9, C)), np.zeros((4, C)))


@pytest.mark.parametrize("args, got", [((0,), "kW=0, dW=0"), ((3, 0), "kW=3, dW=0"), ((-1, 2), "kW=-1, dW=2")])
def test_constructor_refuses_non_positive_sizes(args, got):
    with raises_exactly(ValueError, f"TemporalMaxPooling: kW, dW must be positive integers, got {got}"):
        nn.TemporalMaxPooling(*args)


@pytest.mark.parametrize("shape, described", [((9,), "1D of size [9]"), ((1, 2, 9, C), "4D of size [1, 2, 9, 3]")])
def test_wrong_dimension(shape, described):
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateOutput: input must be 2D [nInputFrame, frameSize] "
                                        f"or 3D [batch, nInputFrame, frameSize], got {described}"):
        make().forward(np.zeros(shape))


def test_sequence_shorter_than_kW():
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateOutput: input must be at least kW = 3 frames long, "
                                        "got 3D of size [2, 2, 3]"):
        make(3, 1).forward(np.zeros((2, 2, C)))


@pytest.mark.parametrize("kW, dW", [(0, 1), (2, 0), (-3, 1)])
def test_kernel_refuses_non_positive_kW_dW(kW, dW):
    k, x = thnn.Double, np.zeros((5, C))
    message = f"kW and dW must be positive, got kW = {kW}, dW = {dW}"
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateOutput: " + message):
        k.TemporalMaxPooling_updateOutput(x, None, None, kW, dW)
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateGradInput: " + message):
        k.TemporalMaxPooling_updateGradInput(x, np.zeros((5, C)), None, np.zeros((5, C), np.int64), kW, dW)


@pytest.mark.parametrize("g_shape, described", [((2, 5, C), "3D of size [2, 5, 3]"), ((4, C), "2D of size [4, 3]")])
def test_mismatched_gradOutput(g_shape, described):
    x = distinct((2, 9, C))
    indices = np.zeros((2, 4, C), np.int64)
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateGradInput: gradOutput must be 3D of size "
                                        f"[2, 4, 3], got {described}"):
        thnn.Double.TemporalMaxPooling_updateGradInput(x, np.zeros(g_shape), None, indices, 3, 2)


def test_indices_of_the_wrong_shape_or_range_are_refused():
    k, x, g = thnn.Double, distinct((9, C)), np.ones((4, C))
    with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateGradInput: indices must be 2D of size [4, 3], "
                                        "got 2D of size [3, 3]"):
        k.TemporalMaxPooling_updateGradInput(x, g, None, np.zeros((3, C), np.int64), 3, 2)
    for bad in (3, -1, 2**40):
        indices = np.zeros((4, C), np.int64)
        indices[2, 1] = bad
        with raises_exactly(thnn.THNNError, "TemporalMaxPooling_updateGradInput: indices must lie in [0, kW = 3), "
                                            f"got {bad} at flat position 7"):
            k.TemporalMaxPooling_updateGradInput(x, g, None, indices, 3, 2)


def test_kernel_backward_with_given_indices():
    """The backward kernel itself, fed int64 indices directly: each gradient
    goes to frame t*dW + indices[t, c]."""
    x, g = distinct((9, C)), uniform((4, C), 2)
    indices = np.random.default_rng(3).integers(0, 3, size=(4, C))
    gin = thnn.Double.TemporalMaxPooling_updateGradInput(x, g, None, indices, 3, 2)
    np.testing.assert_array_equal(gin, numpy_backward(x, g, indices, 2))
    x32, g32 = x.astype(np.float32), g.astype(np.float32)
    gin32 = thnn.Float.TemporalMaxPooling_updateGradInput(x32, g32, None, indices.astype(np.int32), 3, 2)
    np.testing.assert_array_equal(gin32, numpy_backward(x32, g32, indices, 2))


def test_gradOutput_of_the_other_precision():
    m = make()
    x = distinct((9, C)).astype(np.float32)
    m.forward(x)
    with raises_exactly(TypeError, "TemporalMaxPooling_updateGradInput: gradOutput must be float32 like the other "
                                   "tensors, got float64"):
        m.backward(x, np.zeros((4, C)))
