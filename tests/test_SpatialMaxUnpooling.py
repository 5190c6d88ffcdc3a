"""nn_legacy.SpatialMaxUnpooling and the SpatialMaxUnpooling_* kernels: a
SpatialMaxPooling's output put back at its indices, zeros elsewhere."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, check_bad_arrays, check_batch_equals_samples, check_buffer_reuse,
                          check_float32, check_noncontiguous, check_pickle, noncontiguous_views, raises_exactly,
                          torch_or_skip, uniform)
from pooling_checks import (check_unpooling_keeps_its_poolings_indices, distinct, ref_unpool, ref_unpool_grad,
                            torch_module_grad)

SHAPE = (2, 3, 6, 9)      # pooled 3x2 by 3x2: [2, 3, 2, 4] with a last row and column no window reads
POOLED = (2, 3, 3, 3)


def pair(kW=3, kH=2):
    pool = nn.SpatialMaxPooling(kW, kH)
    return pool, nn.SpatialMaxUnpooling(pool)


def pooled(x, kW=3, kH=2):
    pool, unpool = pair(kW, kH)
    return unpool, pool.forward(x).copy()


def test_matches_the_reference_loop():
    x = distinct(SHAPE, 1)
    unpool, y = pooled(x)
    g = uniform(SHAPE, 2)
    out = unpool.forward(y)
    np.testing.assert_array_equal(out, ref_unpool(y, unpool.indices, (6, 9)))
    np.testing.assert_array_equal(unpool.backward(y, g), ref_unpool_grad(unpool.indices, g, 2))
    # what pooling kept comes back in place, the rest is 0
    np.testing.assert_array_equal(out, np.where(out != 0, x, 0))
    assert np.count_nonzero(out) == y.size


@pytest.mark.parametrize("kernel", [(3, 2), (2, 2), (2, 3)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch(kernel, dtype):
    torch = torch_or_skip()
    kW, kH = kernel
    x = uniform((2, 3, 7, 8), 1).astype(dtype)
    unpool, y = pooled(x, kW, kH)
    out = unpool.forward(y)
    g = uniform(out.shape, 2).astype(dtype)
    ind = torch.from_numpy(unpool.indices)

    def fn(t):
        return torch.nn.functional.max_unpool2d(t, ind, (kH, kW), output_size=(7, 8))
    t_out, t_grad = torch_module_grad(torch, fn, y, g)
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(unpool.backward(y, g), t_grad)


def test_repeated_indices_keep_the_later_element():
    y = np.array([[[1.0, 2.0, 3.0]]])
    unpool = pair()[1]
    unpool.pooling.indices, unpool.pooling.iheight, unpool.pooling.iwidth = np.array([[[4, 1, 4]]]), 2, 3
    np.testing.assert_array_equal(unpool.forward(y), [[[0, 2, 0], [0, 3, 0]]])
    np.testing.assert_array_equal(unpool.backward(y, np.arange(6.0).reshape(1, 2, 3)), [[[4, 1, 4]]])


def test_follows_its_pooling_module_from_call_to_call():
    pool, unpool = pair()
    for shape in [(2, 3, 6, 9), (3, 4, 5), (1, 1, 2, 3)]:
        x = uniform(shape, 1)
        y = pool.forward(x)
        assert unpool.forward(y).shape == shape
        assert unpool.indices is pool.indices


def test_jacobian():
    unpool, y = pooled(distinct(SHAPE, 3))
    assert_input_jacobian(unpool, uniform(POOLED, 4))


def test_jacobian_of_pooling_then_unpooling():
    pool, unpool = pair(2, 3)
    assert_input_jacobian(nn.Sequential().add(pool).add(unpool), distinct((2, 2, 6, 7), 3))


def sequence():
    pool, unpool = pair()
    return nn.Sequential().add(pool).add(unpool)


def test_float32_matches_float64():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_float32(unpool, y, uniform(SHAPE, 2))
    check_float32(sequence(), uniform(SHAPE, 3), uniform(SHAPE, 4))


def test_noncontiguous_input_and_gradOutput():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_noncontiguous(unpool, y, uniform(SHAPE, 2))


def test_noncontiguous_indices():
    unpool, y = pooled(uniform(SHAPE, 1))
    g = uniform(SHAPE, 2)
    want_out, want_grad = unpool.forward(y).copy(), unpool.backward(y, g).copy()
    for name, view in noncontiguous_views(unpool.pooling.indices):
        unpool.pooling.indices = view
        np.testing.assert_array_equal(unpool.forward(y), want_out, err_msg=name)
        np.testing.assert_array_equal(unpool.backward(y, g), want_grad, err_msg=name)


def test_batch_equals_samples():
    check_batch_equals_samples(sequence(), uniform(SHAPE, 1), uniform(SHAPE, 2))


def test_buffer_reuse_across_batch_sizes():
    check_buffer_reuse(sequence(), uniform((4, 3, 6, 9), 1), uniform((4, 3, 6, 9), 2),
                       uniform((2, 3, 6, 9), 3), uniform((2, 3, 6, 9), 4))


def test_pickle_round_trip():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_pickle(unpool, y, uniform(SHAPE, 2))
    check_pickle(sequence(), uniform(SHAPE, 3), uniform(SHAPE, 4))


def test_repr():
    assert repr(pair()[1]) == "nn.SpatialMaxUnpooling associated to nn.SpatialMaxPooling(3x2, 3,2)"


def test_a_torch7_pair_loads_sharing_the_pooling_module(tmp_path):
    """Torch7 writes the pooling module once and refers to it from the
    unpooling module: after loading both hold the same object."""
    import struct

    from t7_writer import T7Object, t7_bytes
    pool = T7Object("nn.SpatialMaxPooling", {"kW": 3.0, "kH": 2.0, "dW": 3.0, "dH": 2.0, "padW": 0.0, "padH": 0.0,
                                             "ceil_mode": False, "indices": np.ones((1, 1))})
    unpool = T7Object("nn.SpatialMaxUnpooling", {"pooling": "@pool", "oheight": 6.0, "owidth": 9.0})
    seq = T7Object("nn.Sequential", {"modules": {1: pool, 2: unpool}, "output": np.zeros(0),
                                     "gradInput": np.zeros(0), "train": True})
    data = t7_bytes(seq)
    # the writer has no references: put one to the pooling object where the placeholder is
    header = t7_bytes(T7Object("nn.SpatialMaxPooling", {}))[8:-12]   # "V 1", class name
    at = data.index(header) - 4
    pool_index = struct.unpack("<i", data[at:at + 4])[0]
    placeholder = t7_bytes("@pool")
    data = data.replace(placeholder, struct.pack("<ii", 4, pool_index))
    (tmp_path / "s.t7").write_bytes(data)
    m = nn.load_lua(str(tmp_path / "s.t7"))
    assert m.modules[1].pooling is m.modules[0]
    assert m.modules[0].indices is None
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), sequence().forward(x))
    # in evaluation mode the loaded pooling still makes the indices its unpooling reads
    m = nn.load_lua(str(tmp_path / "s.t7"))
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), sequence().forward(x))


def test_its_pooling_keeps_its_indices_in_evaluation_mode():
    check_unpooling_keeps_its_poolings_indices(pair, uniform(SHAPE, 1), (6, 9))


# ---------------------------------------------------------------- bad input
def test_bad_array_types():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_bad_arrays(unpool, y, uniform(SHAPE, 2), "SpatialMaxUnpooling")


def test_needs_a_non_overlapping_SpatialMaxPooling():
    with raises_exactly(TypeError, "SpatialMaxUnpooling: the argument must be a SpatialMaxPooling module, "
                                   "got SpatialAveragePooling"):
        nn.SpatialMaxUnpooling(nn.SpatialAveragePooling(2, 2, 2, 2))
    with raises_exactly(ValueError, "SpatialMaxUnpooling: the pooling module's kernel must equal its stride, "
                                    "got kernel 3x2, stride 2x2"):
        nn.SpatialMaxUnpooling(nn.SpatialMaxPooling(3, 2, 2, 2))


def test_pooling_must_run_first():
    with raises_exactly(ValueError, "SpatialMaxUnpooling: its pooling module has no indices yet; run its "
                                    "forward first"):
        pair()[1].forward(uniform(POOLED, 1))


def test_input_not_shaped_as_the_indices():
    unpool, y = pooled(uniform(SHAPE, 1))
    with raises_exactly(thnn.THNNError, "SpatialMaxUnpooling_updateOutput: indices must be 4D of size "
                                        "[2, 3, 3, 4], got 4D of size [2, 3, 3, 3]"):
        unpool.forward(uniform((2, 3, 3, 4), 1))


def test_indices_outside_the_output_are_refused():
    unpool, y = pooled(uniform(SHAPE, 1))
    unpool.pooling.indices[1, 1, 2, 0] = 54
    with raises_exactly(thnn.THNNError, "SpatialMaxUnpooling_updateOutput: indices[1, 1, 2, 0] = 54 is out of "
                                        "range [0, 54)"):
        unpool.forward(y)
    unpool.pooling.indices[1, 1, 2, 0] = -3
    with raises_exactly(thnn.THNNError, "SpatialMaxUnpooling_updateGradInput: indices[1, 1, 2, 0] = -3 is out of "
                                        "range [0, 54)"):
        unpool.backward(y, uniform(SHAPE, 2))


def test_kernel_checks_the_output_size_and_gradOutput():
    y, ind = np.ones((1, 2, 2)), np.zeros((1, 2, 2), dtype=np.int64)
    with raises_exactly(thnn.THNNError, "SpatialMaxUnpooling_updateOutput: the output size must be at least 1x1, "
                                        "got owidth=0, oheight=3"):
        thnn.Double.SpatialMaxUnpooling_updateOutput(y, None, ind, 0, 3)
    with raises_exactly(thnn.THNNError, "SpatialMaxUnpooling_updateGradInput: gradOutput must be 3D of size "
                                        "[1, 3, 4], got 3D of size [1, 4, 3]"):
        thnn.Double.SpatialMaxUnpooling_updateGradInput(y, np.ones((1, 4, 3)), None, ind, 4, 3)
