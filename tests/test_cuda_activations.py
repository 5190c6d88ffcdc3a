"""The CUDA twins of the activations and softmaxes (thcunn_cu/generic/), on
what tests/test_cuda_twins.py's one small call per kernel does not reach:
softmax rows long enough to take many trips around a block, every softmax
layout, the in-place modes (the result written over the input, the output
a view of it, as on the CPU, also for a strided input), refused shapes
(the CPU's message, as thnn.cuda.CudaError), and PReLU's per-channel weight
gradient on more channels than the emulator has blocks.

Tolerances are those of test_cuda_twins.py, relative to the largest
magnitude of the CPU result: float32 1e-4 forward and 1e-3 backward,
float64 1e-10."""
import numpy as np
import pytest

import thnn
import thnn.cuda as cuda

DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]


def _tol(dtype, backward=False):
    if np.dtype(dtype) == np.float64:
        return 1e-10
    return 1e-3 if backward else 1e-4


def _close(got, want, tol, what=""):
    assert got.shape == want.shape, what
    scale = float(np.max(np.abs(want)))
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    assert err <= tol * max(scale, 1e-30), f"{what}: max |twin - cpu| = {err:.3g}, CPU magnitude {scale:.3g}"


def _shares_memory(a, b):
    return a._storage.data == b._storage.data


# ---- softmax: long rows, every layout ----

