"""nn_legacy.GPU: a module run on a CUDA device (the emulator here, a GPU when there is one)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn.cuda as cuda
from cuda_devices import DEVICES, device_named, emulator_only
from layer_checks import assert_input_jacobian, assert_parameter_jacobians, raises_exactly, uniform
from t7_writer import T7Object, t7_bytes


def model():
    nn.manualSeed(0)
    return nn.Sequential().add(nn.Linear(5, 4)).add(nn.Tanh()).add(nn.Linear(4, 2))


def test_on_the_host_it_passes_calls_through():
    m = nn.GPU(model(), 1)
    x, g = uniform((3, 5), 1), uniform((3, 2), 2)
    np.testing.assert_array_equal(m.forward(x), model().forward(x))
    assert m.output is m.modules[0].output
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)
    assert m.backward(x, g) is m.modules[0].gradInput


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", DEVICES)
def test_host_arrays_run_on_the_device(name, dtype):
    dev = device_named(name)
    host = model().type(dtype)
    m = nn.GPU(model().type(dtype), 1).cuda(dev)
    assert isinstance(m.modules[0].modules[0].weight, cuda.CudaTensor)
    x, g = uniform((3, 5), 1).astype(dtype), uniform((3, 2), 2).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    y = m.forward(x)                                   # a host input is copied to the device
    assert isinstance(y, cuda.CudaTensor) and y.device is dev
    np.testing.assert_allclose(y.numpy(), host.forward(x), rtol=tol, atol=tol)
    m.zeroGradParameters()
    host.zeroGradParameters()
    gin = m.backward(x, g)                             # gradInput comes back where the input was
    assert isinstance(gin, np.ndarray)
    np.testing.assert_allclose(gin, host.backward(x, g), rtol=tol, atol=tol)
    gin_d = m.backward(dev.to_device(x), dev.to_device(g))
    assert isinstance(gin_d, cuda.CudaTensor)
    back = m.type(dtype)
    for p, q in zip(back.parameters()[1], host.parameters()[1]):
        assert isinstance(p, np.ndarray)
        np.testing.assert_allclose(p, 2 * q, rtol=tol, atol=tol)   # two backward passes
    assert isinstance(back.forward(x), np.ndarray)


def test_device_numbers():
    m = nn.GPU(nn.Tanh(), 2, 3)
    assert (m.device, m.outdevice) == (2, 3) and repr(m) == "nn.GPU(2) @ nn.Tanh"
    assert nn.GPU(nn.Tanh(), 2.0).device == 2
    with raises_exactly(TypeError, "GPU: device must be a device number, got '1'"):
        nn.GPU(nn.Tanh(), "1")


@emulator_only
def test_loads_from_a_torch7_file(tmp_path):
    """Torch7's GPU writes a header {type, device} before its fields."""
    w, b = uniform((2, 5), 1), uniform((2,), 2)
    empty = {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True}
    inner = T7Object("nn.Linear", dict(empty, weight=w, bias=b, gradWeight=w * 0, gradBias=b * 0))
    fields = dict(empty, modules={1: inner}, device=2, outdevice=2, _type="torch.CudaTensor")
    path = tmp_path / "gpu.t7"
    path.write_bytes(t7_bytes(T7Object("nn.GPU", fields, header={1: "torch.CudaTensor", 2: 2})))
    m = nn.load_lua(str(path))
    assert type(m) is nn.GPU and m.device == 2 and m.outdevice == 2
    x = uniform((3, 5), 3)
    np.testing.assert_allclose(m.forward(x), x @ w.T + b, rtol=1e-14)
    m.cuda(cuda.emulator())
    np.testing.assert_allclose(m.forward(x).numpy(), x @ w.T + b, rtol=1e-14)
