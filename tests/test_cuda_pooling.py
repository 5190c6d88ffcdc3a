"""The CUDA twins of the pooling, padding and up-sampling layers against
their CPU kernels, beyond the one valid call per layer of
tests/test_cuda_twins.py: non-square windows and inputs, ceil mode,
padding, dilation, batch and single-sample inputs, shapes spanning several
blocks, ties and NaNs (the indices must be the CPU's), duplicate and
out-of-range unpooling indices, and the same refusals with the same
messages.  Run on the CPU emulation (thcunn_cu/THCEmu.h), and on a GPU when
there is one."""
import numpy as np
import pytest

import thnn
import thnn.cuda as cuda
from cuda_devices import DEVICES, device_named

DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]


def _twin(dev, dtype, name):
    return getattr(dev.backend(dtype), name)


def _cpu(dtype, name):
    return getattr(thnn.backend(dtype), name)


def _close(got, want, dtype, forward):
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
        return
    assert got.shape == want.shape
    tol = 1e-10 if np.dtype(dtype) == np.float64 else (1e-4 if forward else 1e-3)
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-30)
    assert float(np.max(np.abs(got.astype(np.float64) - want))) <= tol * scale if want.size else True


def _rng(seed=0):
    return np.random.default_rng(seed)


# (layer, input shape, window scalars after the tensors, in THNN.h order)
MAX_POOL = [
    ("SpatialMaxPooling", (3, 7, 11), (3, 2, 2, 1, 1, 0, False)),            # single sample, kW != kH
    ("SpatialMaxPooling", (4, 3, 9, 13), (3, 3, 2, 2, 1, 1, True)),          # batch, ceil mode, padding
    ("SpatialMaxPooling", (2, 5, 64, 40), (2, 2, 2, 2, 0, 0, False)),        # 2x2 stride 2, many blocks
    ("SpatialMaxPooling", (2, 3, 31, 17), (4, 2, 3, 2, 2, 1, True)),
    ("SpatialDilatedMaxPooling", (3, 2, 12, 15), (3, 2, 2, 2, 1, 1, 2, 3, True)),
    ("SpatialDilatedMaxPooling", (2, 10, 9), (2, 3, 1, 2, 1, 0, 3, 2, False)),
    ("VolumetricMaxPooling", (2, 3, 5, 7, 6), (2, 3, 2, 2, 2, 1, 1, 1, 0, True)),
    ("VolumetricMaxPooling", (3, 6, 9, 8), (3, 2, 2, 1, 2, 2, 0, 1, 1, False)),
    ("VolumetricDilatedMaxPooling", (2, 2, 7, 8, 9), (2, 2, 3, 1, 2, 1, 1, 1, 1, 2, 2, 1, True)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layer,shape,scalars", MAX_POOL, ids=[f"{c[0]}-{c[1]}" for c in MAX_POOL])
def test_max_pooling(layer, shape, scalars, dtype, device):
    dev = device_named(device)
    x = _rng(1).standard_normal(shape).astype(dtype)
    x.flat[::7] = x.flat[3]                       # ties: the first of equal values wins on both sides
    out, ind = _cpu(dtype, f"{layer}_updateOutput")(x, None, None, *scalars)
    dout, dind = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, None, *scalars)
    _close(dout.numpy(), out, dtype, True)
    np.testing.assert_array_equal(dind.numpy(), ind)
    g = _rng(2).standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, ind, *scalars)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None, dind, *scalars)
    _close(dgi.numpy(), gi, dtype, False)


@pytest.mark.parametrize("device", DEVICES)
def test_max_pooling_nan_takes_the_last_nan(device):
    dev = device_named(device)
    x = _rng(3).standard_normal((2, 3, 8, 8))
    x[0, 0, 1, 1] = x[0, 0, 1, 2] = x[1, 2, 5, 0] = np.nan
    out, ind = thnn.Double.SpatialMaxPooling_updateOutput(x, None, None, 3, 3, 2, 2, 1, 1, True)
    dout, dind = dev.CudaDouble.SpatialMaxPooling_updateOutput(dev.to_device(x), None, None, 3, 3, 2, 2, 1, 1, True)
    np.testing.assert_array_equal(dind.numpy(), ind)
    np.testing.assert_array_equal(np.isnan(dout.numpy()), np.isnan(out))


