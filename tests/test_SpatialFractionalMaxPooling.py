"""nn_legacy.SpatialFractionalMaxPooling and the
SpatialFractionalMaxPooling_* kernels: max over poolSizeW x poolSizeH
windows at pseudo-random starts given by one (width, height) sample pair
per plane."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_pickle,
                          raises_exactly, torch_or_skip, uniform)
from pooling_checks import distinct, fractional_windows, ref_index_grad, ref_max, torch_module_grad

SHAPE = (2, 3, 9, 11)   # H = 9, W = 11
# (poolSizeW, poolSizeH, outW, outH)
CASES = [(3, 2, 5, 8), (2, 3, 7, 4), (2, 2, 10, 8), (4, 3, 1, 2)]


def samples(batch, planes, seed=0, dtype=np.float64):
    """Samples in [0, 1) that are multiples of 1/64, exact in float32 too."""
    return (np.floor(np.random.default_rng(seed).uniform(0, 1, (batch, planes, 2)) * 64) / 64).astype(dtype)


def make(poolW=3, poolH=2, outW=5, outH=8, u=None):
    """A module with fixed samples u (drawn when None)."""
    m = nn.SpatialFractionalMaxPooling(poolW, poolH, outW, outH)
    m.randomSamples = samples(*SHAPE[:2]) if u is None else u
    return m.fixPoolingRegions()


def reference(x, poolW, poolH, outW, outH, u):
    H, W = x.shape[-2:]
    u = u.reshape(-1, 2)
    return ref_max(x, lambda p: [fractional_windows(H, outH, poolH, u[p, 1], x.dtype),
                                 fractional_windows(W, outW, poolW, u[p, 0], x.dtype)])


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(case, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    u = np.random.default_rng(5).uniform(0, 1, (2, 3, 2)).astype(dtype)
    out, ind = reference(x, *case, u)
    g = uniform(out.shape, 2).astype(dtype)
    m = make(*case, u=u)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 2, ind, g))


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch_with_the_same_samples(case, dtype):
    """Same samples (Torch7's and PyTorch's layout: width first), same
    windows, computed in the input's precision by both."""
    torch = torch_or_skip()
    poolW, poolH, outW, outH = case
    x = uniform(SHAPE, 1).astype(dtype)
    u = np.random.default_rng(6).uniform(0, 1, (2, 3, 2)).astype(dtype)
    m = make(*case, u=u)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)

    def pool(t):
        return torch.nn.functional.fractional_max_pool2d(t, (poolH, poolW), output_size=(outH, outW),
                                                         return_indices=True, _random_samples=torch.from_numpy(u))
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_unbatched_input_takes_samples_of_batch_1():
    x = uniform(SHAPE[1:], 1)
    m = make(u=samples(1, 3))
    batched = make(u=samples(1, 3))
    np.testing.assert_array_equal(m.forward(x), batched.forward(x[None])[0])
    np.testing.assert_array_equal(m.indices, batched.indices[0])


# ---------------------------------------------------------------- the samples
def test_samples_come_from_the_module_generator_at_every_forward():
    x = uniform(SHAPE, 1)
    m = nn.SpatialFractionalMaxPooling(3, 2, 5, 8)
    nn.manualSeed(7)
    m.forward(x)
    first = m.randomSamples.copy()
    np.testing.assert_array_equal(first, np.random.default_rng(7).random((2, 3, 2)))
    m.forward(x)
    assert not np.array_equal(m.randomSamples, first)
    nn.manualSeed(7)
    out = m.forward(x).copy()
    np.testing.assert_array_equal(m.randomSamples, first)
    np.testing.assert_array_equal(out, make(u=first).forward(x))


def test_float32_input_draws_float32_samples():
    m = nn.SpatialFractionalMaxPooling(3, 2, 5, 8)
    m.forward(uniform(SHAPE, 1).astype(np.float32))
    assert m.randomSamples.dtype == np.float32 and m.randomSamples.shape == (2, 3, 2)
    assert ((m.randomSamples >= 0) & (m.randomSamples < 1)).all()


def test_fixPoolingRegions_keeps_the_samples_until_the_batch_changes():
    x = uniform(SHAPE, 1)
    m = nn.SpatialFractionalMaxPooling(3, 2, 5, 8)
    assert m.fixPoolingRegions() is m and m.newRandomPool
    m.forward(x)
    kept = m.randomSamples
    out = m.forward(x).copy()
    assert m.randomSamples is kept
    np.testing.assert_array_equal(m.forward(x), out)
    m.forward(x[:1])   # another batch size: new samples, as Torch7
    assert m.randomSamples.shape == (1, 3, 2)
    m.fixPoolingRegions(False)
    kept = m.randomSamples.copy()
    m.forward(x[:1])
    assert not np.array_equal(m.randomSamples, kept)


