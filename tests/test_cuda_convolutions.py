"""The convolution twins (thcunn_cu/generic/*Convolution*.cu, SpatialSubSampling.cu)
against their CPU kernels, on what tests/test_cuda_twins.py does not cover:
non-square kernels, steps, paddings and dilations (every W setting unlike its
H one), images large enough that every launch spans several blocks (the
emulator caps a grid-stride launch at 3 blocks of 256 threads), single
samples (3D / 4D input), accGradParameters with scale != 1 accumulating
into existing gradients (twice in a row), an absent gradBias, and the same
refusals with the same messages.

Tolerances as in test_cuda_twins.py, relative to the largest magnitude of
the CPU result: float32 1e-4 forward and 1e-3 backward, float64 1e-10."""
import numpy as np
import pytest

import thnn
import thnn.cuda as cuda

SCRATCH = {"finput", "fgradInput"}   # column buffers: each side lays them out its own way

DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]


def _cpu(dtype):
    return thnn.Float if np.dtype(dtype) == np.float32 else thnn.Double


def _u(rng, shape, dtype):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _close(name, got, want, tol):
    assert got.shape == want.shape, f"{name}: shape {got.shape}, CPU {want.shape}"
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    err = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
    assert err <= tol * max(scale, 1e-30), f"{name}: max |twin - cpu| = {err:.3g}, CPU magnitude {scale:.3g}"


def _run(dev, dtype, name, *args):
    """Call the CPU kernel on the arrays and the twin on device copies; check
    every [OUT] result but the scratch columns and every [INOUT] array agree,
    then update the [INOUT] arrays to the CPU's results.  Returns the CPU's
    results, as a tuple."""
    cpu = getattr(_cpu(dtype), name)
    twin = getattr(dev.backend(dtype), name)
    host = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    on_dev = [dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    want, got = cpu(*host), twin(*on_dev)
    produced = [a for a in cpu._args if a.is_tensor and a.tags & {"OUT", "BUFFER"}]
    if len(produced) == 1:
        want, got = (want,), (got,)
    tol = 1e-10 if np.dtype(dtype) == np.float64 else 1e-4 if name.endswith("updateOutput") else 1e-3
    for arg, w, g in zip(produced, want or (), got or ()):
        if arg.name not in SCRATCH:
            _close(f"{name} {arg.name}", g.numpy(), w, tol)
    for arg, a, h, d in zip(cpu._args, args, host, on_dev):
        if "INOUT" in arg.tags and h is not None:
            _close(f"{name} {arg.name}", d.numpy(), h, tol)
            a[...] = h                      # the next call accumulates from here
    return want


def _arg(function, name):
    return next(a for a in getattr(thnn.Double, function)._args if a.name == name)


def _conv_verbs(dev, dtype, layer, x, w, b, gy, settings, buffered=True, scale=0.3):
    """The three verbs of a convolution layer, updateOutput without bias too
    where it is optional; accGradParameters twice from existing gradients
    (with gradBias, then without where it is optional)."""
    rng = np.random.default_rng(7)
    buf = (None,) if buffered else ()
    out = _run(dev, dtype, f"{layer}_updateOutput", x, None, w, b, *buf, *settings)[0]
    assert out.shape == gy.shape
    if "OPTIONAL" in _arg(f"{layer}_updateOutput", "bias").tags:
        _run(dev, dtype, f"{layer}_updateOutput", x, None, w, None, *buf, *settings)
    _run(dev, dtype, f"{layer}_updateGradInput", x, gy, None, w, *buf, *settings)
    gw, gb = _u(rng, w.shape, dtype), _u(rng, b.shape, dtype)
    acc = f"{layer}_accGradParameters"
    optional = "OPTIONAL" in _arg(acc, "gradBias").tags
    for gradBias in (gb, None if optional else gb):
        _run(dev, dtype, acc, x, gy, gw, gradBias, *buf, *settings, scale)


def _out(size, k, d, pad, dil=1):
    return (size + 2 * pad - (k - 1) * dil - 1) // d + 1


def _full_out(size, k, d, pad, dil=1, adj=0):
    return (size - 1) * d - 2 * pad + (k - 1) * dil + 1 + adj


# kW, kH, dW, dH, padW, padH, dilationW, dilationH: no two alike along W and H
SPATIAL = dict(kW=3, kH=2, dW=2, dH=1, padW=1, padH=0, dilW=2, dilH=3)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [3, None], ids=["batch", "single"])
@pytest.mark.parametrize("layer", ["SpatialConvolutionMM", "SpatialDilatedConvolution"])
def test_spatial_convolution(dev, dtype, batch, layer):
    s = SPATIAL
    rng = np.random.default_rng(1)
    nIn, nOut, H, W = 3, 4, 13, 37
    dil = (s["dilW"], s["dilH"]) if layer == "SpatialDilatedConvolution" else (1, 1)
    oH, oW = _out(H, s["kH"], s["dH"], s["padH"], dil[1]), _out(W, s["kW"], s["dW"], s["padW"], dil[0])
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, H, W), dtype), _u(rng, lead + (nOut, oH, oW), dtype)
    w, b = _u(rng, (nOut, nIn, s["kH"], s["kW"]), dtype), _u(rng, (nOut,), dtype)
    settings = (s["kW"], s["kH"], s["dW"], s["dH"], s["padW"], s["padH"])
    if layer == "SpatialDilatedConvolution":
        settings += dil
    _conv_verbs(dev, dtype, layer, x, w, b, gy, settings)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [3, None], ids=["batch", "single"])