AVG_POOL = [
    ("SpatialAveragePooling", (3, 7, 11), (3, 2, 2, 1, 1, 1, False)),
    ("SpatialAveragePooling", (4, 3, 9, 13), (3, 3, 2, 2, 1, 1, True)),
    ("SpatialAveragePooling", (2, 5, 64, 40), (2, 2, 2, 2, 0, 0, False)),
    ("SpatialAveragePooling", (2, 3, 30, 17), (5, 4, 3, 2, 2, 1, True)),
    ("VolumetricAveragePooling", (2, 3, 5, 7, 6), (2, 3, 2, 2, 2, 1, 1, 1, 0, True)),
    ("VolumetricAveragePooling", (3, 6, 9, 8), (3, 2, 2, 1, 2, 2, 1, 1, 1, False)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("layer,shape,scalars", AVG_POOL, ids=[f"{c[0]}-{c[1]}" for c in AVG_POOL])
def test_average_pooling(layer, shape, scalars, count_include_pad, dtype, device):
    dev = device_named(device)
    scalars = scalars + (count_include_pad,)
    x = _rng(4).standard_normal(shape).astype(dtype)
    out = _cpu(dtype, f"{layer}_updateOutput")(x, None, *scalars)
    dout = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, *scalars)
    _close(dout.numpy(), out, dtype, True)
    g = _rng(5).standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, *scalars)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None, *scalars)
    _close(dgi.numpy(), gi, dtype, False)


ADAPTIVE = [((3, 7, 11), (4, 3)), ((2, 3, 10, 9), (4, 7)), ((2, 4, 5, 6), (11, 9)), ((2, 2, 33, 47), (5, 1))]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["Max", "Average"])
@pytest.mark.parametrize("shape,size", ADAPTIVE, ids=[f"{s}-{o}" for s, o in ADAPTIVE])
def test_adaptive_pooling(shape, size, kind, dtype, device):
    dev = device_named(device)
    layer = f"SpatialAdaptive{kind}Pooling"
    x = _rng(6).standard_normal(shape).astype(dtype)
    if kind == "Max":
        out, ind = _cpu(dtype, f"{layer}_updateOutput")(x, None, None, *size)
        dout, dind = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, None, *size)
        np.testing.assert_array_equal(dind.numpy(), ind)
        extra, dextra = (ind,), (dind,)
    else:
        out = _cpu(dtype, f"{layer}_updateOutput")(x, None, *size)
        dout = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, *size)
        extra, dextra = (), ()
    _close(dout.numpy(), out, dtype, True)
    g = _rng(7).standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, *extra, *size)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None, *dextra, *size)
    _close(dgi.numpy(), gi, dtype, False)


UNPOOL = [("SpatialMaxUnpooling", (3, 4, 5), (11, 9)), ("SpatialMaxUnpooling", (2, 3, 20, 30), (61, 41)),
          ("VolumetricMaxUnpooling", (2, 3, 2, 3, 4), (5, 9, 7)), ("VolumetricMaxUnpooling", (2, 3, 3, 2), (4, 5, 6))]


def _unpool_indices(rng, shape, limit, duplicates):
    ind = rng.integers(0, limit, size=shape)
    if duplicates:
        ind[..., ::2] = ind[..., :1]             # many inputs of a plane at one index: the later stays
    return ind.astype(np.int64)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("duplicates", [False, True])
@pytest.mark.parametrize("layer,shape,size", UNPOOL, ids=[f"{c[0]}-{c[1]}" for c in UNPOOL])
def test_max_unpooling(layer, shape, size, duplicates, dtype, device):
    dev = device_named(device)
    rng = _rng(8)
    x = rng.standard_normal(shape).astype(dtype)
    ind = _unpool_indices(rng, shape, int(np.prod(size)), duplicates)
    out = _cpu(dtype, f"{layer}_updateOutput")(x, None, ind, *size)
    dout = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, dev.to_device(ind), *size)
    np.testing.assert_array_equal(dout.numpy(), out)
    g = rng.standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, ind, *size)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None,
                                                         dev.to_device(ind), *size)
    np.testing.assert_array_equal(dgi.numpy(), gi)


def _same_refusal(cpu, twin, cpu_args, twin_args):
    with pytest.raises(thnn.THNNError) as want:
        cpu(*cpu_args)
    with pytest.raises(cuda.CudaError) as got:
        twin(*twin_args)
    assert str(got.value) == str(want.value)
    return str(got.value)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("bad", [-1, 20, 1 << 40])