def test_clearState_drops_the_indices_and_keeps_fixed_samples():
    m = make()
    x = uniform(SHAPE, 1)
    out = m.forward(x).copy()
    kept = m.randomSamples
    m.clearState()
    assert m.indices is None and m.output is None and m.randomSamples is kept
    np.testing.assert_array_equal(m.forward(x), out)


def test_saving_keeps_fixed_samples(tmp_path):
    m = make()
    x = uniform(SHAPE, 1)
    out = m.forward(x).copy()
    nn.save(m, str(tmp_path / "f.nn"))
    loaded = nn.load(str(tmp_path / "f.nn"))
    assert loaded.newRandomPool and loaded.indices is None
    np.testing.assert_array_equal(loaded.randomSamples, m.randomSamples)
    np.testing.assert_array_equal(loaded.forward(x), out)


# ---------------------------------------------------------------- sizes
def test_ratios_give_floor_of_the_input_size():
    m = nn.SpatialFractionalMaxPooling(2, 2, 0.5, 0.7)
    assert (m.ratioW, m.ratioH, m.outW, m.outH) == (0.5, 0.7, None, None)
    assert m.forward(uniform(SHAPE, 1)).shape == (2, 3, 6, 5)        # floor(9 * 0.7), floor(11 * 0.5)
    assert m.backward(uniform(SHAPE, 1), uniform((2, 3, 6, 5), 2)).shape == SHAPE
    assert m.forward(uniform((3, 20, 4), 1)).shape == (3, 14, 2)


def test_ratio_too_small_for_the_input():
    with raises_exactly(ValueError, "SpatialFractionalMaxPooling: the ratios 0.1, 0.5 of an input of 9x5 give an "
                                    "output of 4x0; it must be at least 1x1"):
        nn.SpatialFractionalMaxPooling(2, 2, 0.1, 0.5).forward(uniform((3, 9, 5), 1))


def test_output_one_less_than_the_input_is_stride_1():
    x = distinct((1, 2, 6, 7), 1)
    m = make(2, 2, 6, 5, u=samples(1, 2))
    ref = nn.SpatialMaxPooling(2, 2, 1, 1)
    np.testing.assert_array_equal(m.forward(x), ref.forward(x))
    np.testing.assert_array_equal(m.indices, ref.indices)


@pytest.mark.parametrize("args", [(3, 2, 5, 0.5), (3, 2, 0, 4), (3, 2, 1.5, 0.5), (3, 2, -0.5, 0.5)], ids=str)
def test_sizes_or_ratios_but_not_a_mix(args):
    with pytest.raises(ValueError, match="^SpatialFractionalMaxPooling: give the output size"):
        nn.SpatialFractionalMaxPooling(*args)


def test_pool_sizes_at_least_2():
    with raises_exactly(ValueError, "SpatialFractionalMaxPooling: pool sizes must be at least 2, got 3x1"):
        nn.SpatialFractionalMaxPooling(3, 1, 4, 4)


# ---------------------------------------------------------------- the harness
def test_batch_equals_samples():
    x, g = uniform((3, 2, 9, 11), 1), uniform((3, 2, 8, 5), 2)
    u = samples(3, 2)
    m = make(u=u)
    out, grad = m.forward(x).copy(), m.backward(x, g).copy()
    for i in range(3):
        one = make(u=u[i:i + 1])
        np.testing.assert_array_equal(one.forward(x[i]), out[i])
        np.testing.assert_array_equal(one.backward(x[i], g[i]), grad[i])


def test_buffers_are_reused_for_the_same_shape_only():
    """Same shape: the same output, indices and gradInput arrays.  Another
    batch size: new arrays, and those handed out before keep their values."""
    m = make(u=samples(4, 3))
    x, g = uniform((4, 3, 9, 11), 1), uniform((4, 3, 8, 5), 2)
    out, ind, grad = m.forward(x), m.indices, m.backward(x, g)
    assert m.forward(x[::-1].copy()) is out and m.indices is ind
    assert m.backward(x[::-1].copy(), g[::-1].copy()) is grad
    kept = out.copy(), ind.copy(), grad.copy()
    m.randomSamples = samples(2, 3)
    small_out, small_ind, small_grad = m.forward(x[:2]), m.indices, m.backward(x[:2], g[:2])
    assert small_out is not out and small_ind is not ind and small_grad is not grad
    for array, before in zip((out, ind, grad), kept):
        np.testing.assert_array_equal(array, before)
    fresh = make(u=samples(2, 3))
    np.testing.assert_array_equal(small_out, fresh.forward(x[:2]))
    np.testing.assert_array_equal(small_grad, fresh.backward(x[:2], g[:2]))