@pytest.mark.parametrize("layer", ["SpatialFullConvolution", "SpatialFullDilatedConvolution"])
def test_spatial_full_convolution(dev, dtype, batch, layer):
    s = SPATIAL
    rng = np.random.default_rng(2)
    nIn, nOut, H, W = 3, 4, 9, 23
    dilated = layer == "SpatialFullDilatedConvolution"
    dil = (s["dilW"], s["dilH"]) if dilated else (1, 1)
    adjW, adjH = 1, 0                       # adjW < dW = 2; adjH < dH = 1
    oH = _full_out(H, s["kH"], s["dH"], s["padH"], dil[1], adjH)
    oW = _full_out(W, s["kW"], s["dW"], s["padW"], dil[0], adjW)
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, H, W), dtype), _u(rng, lead + (nOut, oH, oW), dtype)
    w, b = _u(rng, (nIn, nOut, s["kH"], s["kW"]), dtype), _u(rng, (nOut,), dtype)
    settings = (s["kW"], s["kH"], s["dW"], s["dH"], s["padW"], s["padH"]) + (dil if dilated else ()) + (adjW, adjH)
    _conv_verbs(dev, dtype, layer, x, w, b, gy, settings)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [2, None], ids=["batch", "single"])
def test_depthwise_convolution(dev, dtype, batch):
    rng = np.random.default_rng(3)
    nIn, M, H, W, kW, kH, dW, dH, padW, padH = 3, 2, 12, 31, 3, 2, 2, 1, 1, 0
    oH, oW = _out(H, kH, dH, padH), _out(W, kW, dW, padW)
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, H, W), dtype), _u(rng, lead + (nIn * M, oH, oW), dtype)
    w, b = _u(rng, (M, nIn, kH, kW), dtype), _u(rng, (M, nIn), dtype)
    _conv_verbs(dev, dtype, "SpatialDepthWiseConvolution", x, w, b, gy, (kW, kH, dW, dH, padW, padH),
                buffered=False)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [2, None], ids=["batch", "single"])
