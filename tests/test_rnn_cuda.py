"""Recurrent modules (FastLSTM, its step FastLSTMStep, LSTMCellFused,
LinearNoBias) on a CUDA device against the same modules on the host:
forward and backpropagation through time over a sequence, float32 and
float64, on the emulator and, when a GPU is lent, on it.  (Every recurrent
class also runs its module table entries in tests/test_cuda_modules.py.)"""
import numpy as np
import pytest

import nn_legacy as nn
import thnn.cuda as cuda
from cuda_devices import DEVICES, device_named

DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]
D, H, N, T = 5, 33, 4, 6     # 4 * 33 gates: more than one block of threads


def _close(device_value, host_value, dtype):
    tol = 1e-4 if dtype == np.float32 else 1e-10
    got = device_value.numpy() if isinstance(device_value, cuda.CudaTensor) else device_value
    np.testing.assert_allclose(got, host_value, rtol=tol, atol=tol * max(np.abs(host_value).max(), 1e-30))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fast_lstm_sequence_on_device(device, dtype):
    dev = device_named(device)
    nn.manualSeed(0)
    host = nn.FastLSTM(D, H, rho=4).type(dtype)
    on_device = host.clone().cuda(dev)
    assert isinstance(on_device.i2g.weight, cuda.CudaTensor) and on_device.i2g is on_device.recurrentModule.i2g
    rng = np.random.default_rng(1)
    xs = rng.uniform(-1, 1, (T, N, D)).astype(dtype)
    gs = rng.uniform(-1, 1, (T, N, H)).astype(dtype)
    for x in xs:
        y_d = on_device.forward(dev.to_device(x))
        assert isinstance(y_d, cuda.CudaTensor)
        _close(y_d, host.forward(x), dtype)
    host.zeroGradParameters()
    on_device.zeroGradParameters()
    for t in reversed(range(T - 4, T)):          # rho = 4: truncated BPTT on both sides
        _close(on_device.backward(dev.to_device(xs[t]), dev.to_device(gs[t])), host.backward(xs[t], gs[t]), dtype)
    _close(on_device.getGradHiddenState(T - 4)[1], host.getGradHiddenState(T - 4)[1], dtype)
    for g_d, g in zip(on_device.parameters()[1], host.parameters()[1]):
        _close(g_d, g, dtype)
    host.updateParameters(0.1)
    on_device.updateParameters(0.1)
    back = on_device.type(dtype)
    for p_back, p in zip(back.parameters()[0], host.parameters()[0]):
        assert isinstance(p_back, np.ndarray)
        _close(p_back, p, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fast_lstm_start_state_and_evaluation_on_device(device, dtype):
    dev = device_named(device)
    nn.manualSeed(2)
    host = nn.FastLSTM(D, H).type(dtype)
    on_device = host.clone().cuda(dev)
    rng = np.random.default_rng(3)
    h0, c0 = (rng.uniform(-1, 1, (N, H)).astype(dtype) for _ in range(2))
    host.setStartState([h0, c0])
    on_device.setStartState([dev.to_device(h0), dev.to_device(c0)])
    host.evaluate()
    on_device.evaluate()
    for x in rng.uniform(-1, 1, (T, N, D)).astype(dtype):
        _close(on_device.forward(dev.to_device(x)), host.forward(x), dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_lstm_cell_fused_on_device(device, dtype, bias):
    dev = device_named(device)
    nn.manualSeed(4)
    host = nn.LSTMCellFused(H, bias=bias).type(dtype)
    on_device = host.clone().cuda(dev)
    rng = np.random.default_rng(5)
    x = [rng.uniform(-1, 1, s).astype(dtype) for s in ((N, 4 * H), (N, 4 * H), (N, H))]
    g = [rng.uniform(-1, 1, (N, H)).astype(dtype) for _ in range(2)]
    y, y_d = host.forward(x), on_device.forward([dev.to_device(a) for a in x])
    for a_d, a in zip(y_d, y):
        _close(a_d, a, dtype)
    host.zeroGradParameters()
    on_device.zeroGradParameters()
    gi = host.backward(x, g)
    gi_d = on_device.backward([dev.to_device(a) for a in x], [dev.to_device(a) for a in g])
    for a_d, a in zip(gi_d, gi):
        _close(a_d, a, dtype)
    for g_d, g_h in zip(on_device.parameters()[1], host.parameters()[1]):
        _close(g_d, g_h, dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_fast_lstm_step_on_device(device):
    dev = device_named(device)
    nn.manualSeed(6)
    host = nn.FastLSTMStep(D, H)
    on_device = host.clone().cuda(dev)
    rng = np.random.default_rng(7)
    x = [rng.uniform(-1, 1, s) for s in ((N, D), (N, H), (N, H))]
    g = [rng.uniform(-1, 1, (N, H)) for _ in range(2)]
    for a_d, a in zip(on_device.forward([dev.to_device(a) for a in x]), host.forward(x)):
        _close(a_d, a, np.float64)
    gi = host.backward(x, g)
    for a_d, a in zip(on_device.backward([dev.to_device(a) for a in x], [dev.to_device(a) for a in g]), gi):
        _close(a_d, a, np.float64)