def test_pickle_round_trip():
    m = make()
    check_pickle(m, uniform(SHAPE, 1), uniform((2, 3, 8, 5), 2))
    restored = pickle.loads(pickle.dumps(m))
    assert restored.newRandomPool and np.array_equal(restored.randomSamples, m.randomSamples)


def test_repr():
    assert repr(nn.SpatialFractionalMaxPooling(3, 2, 5, 8)) == "nn.SpatialFractionalMaxPooling(5x8, 3,2)"
    assert repr(nn.SpatialFractionalMaxPooling(2, 2, 0.5, 0.75)) == "nn.SpatialFractionalMaxPooling(0.5x0.75, 2,2)"


def test_a_torch7_module_loads_with_its_samples(tmp_path):
    from t7_writer import T7Object, t7_bytes
    u = samples(2, 3)
    fields = {"poolSizeW": 3.0, "poolSizeH": 2.0, "outW": 5.0, "outH": 8.0, "newRandomPool": True,
              "randomSamples": u, "indices": np.ones((2, 3, 8, 5))}
    (tmp_path / "f.t7").write_bytes(t7_bytes(T7Object("nn.SpatialFractionalMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "f.t7"))
    assert (m.poolSizeW, m.poolSizeH, m.outW, m.outH, m.ratioW, m.indices) == (3, 2, 5, 8, None, None)
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make(u=u).forward(x))
    fields = {"poolSizeW": 2.0, "poolSizeH": 2.0, "ratioW": 0.5, "ratioH": 0.7, "newRandomPool": False}
    (tmp_path / "r.t7").write_bytes(t7_bytes(T7Object("nn.SpatialFractionalMaxPooling", fields)))
    r = nn.load_lua(str(tmp_path / "r.t7"))
    assert r.forward(x).shape == (2, 3, 6, 5) and r.outW is None


# ---------------------------------------------------------------- bad input
def test_output_too_large_for_the_pool_size():
    with raises_exactly(thnn.THNNError, "SpatialFractionalMaxPooling_updateOutput: outputW=10 with poolSizeW=3 "
                                        "needs an input of at least 12 along width, got input 4D of size "
                                        "[2, 3, 9, 11]"):
        make(3, 2, 10, 8).forward(uniform(SHAPE, 1))


def test_samples_of_the_wrong_shape():
    m = make(u=samples(2, 3))
    m.randomSamples = np.zeros((2, 3, 3))
    with raises_exactly(thnn.THNNError, "SpatialFractionalMaxPooling_updateOutput: randomSamples must be 3D of "
                                        "size [2, 3, 2], got 3D of size [2, 3, 3]"):
        m.forward(uniform(SHAPE, 1))


@pytest.mark.parametrize("value", [1.0, -0.25, np.nan])
def test_samples_outside_0_1_are_refused(value):
    u = samples(2, 3)
    u[1, 2, 1] = value
    with raises_exactly(thnn.THNNError, f"SpatialFractionalMaxPooling_updateOutput: randomSamples[1, 2, 1] = "
                                        f"{value:g} is outside [0, 1)"):
        make(u=u).forward(uniform(SHAPE, 1))


def test_samples_of_the_other_precision_are_refused():
    with raises_exactly(TypeError, "SpatialFractionalMaxPooling_updateOutput: randomSamples must be float32 like "
                                   "the other tensors, got float64"):
        make().forward(uniform(SHAPE, 1).astype(np.float32))


def test_wrong_number_of_dims():
    with raises_exactly(thnn.THNNError, "SpatialFractionalMaxPooling_updateOutput: input must be 3D [planes, "
                                        "height, width] or 4D [batch, planes, height, width], got 2D of size [9, 11]"):
        nn.SpatialFractionalMaxPooling(3, 2, 5, 8).forward(uniform((9, 11), 1))


def test_tampered_indices_are_refused():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    m.indices[0, 0, 0, 0] = 99
    with raises_exactly(thnn.THNNError, "SpatialFractionalMaxPooling_updateGradInput: indices[0, 0, 0, 0] = 99 is "
                                        "out of range [0, 99)"):
        m.backward(x, uniform((2, 3, 8, 5), 2))
