"""nn_legacy.VolumetricMaxUnpooling and the VolumetricMaxUnpooling_*
kernels: a VolumetricMaxPooling's output put back at its indices."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, check_bad_arrays, check_batch_equals_samples, check_buffer_reuse,
                          check_float32, check_noncontiguous, check_pickle, raises_exactly, torch_or_skip, uniform)
from pooling_checks import (check_unpooling_keeps_its_poolings_indices, distinct, ref_unpool, ref_unpool_grad,
                            torch_module_grad)

SHAPE = (2, 2, 4, 5, 7)     # pooled 2x3x2 (kT, kW, kH): [2, 2, 2, 2, 2], a row and a column unread
POOLED = (2, 2, 2, 2, 2)


def pair(kT=2, kW=3, kH=2):
    pool = nn.VolumetricMaxPooling(kT, kW, kH)
    return pool, nn.VolumetricMaxUnpooling(pool)


def pooled(x, *kernel):
    pool, unpool = pair(*kernel)
    return unpool, pool.forward(x).copy()


def sequence():
    pool, unpool = pair()
    return nn.Sequential().add(pool).add(unpool)


def test_its_pooling_keeps_its_indices_in_evaluation_mode():
    check_unpooling_keeps_its_poolings_indices(pair, uniform(SHAPE, 1), (4, 5, 7))


def test_matches_the_reference_loop():
    x = distinct(SHAPE, 1)
    unpool, y = pooled(x)
    g = uniform(SHAPE, 2)
    out = unpool.forward(y)
    np.testing.assert_array_equal(out, ref_unpool(y, unpool.indices, (4, 5, 7)))
    np.testing.assert_array_equal(unpool.backward(y, g), ref_unpool_grad(unpool.indices, g, 3))
    np.testing.assert_array_equal(out, np.where(out != 0, x, 0))


@pytest.mark.parametrize("kernel", [(2, 3, 2), (1, 2, 2)], ids=str)
def test_matches_torch(kernel):
    torch = torch_or_skip()
    kT, kW, kH = kernel
    x = uniform((2, 2, 5, 6, 7), 1)
    unpool, y = pooled(x, *kernel)
    out = unpool.forward(y)
    g = uniform(out.shape, 2)
    ind = torch.from_numpy(unpool.indices)

    def fn(t):
        return torch.nn.functional.max_unpool3d(t, ind, (kT, kH, kW), output_size=(5, 6, 7))
    t_out, t_grad = torch_module_grad(torch, fn, y, g)
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(unpool.backward(y, g), t_grad)


def test_jacobian():
    unpool, _ = pooled(distinct(SHAPE, 3))
    assert_input_jacobian(unpool, uniform(POOLED, 4))


def test_float32_matches_float64():
    check_float32(sequence(), uniform(SHAPE, 1), uniform(SHAPE, 2))


def test_noncontiguous_input_and_gradOutput():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_noncontiguous(unpool, y, uniform(SHAPE, 2))


def test_batch_equals_samples():
    check_batch_equals_samples(sequence(), uniform(SHAPE, 1), uniform(SHAPE, 2))


def test_buffer_reuse_across_batch_sizes():
    check_buffer_reuse(sequence(), uniform((3,) + SHAPE[1:], 1), uniform((3,) + SHAPE[1:], 2),
                       uniform(SHAPE, 3), uniform(SHAPE, 4))


def test_pickle_round_trip():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_pickle(unpool, y, uniform(SHAPE, 2))


def test_repr():
    assert repr(pair()[1]) == "nn.VolumetricMaxUnpooling associated to nn.VolumetricMaxPooling(2x3x2, 2,3,2)"


def test_bad_array_types():
    unpool, y = pooled(uniform(SHAPE, 1))
    check_bad_arrays(unpool, y, uniform(SHAPE, 2), "VolumetricMaxUnpooling")


def test_needs_a_non_overlapping_VolumetricMaxPooling():
    with raises_exactly(TypeError, "VolumetricMaxUnpooling: the argument must be a VolumetricMaxPooling module, "
                                   "got SpatialMaxPooling"):
        nn.VolumetricMaxUnpooling(nn.SpatialMaxPooling(2, 2))
    with raises_exactly(ValueError, "VolumetricMaxUnpooling: the pooling module's kernel must equal its stride, got "
                                    "kernel 2x3x2, stride 1x3x2"):
        nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 3, 2, 1))


def test_indices_outside_the_output_are_refused():
    unpool, y = pooled(uniform(SHAPE, 1))
    unpool.pooling.indices[0, 1, 1, 0, 1] = 140
    with raises_exactly(thnn.THNNError, "VolumetricMaxUnpooling_updateOutput: indices[0, 1, 1, 0, 1] = 140 is out "
                                        "of range [0, 140)"):
        unpool.forward(y)


def test_kernel_checks_sizes():
    y, ind = np.ones((1, 1, 2, 2)), np.zeros((1, 1, 2, 2), dtype=np.int64)
    with raises_exactly(thnn.THNNError, "VolumetricMaxUnpooling_updateOutput: the output size must be at least "
                                        "1x1x1, got oT=2, oW=0, oH=3"):
        thnn.Double.VolumetricMaxUnpooling_updateOutput(y, None, ind, 2, 0, 3)
    with raises_exactly(thnn.THNNError, "VolumetricMaxUnpooling_updateOutput: indices must be 4D of size "
                                        "[1, 1, 2, 2], got 4D of size [1, 1, 2, 1]"):
        thnn.Double.VolumetricMaxUnpooling_updateOutput(y, None, ind[..., :1], 2, 2, 2)
    big = 2 ** 31 - 1
    with raises_exactly(thnn.THNNError, f"VolumetricMaxUnpooling_updateOutput: the output size {big}x{big}x{big} "
                                        "(oT x oH x oW) has too many elements"):
        thnn.Double.VolumetricMaxUnpooling_updateOutput(y, None, ind, big, big, big)
