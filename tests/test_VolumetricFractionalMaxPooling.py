"""nn_legacy.VolumetricFractionalMaxPooling and the
VolumetricFractionalMaxPooling_* kernels: 3D max pooling over windows at
pseudo-random starts given by one (time, width, height) sample triple per
plane."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import distinct, fractional_windows, ref_index_grad, ref_max, torch_module_grad

SHAPE = (2, 2, 6, 7, 9)      # T = 6, H = 7, W = 9
# (poolT, poolW, poolH, outT, outW, outH); the first has out + pool - 1 == in along every axis,
# which PyTorch's (and Torch7's) 3D layer refuses: it wants the difference to be at least 1
CASES = [(2, 3, 2, 5, 7, 6), (2, 3, 2, 4, 5, 5), (3, 2, 2, 3, 5, 3), (2, 4, 3, 1, 2, 4)]


def samples(batch, planes, seed=0, dtype=np.float64):
    """Samples in [0, 1) that are multiples of 1/64, exact in float32 too."""
    return (np.floor(np.random.default_rng(seed).uniform(0, 1, (batch, planes, 3)) * 64) / 64).astype(dtype)


def make(*case, u=None):
    m = nn.VolumetricFractionalMaxPooling(*(case or CASES[0]))
    m.randomSamples = samples(*SHAPE[:2]) if u is None else u
    return m.fixPoolingRegions()


def reference(x, poolT, poolW, poolH, outT, outW, outH, u):
    T, H, W = x.shape[-3:]
    u = u.reshape(-1, 3)
    return ref_max(x, lambda p: [fractional_windows(T, outT, poolT, u[p, 0], x.dtype),
                                 fractional_windows(H, outH, poolH, u[p, 2], x.dtype),
                                 fractional_windows(W, outW, poolW, u[p, 1], x.dtype)])


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(case, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    u = np.random.default_rng(5).uniform(0, 1, (2, 2, 3)).astype(dtype)
    out, ind = reference(x, *case, u)
    g = uniform(out.shape, 2).astype(dtype)
    m = make(*case, u=u)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 3, ind, g))


@pytest.mark.parametrize("case", CASES[1:], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch_with_the_same_samples(case, dtype):
    """PyTorch orders a plane's samples (time, height, width); Torch7 and
    this module (time, width, height)."""
    torch = torch_or_skip()
    poolT, poolW, poolH, outT, outW, outH = case
    x = uniform(SHAPE, 1).astype(dtype)
    u = np.random.default_rng(6).uniform(0, 1, (2, 2, 3)).astype(dtype)
    m = make(*case, u=u)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)
    torch_samples = torch.from_numpy(np.ascontiguousarray(u[..., [0, 2, 1]]))

    def pool(t):
        return torch.nn.functional.fractional_max_pool3d(t, (poolT, poolH, poolW), output_size=(outT, outH, outW),
                                                         return_indices=True, _random_samples=torch_samples)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_samples_come_from_the_module_generator():
    x = uniform(SHAPE, 1)
    m = nn.VolumetricFractionalMaxPooling(*CASES[0])
    nn.manualSeed(3)
    m.forward(x)
    np.testing.assert_array_equal(m.randomSamples, np.random.default_rng(3).random((2, 2, 3)))
    first = m.randomSamples.copy()
    m.forward(x)
    assert not np.array_equal(first, m.randomSamples)
    m.fixPoolingRegions()
    kept = m.randomSamples
    m.forward(x)
    assert m.randomSamples is kept


def test_ratios():
    m = nn.VolumetricFractionalMaxPooling(2, 2, 2, 0.5, 0.7, 0.6)
    assert m.forward(uniform(SHAPE, 1)).shape == (2, 2, 3, 4, 6)   # floor(6 .5), floor(7 .6), floor(9 .7)
    with raises_exactly(ValueError, "VolumetricFractionalMaxPooling: the ratios 0.5, 0.7, 0.6 of an input of "
                                    "1x7x9 give an output of 0x4x6; it must be at least 1x1x1"):
        m.forward(uniform((2, 1, 7, 9), 1))


def test_batch_equals_samples():
    x, g = uniform(SHAPE, 1), uniform((2, 2, 5, 6, 7), 2)
    u = samples(2, 2)
    m = make(u=u)
    out, grad = m.forward(x).copy(), m.backward(x, g).copy()
    for i in range(2):
        one = make(u=u[i:i + 1])
        np.testing.assert_array_equal(one.forward(x[i]), out[i])
        np.testing.assert_array_equal(one.backward(x[i], g[i]), grad[i])


def test_buffers_are_reused_for_the_same_shape_only():
    m = make()
    x, g = uniform(SHAPE, 1), uniform((2, 2, 5, 6, 7), 2)
    out, ind, grad = m.forward(x), m.indices, m.backward(x, g)
    assert m.forward(x[::-1].copy()) is out and m.indices is ind and m.backward(x, g[::-1].copy()) is grad
    kept = out.copy(), ind.copy(), grad.copy()
    m.randomSamples = samples(1, 2)
    assert m.forward(x[:1]) is not out and m.indices is not ind and m.backward(x[:1], g[:1]) is not grad
    for array, before in zip((out, ind, grad), kept):
        np.testing.assert_array_equal(array, before)


def test_repr_and_arguments():
    assert repr(nn.VolumetricFractionalMaxPooling(2, 3, 2, 5, 7, 6)) == \
        "nn.VolumetricFractionalMaxPooling(5x7x6, 2,3,2)"
    assert repr(nn.VolumetricFractionalMaxPooling(2, 3, 2, 0.5, 0.25, 0.75)) == \
        "nn.VolumetricFractionalMaxPooling(0.5x0.25x0.75, 2,3,2)"
    with pytest.raises(ValueError, match="^VolumetricFractionalMaxPooling: give the output size"):
        nn.VolumetricFractionalMaxPooling(2, 2, 2, 3, 0.5, 3)
    with raises_exactly(ValueError, "VolumetricFractionalMaxPooling: pool sizes must be at least 2, got 1x2x2"):
        nn.VolumetricFractionalMaxPooling(1, 2, 2, 3, 3, 3)


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    u = samples(2, 2)
    fields = {"poolSizeT": 2.0, "poolSizeW": 3.0, "poolSizeH": 2.0, "outT": 5.0, "outW": 7.0, "outH": 6.0,
              "newRandomPool": True, "randomSamples": u}
    (tmp_path / "v.t7").write_bytes(t7_bytes(T7Object("nn.VolumetricFractionalMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "v.t7"))
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make(u=u).forward(x))


def test_output_too_large_for_the_pool_size():
    with raises_exactly(thnn.THNNError, "VolumetricFractionalMaxPooling_updateOutput: outputT=6 with poolSizeT=2 "
                                        "needs an input of at least 7 along time, got input 5D of size "
                                        "[2, 2, 6, 7, 9]"):
        make(2, 3, 2, 6, 7, 6).forward(uniform(SHAPE, 1))


def test_bad_samples():
    u = samples(2, 2)
    u[0, 1, 2] = 1.5
    with raises_exactly(thnn.THNNError, "VolumetricFractionalMaxPooling_updateOutput: randomSamples[0, 1, 2] = 1.5 "
                                        "is outside [0, 1)"):
        make(u=u).forward(uniform(SHAPE, 1))
    with raises_exactly(thnn.THNNError, "VolumetricFractionalMaxPooling_updateOutput: randomSamples must be 3D of "
                                        "size [2, 2, 3], got 3D of size [2, 2, 2]"):
        make(u=np.zeros((2, 2, 2))).forward(uniform(SHAPE, 1))


def test_tampered_indices_are_refused():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    m.indices[1, 1, 4, 5, 6] = 378
    with raises_exactly(thnn.THNNError, "VolumetricFractionalMaxPooling_updateGradInput: indices[1, 1, 4, 5, 6] = "
                                        "378 is out of range [0, 378)"):
        m.backward(x, uniform((2, 2, 5, 6, 7), 2))