def test_subsampling(dev, dtype, batch):
    rng = np.random.default_rng(4)
    nIn, H, W, kW, kH, dW, dH = 3, 14, 41, 3, 2, 2, 1
    oH, oW = (H - kH) // dH + 1, (W - kW) // dW + 1
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, H, W), dtype), _u(rng, lead + (nIn, oH, oW), dtype)
    w, b = _u(rng, (nIn,), dtype), _u(rng, (nIn,), dtype)
    settings = (kW, kH, dW, dH)
    _run(dev, dtype, "SpatialSubSampling_updateOutput", x, None, w, b, *settings)
    _run(dev, dtype, "SpatialSubSampling_updateGradInput", x, gy, None, w, *settings)
    gw, gb = _u(rng, (nIn,), dtype), _u(rng, (nIn,), dtype)
    for _ in range(2):
        _run(dev, dtype, "SpatialSubSampling_accGradParameters", x, gy, gw, gb, *settings, 0.3)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [2, None], ids=["batch", "single"])
def test_local_convolution(dev, dtype, batch):
    rng = np.random.default_rng(8)
    nIn, nOut, iH, iW, kW, kH, dW, dH, padW, padH = 2, 3, 9, 14, 3, 2, 2, 1, 1, 2
    oH, oW = _out(iH, kH, dH, padH), _out(iW, kW, dW, padW)
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, iH, iW), dtype), _u(rng, lead + (nOut, oH, oW), dtype)
    w, b = _u(rng, (oH, oW, nOut, nIn, kH, kW), dtype), _u(rng, (nOut, oH, oW), dtype)
    _conv_verbs(dev, dtype, "SpatialConvolutionLocal", x, w, b, gy,
                (kW, kH, dW, dH, padW, padH, iW, iH, oW, oH), buffered=False)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [2, None], ids=["batch", "single"])
@pytest.mark.parametrize("layer", ["SpatialConvolutionMap", "SpatialFullConvolutionMap"])
def test_connection_map(dev, dtype, batch, layer):
    """Planes linked by a table (an output plane fed by two kernels, one by
    none); the input has a plane more than nInputPlane, which is unused."""
    rng = np.random.default_rng(9)
    table = np.array([[0, 1], [2, 1], [1, 0], [0, 3], [2, 3], [1, 1]], dtype=np.int64)
    nIn, nOut, H, W, kW, kH, dW, dH = 3, 4, 11, 26, 3, 2, 2, 1
    if layer == "SpatialFullConvolutionMap":
        oH, oW = (H - 1) * dH + kH, (W - 1) * dW + kW
    else:
        oH, oW = (H - kH) // dH + 1, (W - kW) // dW + 1
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn + 1, H, W), dtype), _u(rng, lead + (nOut, oH, oW), dtype)
    w, b = _u(rng, (len(table), kH, kW), dtype), _u(rng, (nOut,), dtype)
    _conv_verbs(dev, dtype, layer, x, w, b, gy, (table, nIn, nOut, kW, kH, dW, dH), buffered=False)


# kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH, adjT, adjW, adjH
VOL = dict(k=(2, 3, 1), d=(1, 2, 1), pad=(1, 1, 0), dil=(2, 1, 3), adj=(0, 1, 0))   # T, W, H order


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [2, None], ids=["batch", "single"])
@pytest.mark.parametrize("layer", ["VolumetricConvolution", "VolumetricConvolutionMM", "VolumetricDilatedConvolution",
                                   "VolumetricFullConvolution", "VolumetricFullDilatedConvolution"])