@pytest.mark.parametrize("verb", ["updateOutput", "updateGradInput"])
def test_unpooling_index_out_of_range_raises_the_cpu_message(verb, bad, device):
    dev = device_named(device)
    rng = _rng(9)
    x = rng.standard_normal((2, 3, 4, 5))
    ind = _unpool_indices(rng, x.shape, 20, False)
    ind[1, 2, 3, 1] = bad
    ind[1, 2, 3, 4] = bad                         # the first bad one (in order) is named
    args = (x, None, ind, 5, 4) if verb == "updateOutput" else (x, rng.standard_normal((2, 3, 4, 5)), None, ind, 5, 4)
    dargs = tuple(dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args)
    msg = _same_refusal(getattr(thnn.Double, f"SpatialMaxUnpooling_{verb}"),
                        getattr(dev.CudaDouble, f"SpatialMaxUnpooling_{verb}"), args, dargs)
    assert f"indices[1, 2, 3, 1] = {bad} is out of range [0, 20)" in msg


@pytest.mark.parametrize("device", DEVICES)
def test_volumetric_unpooling_index_out_of_range(device):
    dev = device_named(device)
    x = np.ones((2, 2, 2, 3))
    ind = np.zeros(x.shape, np.int64)
    ind[1, 0, 1, 2] = 24
    _same_refusal(thnn.Double.VolumetricMaxUnpooling_updateOutput, dev.CudaDouble.VolumetricMaxUnpooling_updateOutput,
                  (x, None, ind, 2, 4, 3), (dev.to_device(x), None, dev.to_device(ind), 2, 4, 3))


@pytest.mark.parametrize("device", DEVICES)
def test_max_pooling_backward_index_out_of_range(device):
    dev = device_named(device)
    x = _rng(10).standard_normal((2, 6, 6))
    out, ind = thnn.Double.SpatialMaxPooling_updateOutput(x, None, None, 2, 2, 2, 2, 0, 0, False)
    ind[1, 2, 0] = 36
    g = np.ones_like(out)
    _same_refusal(thnn.Double.SpatialMaxPooling_updateGradInput, dev.CudaDouble.SpatialMaxPooling_updateGradInput,
                  (x, g, None, ind, 2, 2, 2, 2, 0, 0, False),
                  (dev.to_device(x), dev.to_device(g), None, dev.to_device(ind), 2, 2, 2, 2, 0, 0, False))


@pytest.mark.parametrize("device", DEVICES)
def test_same_shape_refusals(device):
    dev = device_named(device)
    x = np.ones((2, 3, 4, 5))
    d = dev.to_device(x)
    for name, args in [("SpatialMaxPooling_updateOutput", (None, None, 6, 2, 1, 1, 0, 0, False)),
                       ("SpatialMaxPooling_updateOutput", (None, None, 2, 2, 1, 1, 2, 0, False)),
                       ("SpatialAveragePooling_updateOutput", (None, 3, 3, 0, 1, 0, 0, False, True)),
                       ("SpatialAdaptiveMaxPooling_updateOutput", (None, None, 0, 3)),
                       ("SpatialMaxUnpooling_updateOutput", (None, np.zeros((2, 3, 4, 4), np.int64), 5, 4)),
                       ("SpatialReflectionPadding_updateOutput", (None, 5, 0, 0, 0)),
                       ("SpatialUpSamplingNearest_updateOutput", (None, 0)),
                       ("SpatialUpSamplingBilinear_updateOutput", (None, 0, 3)),
                       ("VolumetricMaxPooling_updateOutput", (None, None, 5, 2, 2, 1, 1, 1, 0, 0, 0, False))]:
        dargs = tuple(dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args)
        _same_refusal(getattr(thnn.Double, name), getattr(dev.CudaDouble, name), (x,) + args, (d,) + dargs)
    g = np.ones((2, 3, 2, 2))
    _same_refusal(thnn.Double.SpatialAveragePooling_updateGradInput, dev.CudaDouble.SpatialAveragePooling_updateGradInput,
                  (x, g, None, 2, 2, 2, 2, 0, 0, True, True),
                  (d, dev.to_device(g), None, 2, 2, 2, 2, 0, 0, True, True))


