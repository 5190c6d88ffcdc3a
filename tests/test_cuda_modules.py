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
}


def _ready_classes():
    found = set()
    for name in dir(nn):
        cls = getattr(nn, name)
        if isinstance(cls, type) and issubclass(cls, (nn.Module, nn.Criterion)) and cls.__dict__.get("_cuda_ready"):
            found.add(cls.__name__)
    return found


def test_every_cuda_ready_class_is_tested():
    assert _ready_classes() - set(MODULES) == set()


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
        loss_d = on_device.forward(dev.to_device(x), dev.to_device(t) if isinstance(t, np.ndarray) else t)
        assert abs(loss_d - loss) <= tol * max(1.0, abs(loss))
        np.testing.assert_allclose(on_device.backward(dev.to_device(x), dev.to_device(t)).numpy(), g,
                                   rtol=tol, atol=tol * np.abs(g).max())
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