def test_volumetric_convolution(dev, dtype, batch, layer):
    rng = np.random.default_rng(5)
    nIn, nOut, size = 2, 3, (4, 9, 6)            # T, W, H
    full, dilated = "Full" in layer, "Dilated" in layer
    dil = VOL["dil"] if dilated else (1, 1, 1)
    if full:
        out = [_full_out(i, k, d, p, e, a) for i, k, d, p, e, a in zip(size, VOL["k"], VOL["d"], VOL["pad"], dil,
                                                                         VOL["adj"])]
    else:
        out = [_out(i, k, d, p, e) for i, k, d, p, e in zip(size, VOL["k"], VOL["d"], VOL["pad"], dil)]
    T, W, H = size
    lead = (batch,) if batch else ()
    x, gy = _u(rng, lead + (nIn, T, H, W), dtype), _u(rng, lead + (nOut, out[0], out[2], out[1]), dtype)
    kT, kW, kH = VOL["k"]
    w = _u(rng, ((nIn, nOut) if full else (nOut, nIn)) + (kT, kH, kW), dtype)
    b = _u(rng, (nOut,), dtype)
    settings = VOL["k"] + VOL["d"] + VOL["pad"] + (dil if dilated else ()) + (VOL["adj"] if full else ())
    _conv_verbs(dev, dtype, layer, x, w, b, gy, settings, buffered=layer != "VolumetricConvolution")


@pytest.mark.parametrize("dtype", DTYPES)
def test_spatial_convolution_large_batch(dev, dtype):
    """Many samples through the one column buffer, a 1x1 kernel included."""
    rng = np.random.default_rng(6)
    x, gy = _u(rng, (17, 5, 6, 7), dtype), _u(rng, (17, 2, 6, 7), dtype)
    w, b = _u(rng, (2, 5, 1, 1), dtype), _u(rng, (2,), dtype)
    _conv_verbs(dev, dtype, "SpatialConvolutionMM", x, w, b, gy, (1, 1, 1, 1, 0, 0))


def _refusals(np_or_dev):
    x = np_or_dev(np.ones((2, 3, 5, 7)))
    w = np_or_dev(np.ones((4, 3, 2, 3)))
    b = np_or_dev(np.ones(4))
    x5 = np_or_dev(np.ones((2, 2, 3, 4, 5)))
    w5 = np_or_dev(np.ones((3, 2, 1, 2, 2)))
    return [
        ("SpatialConvolutionMM_updateOutput", (x, None, w, b, None, 3, 2, 1, 1, 3, 0)),       # pad >= kernel
        ("SpatialConvolutionMM_updateOutput", (x, None, w, b, None, 2, 3, 1, 1, 0, 0)),       # kW/kH swapped
        ("SpatialDilatedConvolution_updateOutput", (x, None, w, b, None, 3, 2, 1, 1, 0, 0, 0, 1)),
        ("SpatialFullConvolution_updateOutput", (x, None, np_or_dev(np.ones((3, 4, 2, 3))), b, None,
                                                 3, 2, 2, 1, 0, 0, 0, 1)),                   # adjH >= dH
        ("SpatialDepthWiseConvolution_updateOutput", (x, None, w, np_or_dev(np.ones(12)), 3, 2, 1, 1, 0, 0)),
        ("SpatialSubSampling_updateOutput", (x, None, np_or_dev(np.ones(3)), np_or_dev(np.ones(3)), 3, 9, 1, 1)),
        ("SpatialConvolutionMap_updateOutput", (x, None, np_or_dev(np.ones((2, 2, 3))), np_or_dev(np.ones(2)),
                                                np_or_dev(np.array([[0, 0], [3, 1]])), 3, 2, 3, 2, 1, 1)),
        ("VolumetricConvolution_updateOutput", (x5, None, w5, np_or_dev(np.ones(3)), 2, 2, 1, 1, 1, 1, 0, 0, 0)),
        ("VolumetricFullDilatedConvolution_updateOutput", (x5, None, w5, np_or_dev(np.ones(2)), None,
                                                           2, 2, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0)),
    ]


def test_same_refusals_same_messages(dev):
    for (name, cpu_args), (_, dev_args) in zip(_refusals(lambda a: a), _refusals(dev.to_device)):
        with pytest.raises(Exception) as cpu_error:
            getattr(thnn.Double, name)(*cpu_args)
        with pytest.raises(cuda.CudaError) as twin_error:
            getattr(dev.CudaDouble, name)(*dev_args)
        assert str(twin_error.value) == str(cpu_error.value), name