RESAMPLE = [
    ("SpatialReflectionPadding", (3, 5, 7), (2, 3, 1, 4)),
    ("SpatialReflectionPadding", (2, 3, 20, 33), (-2, 5, 3, -1)),
    ("SpatialReplicationPadding", (3, 5, 7), (4, 0, 6, 2)),
    ("SpatialReplicationPadding", (2, 3, 20, 33), (-3, 7, 2, -5)),
    ("VolumetricReplicationPadding", (2, 3, 4, 5, 6), (1, 2, 3, 0, 2, 1)),
    ("VolumetricReplicationPadding", (3, 4, 5, 6), (-1, 2, 0, 3, 1, -1)),
    ("SpatialUpSamplingNearest", (3, 5, 7), (3,)),
    ("SpatialUpSamplingNearest", (2, 3, 20, 13), (2,)),
    ("VolumetricUpSamplingNearest", (2, 3, 3, 4, 5), (2,)),
    ("SpatialUpSamplingBilinear", (3, 5, 7), (11, 4)),
    ("SpatialUpSamplingBilinear", (2, 3, 20, 13), (41, 30)),
    ("SpatialUpSamplingBilinear", (2, 3, 1, 6), (1, 9)),
    ("VolumetricUpSamplingTrilinear", (2, 3, 3, 4, 5), (5, 7, 8)),
    ("VolumetricUpSamplingTrilinear", (3, 1, 4, 5), (4, 1, 9)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layer,shape,scalars", RESAMPLE, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in RESAMPLE])
def test_padding_and_up_sampling(layer, shape, scalars, dtype, device):
    dev = device_named(device)
    x = _rng(11).standard_normal(shape).astype(dtype)
    out = _cpu(dtype, f"{layer}_updateOutput")(x, None, *scalars)
    dout = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, *scalars)
    _close(dout.numpy(), out, dtype, True)
    g = _rng(12).standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, *scalars)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None, *scalars)
    _close(dgi.numpy(), gi, dtype, False)


FRACTIONAL = [("SpatialFractionalMaxPooling", (3, 9, 11), (5, 4, 3, 2)),
              ("SpatialFractionalMaxPooling", (2, 3, 40, 37), (17, 25, 2, 3)),
              ("SpatialFractionalMaxPooling", (2, 3, 6, 7), (1, 1, 3, 2)),
              ("VolumetricFractionalMaxPooling", (2, 3, 5, 6, 7), (3, 4, 3, 2, 3, 2)),
              ("VolumetricFractionalMaxPooling", (2, 6, 9, 10), (4, 5, 6, 2, 2, 2))]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layer,shape,scalars", FRACTIONAL, ids=[f"{c[0]}-{c[1]}" for c in FRACTIONAL])