# (shape, rows, features): 1D and 2D are rows of contiguous features, 3D and
# 4D softmax along dim 0 / 1 with a stride of h * w between features.
SOFTMAX_SHAPES = [(5000,), (3, 5000), (7, 9, 11), (2, 7, 9, 11), (2, 3000, 2, 2)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layer", ["SoftMax", "LogSoftMax"])
@pytest.mark.parametrize("shape", SOFTMAX_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_softmax_matches_cpu(dev, layer, shape, dtype):
    rng = np.random.default_rng(len(shape))
    x = rng.uniform(-8, 8, shape).astype(dtype)
    go = rng.uniform(-1, 1, shape).astype(dtype)
    cpu, twin = thnn.backend(dtype), dev.backend(dtype)
    y = getattr(cpu, f"{layer}_updateOutput")(x.copy(), None)
    Y = getattr(twin, f"{layer}_updateOutput")(dev.to_device(x), None)
    _close(Y.numpy(), y, _tol(dtype), "output")
    gi = getattr(cpu, f"{layer}_updateGradInput")(x, go, None, y)
    GI = getattr(twin, f"{layer}_updateGradInput")(*map(dev.to_device, (x, go)), None, dev.to_device(y))
    _close(GI.numpy(), gi, _tol(dtype, backward=True), "gradInput")


@pytest.mark.parametrize("shape", [(3, 5000), (2, 7, 9, 11)], ids=["3x5000", "2x7x9x11"])
def test_softmax_rows_sum_to_one(dev, shape):
    """Big inputs whose shift would overflow exp without the max: each row sums to 1."""
    x = np.random.default_rng(3).uniform(600, 800, shape)
    y = dev.CudaDouble.SoftMax_updateOutput(dev.to_device(x), None).numpy()
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-12)
    logy = dev.CudaDouble.LogSoftMax_updateOutput(dev.to_device(x), None).numpy()
    np.testing.assert_allclose(np.exp(logy), y, rtol=1e-10)


@pytest.mark.parametrize("layer", ["SoftMax", "LogSoftMax"])
def test_softmax_nan_row(dev, layer):
    """A NaN makes its own row NaN and leaves the others alone, on both sides."""
    x = np.random.default_rng(4).uniform(-1, 1, (3, 700))
    x[1, 650] = np.nan
    y = getattr(thnn.Double, f"{layer}_updateOutput")(x.copy(), None)
    Y = getattr(dev.CudaDouble, f"{layer}_updateOutput")(dev.to_device(x), None).numpy()
    assert np.all(np.isnan(Y[1])) and np.all(np.isnan(y[1]))
    _close(Y[[0, 2]], y[[0, 2]], 1e-10)


# ---- in-place modes ----

# layer: its scalars (the same in both passes, before inplace), whether its
# backward pass also takes the forward output, whether it takes noise
INPLACE = {
    "Threshold": dict(scalars=(0.1, -0.5)),
    "ELU": dict(scalars=(1.0,), output_in_backward=True),
    "HardTanh": dict(scalars=(-1.0, 1.0)),
    "LeakyReLU": dict(scalars=(0.1,)),
    "RReLU": dict(scalars=(0.125, 1 / 3, True), noise=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "strided"])
@pytest.mark.parametrize("layer", sorted(INPLACE))
def test_inplace_output_is_the_input(dev, layer, transposed, dtype):
    spec = INPLACE[layer]
    rng = np.random.default_rng(5)
    shape = (30, 40)
    x = rng.uniform(-2, 2, shape).astype(dtype)
    go = rng.uniform(-1, 1, shape).astype(dtype)
    noise = [rng.uniform(0.125, 1 / 3, shape).astype(dtype)] if spec.get("noise") else []
    scalars = [*spec["scalars"], True]
    cpu, twin = thnn.backend(dtype), dev.backend(dtype)

    def place(a):   # the tensor written in place: a device copy, a transposed view when strided
        return dev.to_device(np.ascontiguousarray(a.T)).swapaxes(0, 1) if transposed else dev.to_device(a)

    # forward: the result over input, the output a view of it
    x_cpu, noise_cpu = x.copy(), [n.copy() for n in noise]
    X, NOISE = place(x), [dev.to_device(n) for n in noise]
    y = getattr(cpu, f"{layer}_updateOutput")(x_cpu, None, *noise_cpu, *scalars)
    Y = getattr(twin, f"{layer}_updateOutput")(X, None, *NOISE, *scalars)
    assert np.shares_memory(y, x_cpu)
    assert _shares_memory(Y, X) and (Y.shape, Y.strides, Y.offset) == (X.shape, X.strides, X.offset)
    _close(X.numpy(), x_cpu, _tol(dtype), "input after the forward pass")
    for N, n in zip(NOISE, noise_cpu):
        _close(N.numpy(), n, _tol(dtype), "noise")

    # backward: input holds the forward output; the result over gradOutput, gradInput a view of it
    out = [x_cpu] if spec.get("output_in_backward") else []
    go_cpu, GO = go.copy(), place(go)
    gi = getattr(cpu, f"{layer}_updateGradInput")(x_cpu, go_cpu, None, *out, *noise_cpu, *scalars)
    GI = getattr(twin, f"{layer}_updateGradInput")(dev.to_device(x_cpu), GO, None, *map(dev.to_device, out),
                                                    *map(dev.to_device, noise_cpu), *scalars)
    assert np.shares_memory(gi, go_cpu)
    assert _shares_memory(GI, GO) and (GI.shape, GI.strides, GI.offset) == (GO.shape, GO.strides, GO.offset)
    _close(GO.numpy(), go_cpu, _tol(dtype, backward=True), "gradOutput after the backward pass")


def test_inplace_reuses_no_output_memory(dev):
    """An [OUT] tensor handed in is not written in place: the output becomes
    the input, and the tensor handed in keeps its values."""
    x = np.linspace(-1, 1, 600).reshape(20, 30)
    X, O = dev.to_device(x), dev.to_device(np.full((20, 30), 7.0))
    Y = dev.CudaDouble.LeakyReLU_updateOutput(X, O, 0.25, True)
    assert _shares_memory(Y, X)
    np.testing.assert_array_equal(O.numpy(), 7.0)
    np.testing.assert_array_equal(X.numpy(), np.where(x > 0, x, 0.25 * x))


# ---- refused shapes: the CPU's message ----

BAD_CALLS = {
    "SoftMax 5D": ("SoftMax_updateOutput", lambda: [np.ones((1, 2, 1, 2, 1)), None]),
    "LogSoftMax gradOutput size": ("LogSoftMax_updateGradInput",
                                   lambda: [np.ones((3, 4)), np.ones((3, 5)), None, np.ones((3, 4))]),
    "Tanh gradOutput size": ("Tanh_updateGradInput", lambda: [np.ones((2, 3)), None, np.ones((3, 2))]),
    "GatedLinear odd dim": ("GatedLinear_updateOutput", lambda: [np.ones((4, 5)), None, 1]),
    "GatedLinear dim out of range": ("GatedLinear_updateOutput", lambda: [np.ones((4, 6)), None, 2]),
    "PReLU channel count": ("PReLU_updateOutput", lambda: [np.ones((2, 3, 4)), None, np.ones(4), 4]),
    "PReLU weight size": ("PReLU_accGradParameters",
                          lambda: [np.ones((2, 3)), np.ones((2, 3)), np.ones(3), np.ones(2), 3, 1.0]),
    "Threshold in place, val > threshold": ("Threshold_updateOutput",
                                            lambda: [np.ones(5), None, 0.0, 1.0, True]),
    "ELU in place, alpha < 0": ("ELU_updateOutput", lambda: [np.ones(5), None, -1.0, True]),
    "HardTanh max <= min": ("HardTanh_updateOutput", lambda: [np.ones(5), None, 1.0, 1.0, False]),
    "RReLU training without noise": ("RReLU_updateOutput",
                                     lambda: [np.ones(5), None, None, 0.1, 0.3, True, False]),
    "RReLU bounds": ("RReLU_updateOutput", lambda: [np.ones(5), None, None, 0.3, 0.1, False, False]),
    "SoftPlus beta": ("SoftPlus_updateOutput", lambda: [np.ones(5), None, 0.0, 20.0]),
    "SoftShrink lambda": ("SoftShrink_updateOutput", lambda: [np.ones(5), None, -0.5]),
    "LogSigmoid buffer size": ("LogSigmoid_updateGradInput",
                               lambda: [np.ones(5), np.ones(5), None, np.ones(4)]),
    "Sqrt output size": ("Sqrt_updateGradInput", lambda: [np.ones(5), np.ones(5), None, np.ones(6)]),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_refused_like_the_cpu(dev, name):
    function, make_args = BAD_CALLS[name]
    with pytest.raises(thnn.THNNError) as cpu_error:
        getattr(thnn.Double, function)(*make_args())
    args = [dev.to_device(a) if isinstance(a, np.ndarray) else a for a in make_args()]
    with pytest.raises(cuda.CudaError) as twin_error:
        getattr(dev.CudaDouble, function)(*args)
    assert str(twin_error.value) == str(cpu_error.value)


# ---- PReLU across many blocks ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 7, 9, 11), (7, 13, 17), (300, 9), (1000,)],
                         ids=lambda s: "x".join(map(str, s)))
def test_prelu_per_channel(dev, shape, dtype):
    """7 to 13 channels (more than the emulator's 3 blocks, so each block
    takes several), each of hundreds of elements (several trips around a
    256-thread block), in every layout."""
    rng = np.random.default_rng(6)
    nplane = shape[1] if len(shape) in (2, 4) else shape[0]
    x = rng.uniform(-2, 2, shape).astype(dtype)
    go = rng.uniform(-1, 1, shape).astype(dtype)
    w = rng.uniform(0, 0.5, nplane).astype(dtype)
    gw = rng.uniform(-1, 1, nplane).astype(dtype)
    cpu, twin = thnn.backend(dtype), dev.backend(dtype)
    X, GO, W = dev.to_device(x), dev.to_device(go), dev.to_device(w)
    _close(twin.PReLU_updateOutput(X, None, W, nplane).numpy(), cpu.PReLU_updateOutput(x, None, w, nplane),
           _tol(dtype), "output")
    _close(twin.PReLU_updateGradInput(X, GO, None, W, nplane).numpy(),
           cpu.PReLU_updateGradInput(x, go, None, w, nplane), _tol(dtype, True), "gradInput")
    GW = dev.to_device(gw)
    cpu.PReLU_accGradParameters(x, go, w, gw, nplane, 0.5)
    twin.PReLU_accGradParameters(X, GO, W, GW, nplane, 0.5)
    _close(GW.numpy(), gw, _tol(dtype, True), "gradWeight")


def test_prelu_shared_and_strided_weight(dev):
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, (40, 3, 5, 7))
    go = rng.uniform(-1, 1, x.shape)
    X, GO = dev.to_device(x), dev.to_device(go)
    # one shared slope, nOutputPlane = 0: the whole input is one channel
    w, gw = np.array([0.3]), np.array([0.25])
    GW = dev.to_device(gw)
    _close(dev.CudaDouble.PReLU_updateOutput(X, None, dev.to_device(w), 0).numpy(),
           thnn.Double.PReLU_updateOutput(x, None, w, 0), 1e-10)
    thnn.Double.PReLU_accGradParameters(x, go, w, gw, 0, 1.0)
    dev.CudaDouble.PReLU_accGradParameters(X, GO, dev.to_device(w), GW, 0, 1.0)
    _close(GW.numpy(), gw, 1e-10)
    # per-channel slopes read through a strided weight (every other element of 6)
    both = rng.uniform(0, 0.5, 6)
    w = both[::2]
    W = dev.to_device(both)._view((3,), (2,), 0)   # the device tensor of the same strided view
    assert not W.is_contiguous()
    _close(dev.CudaDouble.PReLU_updateGradInput(X, GO, None, W, 3).numpy(),
           thnn.Double.PReLU_updateGradInput(x, go, None, w, 3), 1e-10)


