"""nn_legacy modules moved to a CUDA device with ``module.cuda()``, run on the
device, against the same module on the host.

Every class that says it runs on CUDA (``_cuda_ready = True``) must have an
entry in MODULES, which builds it and a valid input (and target, for a
criterion).  Each entry runs forward and backward (with parameters, their
gradients and an updateParameters step) on the host and on every device,
float32 and float64, from the same weights; then ``float()``/``double()``
brings the module back and it must hold the device's results."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn.cuda as cuda

_reason = cuda.gpu_unavailable_reason()
DEVICES = [pytest.param("emulator", id="emulator"),
           pytest.param("gpu", id="gpu", marks=pytest.mark.skipif(_reason is not None, reason=str(_reason)))]


def _u(rng, *shape):
    return rng.uniform(-2, 2, shape)


# name -> (builder, input maker(rng), target maker(rng) or None)
MODULES = {
    "Sigmoid": (lambda: nn.Sigmoid(), lambda r: _u(r, 7, 300), None),
    "Sequential": (lambda: nn.Sequential().add(nn.Sigmoid()).add(nn.Sigmoid()), lambda r: _u(r, 5, 4, 70), None),
    # activations
    "Tanh": (lambda: nn.Tanh(), lambda r: _u(r, 7, 300), None),
    "Threshold": (lambda: nn.Threshold(0.3, -0.2), lambda r: _u(r, 7, 300), None),
    "ReLU": (lambda: nn.ReLU(), lambda r: _u(r, 7, 300), None),
    "Abs": (lambda: nn.Abs(), lambda r: _u(r, 7, 300), None),
    "ELU": (lambda: nn.ELU(0.7), lambda r: _u(r, 7, 300), None),
    "GatedLinearUnit": (lambda: nn.GatedLinearUnit(), lambda r: _u(r, 7, 300), None),
    "HardShrink": (lambda: nn.HardShrink(0.4), lambda r: _u(r, 7, 300), None),
    "HardTanh": (lambda: nn.HardTanh(-0.5, 0.8), lambda r: _u(r, 7, 300), None),
    "LeakyReLU": (lambda: nn.LeakyReLU(0.05), lambda r: _u(r, 7, 300), None),
    "LogSigmoid": (lambda: nn.LogSigmoid(), lambda r: _u(r, 7, 300), None),
    "PReLU": (lambda: nn.PReLU(5), lambda r: _u(r, 3, 5, 9, 11), None),
    "SoftPlus": (lambda: nn.SoftPlus(2, 5), lambda r: _u(r, 7, 300), None),
    "SoftShrink": (lambda: nn.SoftShrink(0.3), lambda r: _u(r, 7, 300), None),
    "Sqrt": (lambda: nn.Sqrt(), lambda r: r.uniform(0.1, 3, (7, 300)), None),
    "Square": (lambda: nn.Square(), lambda r: _u(r, 7, 300), None),
    "SoftMax": (lambda: nn.SoftMax(), lambda r: _u(r, 7, 1300), None),
    "LogSoftMax": (lambda: nn.LogSoftMax(), lambda r: _u(r, 7, 1300), None),
    "SpatialSoftMax": (lambda: nn.SpatialSoftMax(), lambda r: _u(r, 2, 6, 9, 11), None),
    "SpatialLogSoftMax": (lambda: nn.SpatialLogSoftMax(), lambda r: _u(r, 2, 6, 9, 11), None),
    # linear, batch normalization, temporal
    "Linear": (lambda: nn.Linear(300, 70), lambda r: _u(r, 9, 300), None),
    "TemporalConvolution": (lambda: nn.TemporalConvolution(6, 5, 3, 2), lambda r: _u(r, 3, 20, 6), None),
    "TemporalSubSampling": (lambda: nn.TemporalSubSampling(6, 3, 2), lambda r: _u(r, 3, 20, 6), None),
    "BatchNormalization": (lambda: nn.BatchNormalization(40), lambda r: _u(r, 16, 40), None),
    "SpatialBatchNormalization": (lambda: nn.SpatialBatchNormalization(5), lambda r: _u(r, 4, 5, 9, 7), None),
    "VolumetricBatchNormalization": (lambda: nn.VolumetricBatchNormalization(3), lambda r: _u(r, 2, 3, 4, 5, 6), None),
    # pooling, padding, up-sampling
    "SpatialMaxPooling": (lambda: nn.SpatialMaxPooling(3, 2, 2, 2, 1, 0), lambda r: _u(r, 2, 3, 11, 9), None),
    "SpatialDilatedMaxPooling": (lambda: nn.SpatialDilatedMaxPooling(2, 2, 1, 2, 0, 1, 2, 1), lambda r: _u(r, 2, 3, 11, 9), None),
    "SpatialAveragePooling": (lambda: nn.SpatialAveragePooling(3, 2, 2, 1, 1, 0), lambda r: _u(r, 2, 3, 11, 9), None),
    "SpatialAdaptiveMaxPooling": (lambda: nn.SpatialAdaptiveMaxPooling(4, 3), lambda r: _u(r, 2, 3, 11, 9), None),
    "SpatialAdaptiveAveragePooling": (lambda: nn.SpatialAdaptiveAveragePooling(4, 3), lambda r: _u(r, 2, 3, 11, 9), None),
    "SpatialReflectionPadding": (lambda: nn.SpatialReflectionPadding(2, 1, 0, 3), lambda r: _u(r, 2, 3, 8, 9), None),
    "SpatialReplicationPadding": (lambda: nn.SpatialReplicationPadding(2, 1, 0, 3), lambda r: _u(r, 2, 3, 8, 9), None),
    "SpatialUpSamplingNearest": (lambda: nn.SpatialUpSamplingNearest(2), lambda r: _u(r, 2, 3, 8, 9), None),
    "SpatialUpSamplingBilinear": (lambda: nn.SpatialUpSamplingBilinear(oheight=13, owidth=11), lambda r: _u(r, 2, 3, 8, 9), None),
    "VolumetricMaxPooling": (lambda: nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 2), lambda r: _u(r, 2, 3, 6, 8, 7), None),
    "VolumetricDilatedMaxPooling": (lambda: nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 2, 2), lambda r: _u(r, 2, 3, 6, 8, 7), None),
    "VolumetricAveragePooling": (lambda: nn.VolumetricAveragePooling(2, 2, 2, 1, 2, 2), lambda r: _u(r, 2, 3, 6, 8, 7), None),
    "VolumetricReplicationPadding": (lambda: nn.VolumetricReplicationPadding(1, 2, 0, 1, 2, 0), lambda r: _u(r, 2, 3, 4, 5, 6), None),
    "VolumetricUpSamplingNearest": (lambda: nn.VolumetricUpSamplingNearest(2), lambda r: _u(r, 2, 3, 4, 5, 6), None),
    "VolumetricUpSamplingTrilinear": (lambda: nn.VolumetricUpSamplingTrilinear(odepth=6, oheight=7, owidth=9), lambda r: _u(r, 2, 3, 4, 5, 6), None),
    # criterions (targets: host arrays follow a device input)
    "MSECriterion": (lambda: nn.MSECriterion(), lambda r: _u(r, 6, 500), lambda r: _u(r, 6, 500)),
    "AbsCriterion": (lambda: nn.AbsCriterion(sizeAverage=False), lambda r: _u(r, 6, 500), lambda r: _u(r, 6, 500)),
    "SmoothL1Criterion": (lambda: nn.SmoothL1Criterion(), lambda r: _u(r, 6, 500), lambda r: _u(r, 6, 500)),
    "ClassNLLCriterion": (lambda: nn.ClassNLLCriterion(weights=np.linspace(0.5, 2, 300)), lambda r: _u(r, 40, 300),
                          lambda r: r.integers(0, 300, 40)),
    # convolutions
    "SpatialConvolution": (lambda: nn.SpatialConvolution(3, 5, 3, 2, 2, 1, 1, 0), lambda r: _u(r, 4, 3, 11, 9), None),
    "SpatialConvolutionMM": (lambda: nn.SpatialConvolutionMM(3, 5, 2, 3, 1, 2, 0, 1), lambda r: _u(r, 3, 11, 9), None),
    "SpatialDilatedConvolution": (lambda: nn.SpatialDilatedConvolution(3, 4, 3, 3, 1, 1, 1, 1, 2, 1),
                                  lambda r: _u(r, 2, 3, 12, 10), None),
    "SpatialFullConvolution": (lambda: nn.SpatialFullConvolution(3, 4, 3, 2, 2, 1, 1, 0, 1, 0),
                               lambda r: _u(r, 2, 3, 7, 6), None),
    "SpatialSubSampling": (lambda: nn.SpatialSubSampling(3, 2, 2, 2, 2), lambda r: _u(r, 2, 3, 12, 10), None),
    "VolumetricConvolution": (lambda: nn.VolumetricConvolution(2, 3, 2, 3, 2), lambda r: _u(r, 2, 2, 5, 7, 6), None),
    "VolumetricConvolutionMM": (lambda: nn.VolumetricConvolutionMM(2, 3, 2, 2, 3, 1, 2, 1, 1, 0, 1),
                                lambda r: _u(r, 2, 2, 5, 7, 6), None),
    "VolumetricDilatedConvolution": (lambda: nn.VolumetricDilatedConvolution(2, 3, 2, 2, 2, 1, 1, 1, 0, 1, 0, 2, 1, 2),
                                     lambda r: _u(r, 2, 2, 6, 7, 8), None),
    "SpatialFullDilatedConvolution": (lambda: nn.SpatialFullDilatedConvolution(3, 2, 3, 2, 2, 1, 1, 0, 2, 1, 1, 0),
                                      lambda r: _u(r, 2, 3, 5, 6), None),
    # recurrent (one step here; sequences in tests/test_rnn_cuda.py)
    "LinearNoBias": (lambda: nn.LinearNoBias(300, 70), lambda r: _u(r, 9, 300), None),
    "FastLSTM": (lambda: nn.FastLSTM(7, 40), lambda r: _u(r, 5, 7), None),
    # the GPU decorator (tests/test_GPU.py checks host inputs too)
    "GPU": (lambda: nn.GPU(nn.Sequential().add(nn.Linear(5, 4)).add(nn.Tanh()), 1), lambda r: _u(r, 3, 5), None),
}

# ready classes whose input is a table, which this harness does not feed: tested there
TESTED_ELSEWHERE = {"LSTMCellFused": "tests/test_rnn_cuda.py", "FastLSTMStep": "tests/test_rnn_cuda.py"}


def _ready_classes():
    found = set()
    for name in dir(nn):
        cls = getattr(nn, name)
        if isinstance(cls, type) and issubclass(cls, (nn.Module, nn.Criterion)) and cls._cuda_ready:
            found.add(cls.__name__)
    return found


def test_every_cuda_ready_class_is_tested():
    """(a subclass of a ready class is ready too, so it needs its own entry)"""
    assert _ready_classes() == set(MODULES) | set(TESTED_ELSEWHERE)


def _host(value):
    return value.numpy() if isinstance(value, cuda.CudaTensor) else value


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_on_device_matches_host(name, dtype, device):
    dev = cuda.emulator() if device == "emulator" else cuda.gpu()
    build, make_input, make_target = MODULES[name]
    rng = np.random.default_rng(0)
    x = make_input(rng).astype(dtype)
    host = build().type(dtype)
    on_device = host.clone().cuda(dev)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    if make_target is not None:
        t = make_target(rng)
        loss = host.forward(x, t)
        g = host.backward(x, t)
        x_d = dev.to_device(x)
        loss_d = on_device.forward(x_d, t)                 # a host target is copied to the device
        assert abs(loss_d - loss) <= tol * max(1.0, abs(loss))
        np.testing.assert_allclose(on_device.backward(x_d, t).numpy(), g, rtol=tol, atol=tol * np.abs(g).max())
        t_d = dev.to_device(t.astype(dtype) if t.dtype.kind == "f" else t)   # or a device target
        assert abs(on_device.forward(x_d, t_d) - loss) <= tol * max(1.0, abs(loss))
        return
    y = host.forward(x)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    host.zeroGradParameters()
    gx = host.backward(x, gy)
    on_device.zeroGradParameters()
    y_d = on_device.forward(dev.to_device(x))
    gx_d = on_device.backward(dev.to_device(x), dev.to_device(gy))
    assert isinstance(y_d, cuda.CudaTensor) and isinstance(gx_d, cuda.CudaTensor)
    np.testing.assert_allclose(y_d.numpy(), y, rtol=tol, atol=tol * np.abs(y).max())
    np.testing.assert_allclose(gx_d.numpy(), gx, rtol=tol, atol=tol * max(np.abs(gx).max(), 1e-30))
    for p, p_d in zip(*[m.parameters()[1] for m in (host, on_device)]):
        np.testing.assert_allclose(p_d.numpy(), p, rtol=tol, atol=tol * np.abs(p).max())
    host.updateParameters(0.1)
    on_device.updateParameters(0.1)
    back = on_device.type(dtype)            # back to the host
    for p, p_back in zip(host.parameters()[0], back.parameters()[0]):
        assert isinstance(p_back, np.ndarray)
        np.testing.assert_allclose(p_back, p, rtol=tol, atol=tol * np.abs(p).max())


def test_modules_that_do_not_run_on_cuda_say_so():
    with pytest.raises(TypeError, match="Bilinear does not run on CUDA yet"):
        nn.Sequential().add(nn.Sigmoid()).add(nn.Bilinear(3, 3, 2)).cuda(cuda.emulator())


def test_mixing_host_and_device_arrays_is_refused_clearly():
    dev = cuda.emulator()
    m = nn.Sigmoid().cuda(dev)
    m.forward(dev.to_device(np.ones((2, 3))))
    with pytest.raises(TypeError, match="output must be a numpy array to reuse or None, got CudaTensor"):
        m.forward(np.ones((2, 3)))           # its output buffer lives on the device
    m.double()
    m.forward(np.ones((2, 3)))
    with pytest.raises(TypeError, match="output must be a CudaTensor, got ndarray"):
        m.forward(dev.to_device(np.ones((2, 3))))


@pytest.mark.parametrize("device", DEVICES)
def test_batch_normalization_evaluates_one_sample_on_the_device(device):
    """In evaluation a sample without the batch dim is a batch of one: a view on both sides."""
    dev = cuda.emulator() if device == "emulator" else cuda.gpu()
    rng = np.random.default_rng(3)
    host = nn.SpatialBatchNormalization(4)
    host.forward(rng.uniform(-2, 2, (6, 4, 5, 5)))       # running statistics from a training step
    host.evaluate()
    on_device = host.clone().cuda(dev)
    x = rng.uniform(-2, 2, (4, 5, 5))
    gy = rng.uniform(-1, 1, (4, 5, 5))
    y, gx = host.forward(x), host.backward(x, gy)
    y_d = on_device.forward(dev.to_device(x))
    gx_d = on_device.backward(dev.to_device(x), dev.to_device(gy))
    assert y_d.shape == (4, 5, 5) and gx_d.shape == (4, 5, 5)
    np.testing.assert_allclose(y_d.numpy(), y, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gx_d.numpy(), gx, rtol=1e-10, atol=1e-12)