def test_fractional_max_pooling(layer, shape, scalars, dtype, device):
    dev = device_named(device)
    rng = _rng(13)
    nd = 2 if layer.startswith("Spatial") else 3
    batch = shape[0] if len(shape) == nd + 2 else 1
    x = rng.standard_normal(shape).astype(dtype)
    u = rng.random((batch, shape[-nd - 1], nd)).astype(dtype)
    u[0, 0] = 0.999999                            # windows near the end of the input
    out, ind = _cpu(dtype, f"{layer}_updateOutput")(x, None, *scalars, None, u)
    # the samples handed in transposed (a non-contiguous view)
    du = dev.to_device(np.ascontiguousarray(u.swapaxes(0, 1))).swapaxes(0, 1)
    dout, dind = _twin(dev, dtype, f"{layer}_updateOutput")(dev.to_device(x), None, *scalars, None, du)
    np.testing.assert_array_equal(dind.numpy(), ind)
    _close(dout.numpy(), out, dtype, True)
    g = rng.standard_normal(out.shape).astype(dtype)
    gi = _cpu(dtype, f"{layer}_updateGradInput")(x, g, None, *scalars, ind)
    dgi = _twin(dev, dtype, f"{layer}_updateGradInput")(dev.to_device(x), dev.to_device(g), None, *scalars, dind)
    _close(dgi.numpy(), gi, dtype, False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("bad", [1.0, -0.25, np.nan])
def test_fractional_samples_out_of_range(bad, device):
    dev = device_named(device)
    x = np.ones((2, 3, 9, 11))
    u = np.full((2, 3, 2), 0.5)
    u[1, 2, 1] = bad
    msg = _same_refusal(thnn.Double.SpatialFractionalMaxPooling_updateOutput,
                        dev.CudaDouble.SpatialFractionalMaxPooling_updateOutput,
                        (x, None, 5, 4, 3, 2, None, u), (dev.to_device(x), None, 5, 4, 3, 2, None, dev.to_device(u)))
    assert "randomSamples[1, 2, 1]" in msg
    _same_refusal(thnn.Double.SpatialFractionalMaxPooling_updateOutput,
                  dev.CudaDouble.SpatialFractionalMaxPooling_updateOutput,
                  (x, None, 5, 4, 3, 2, None, u[:, :2]),
                  (dev.to_device(x), None, 5, 4, 3, 2, None, dev.to_device(np.ascontiguousarray(u[:, :2]))))


def _grid(rng, shape, dtype):
    g = rng.uniform(-1.3, 1.3, size=shape)
    g[0, 0, 0] = (-1, -1)                         # the corners and beyond
    g[0, 0, 1] = (1, 1)
    g[0, 1, 0] = (np.nan, 0.2)
    g[-1, -1, -1] = (5.0, -7.0)
    return g.astype(dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("padding_mode", [0, 1])
@pytest.mark.parametrize("shape,out", [((2, 3, 5, 7), (4, 6)), ((3, 2, 17, 23), (21, 19)), ((2, 1, 1, 6), (3, 2))])
def test_grid_sampler(shape, out, padding_mode, dtype, device):
    dev = device_named(device)
    rng = _rng(14)
    x = rng.standard_normal(shape).astype(dtype)
    grid = _grid(rng, (shape[0],) + out + (2,), dtype)
    y = thnn.backend(dtype).SpatialGridSamplerBilinear_updateOutput(x, grid, None, padding_mode)
    dy = _twin(dev, dtype, "SpatialGridSamplerBilinear_updateOutput")(dev.to_device(x), dev.to_device(grid), None,
                                                                       padding_mode)
    np.testing.assert_array_equal(np.isnan(dy.numpy()), np.isnan(y))
    _close(np.nan_to_num(dy.numpy()), np.nan_to_num(y), dtype, True)
    g = rng.standard_normal(y.shape).astype(dtype)
    gi, gg = thnn.backend(dtype).SpatialGridSamplerBilinear_updateGradInput(x, None, grid, None, g, padding_mode)
    dgi, dgg = _twin(dev, dtype, "SpatialGridSamplerBilinear_updateGradInput")(
        dev.to_device(x), None, dev.to_device(grid), None, dev.to_device(g), padding_mode)
    _close(dgi.numpy(), gi, dtype, False)
    np.testing.assert_array_equal(np.isnan(dgg.numpy()), np.isnan(gg))
    _close(np.nan_to_num(dgg.numpy()), np.nan_to_num(gg), dtype, False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,power,width,stride,batch", [
    ((9,), 2.0, 3, 2, False), ((11, 4, 5), 1.5, 4, 1, False), ((3, 16, 7), 3.0, 5, 3, True),
    ((2, 12, 6, 5), 2.5, 2, 4, True), ((40, 20), 1.0, 16, 1, True)])
def test_feature_lp_pooling(shape, power, width, stride, batch, dtype, device):
    dev = device_named(device)
    x = _rng(15).uniform(0.1, 2.0, size=shape).astype(dtype)
    y = thnn.backend(dtype).FeatureLPPooling_updateOutput(x, None, power, width, stride, batch)
    dy = _twin(dev, dtype, "FeatureLPPooling_updateOutput")(dev.to_device(x), None, power, width, stride, batch)
    _close(dy.numpy(), y, dtype, True)
    g = _rng(16).standard_normal(y.shape).astype(dtype)
    gi = thnn.backend(dtype).FeatureLPPooling_updateGradInput(g, x, y, None, power, width, stride, batch)
    dgi = _twin(dev, dtype, "FeatureLPPooling_updateGradInput")(dev.to_device(g), dev.to_device(x), dy, None, power,
                                                                 width, stride, batch)
    _close(dgi.numpy(), gi, dtype, False)


@pytest.mark.parametrize("device", DEVICES)
def test_more_same_refusals(device):
    dev = device_named(device)
    x = np.ones((2, 3, 4, 5))
    _same_refusal(thnn.Double.SpatialGridSamplerBilinear_updateOutput,
                  dev.CudaDouble.SpatialGridSamplerBilinear_updateOutput,
                  (x, np.zeros((3, 2, 2, 2)), None, 0), (dev.to_device(x), dev.to_device(np.zeros((3, 2, 2, 2))), None, 0))
    _same_refusal(thnn.Double.FeatureLPPooling_updateOutput, dev.CudaDouble.FeatureLPPooling_updateOutput,
                  (x, None, 2.0, 4, 1, True), (dev.to_device(x), None, 2.0, 4, 1, True))
    _same_refusal(thnn.Double.VolumetricFractionalMaxPooling_updateOutput,
                  dev.CudaDouble.VolumetricFractionalMaxPooling_updateOutput,
                  (x, None, 3, 3, 3, 2, 2, 2, None, np.full((1, 2, 3), 0.5)),
                  (dev.to_device(x), None, 3, 3, 3, 2, 2, 2, None, dev.to_device(np.full((1, 2, 3), 0.5))))