# ---- the elementwise layers on a batch that wraps the grid many times ----

ELEMENTWISE = {"Tanh": (), "Abs": (), "Square": (), "SoftShrink": (0.5,), "HardShrink": (0.5,),
               "SoftPlus": (2.0, 3.0), "LogSigmoid": ()}   # layer: its scalars


@pytest.mark.parametrize("layer", sorted(ELEMENTWISE))
def test_elementwise_long(dev, layer):
    """50 000 elements: each of the emulator's 768 threads takes ~65 trips."""
    scalars = ELEMENTWISE[layer]
    rng = np.random.default_rng(8)
    x = rng.uniform(-3, 3, (50, 1000))
    go = rng.uniform(-1, 1, x.shape)
    cpu, twin = thnn.Double, dev.CudaDouble
    X, GO = dev.to_device(x), dev.to_device(go)
    if layer == "LogSigmoid":
        y, buf = cpu.LogSigmoid_updateOutput(x, None, None)
        Y, BUF = twin.LogSigmoid_updateOutput(X, None, None)
        _close(BUF.numpy(), buf, 1e-10, "buffer")
        want = cpu.LogSigmoid_updateGradInput(x, go, None, buf)
        got = twin.LogSigmoid_updateGradInput(X, GO, None, BUF)
    else:
        y = getattr(cpu, f"{layer}_updateOutput")(x, None, *scalars)
        Y = getattr(twin, f"{layer}_updateOutput")(X, None, *scalars)
        if layer == "Tanh":
            want, got = cpu.Tanh_updateGradInput(go, None, y), twin.Tanh_updateGradInput(GO, None, Y)
        elif layer == "SoftPlus":
            want = cpu.SoftPlus_updateGradInput(x, go, None, y, *scalars)
            got = twin.SoftPlus_updateGradInput(X, GO, None, Y, *scalars)
        else:
            want = getattr(cpu, f"{layer}_updateGradInput")(x, go, None, *scalars)
            got = getattr(twin, f"{layer}_updateGradInput")(X, GO, None, *scalars)
    _close(Y.numpy(), y, 1e-10, "output")
    _close(got.numpy(), want, 1e-10, "gradInput")
