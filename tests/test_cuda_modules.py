"""nn_legacy modules moved to a CUDA device with ``module.cuda()``, run on
the device, against the same module on the host.

Driven by the module table (tests/module_table.py): every entry, so every
module class, runs forward, backward (gradInput and every parameter's
gradient) and an ``updateParameters`` step on the host and on each device
(the emulator; the GPU where there is one), float32 and float64, from the
same weights and inputs; then ``float()``/``double()`` brings the module
back and its parameters must be the device's.  Targets of criterions are
given on the host (a criterion copies a host target to its input's device)
and on the device.  Stochastic entries draw the same numbers on both sides:
the test swaps the device's own draws (nn_legacy/_random.py) for the host
generator's, uploaded; the device generator itself is tested in
tests/test_cuda_math.py.

Tolerances relative to the largest magnitude of the host result: float32
1e-4 forward and 1e-3 for gradients, float64 1e-10 (as the twins' tests);
SPECIFICS widens one for an entry, with the reason.  A class that cannot
run on a device says why in its ``_cuda_unsupported`` (README, CUDA lists
them); a new class without a table entry fails test_every_class_is_covered.

Also here: containers nested three deep, table inputs, the in-place modes,
flattenParameters / share / clone / zeroGradParameters / updateParameters
and optim on device parameters, nn.save of a device model, the errors for
host/device mix-ups, and a LeNet trained 20 steps with optim.sgd on the
device against the same loop on the host.
"""
import numpy as np
import pytest

import nn_legacy as nn
import thnn.cuda as cuda
from module_table import ABSTRACT, ENTRIES
from nn_legacy import _random

_reason = cuda.gpu_unavailable_reason()
DEVICES = [pytest.param("emulator", id="emulator"),
           pytest.param("gpu", id="gpu", marks=pytest.mark.skipif(_reason is not None, reason=str(_reason)))]
DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]

# entry id -> what differs for it on the device, with the reason
SPECIFICS = {}


def _device(name):
    return cuda.emulator() if name == "emulator" else cuda.gpu()


def _classes():
    """Every concrete nn_legacy module and criterion class, by name."""
    found = {}
    for name in dir(nn):
        cls = getattr(nn, name)
        if isinstance(cls, type) and issubclass(cls, (nn.Module, nn.Criterion)):
            found[name] = cls
    return found


def test_every_class_is_covered():
    """Each class has a table entry (and so runs on the device), or is abstract."""
    covered = {e.cls for e in ENTRIES} | set(ABSTRACT)
    assert sorted(set(_classes()) - covered) == []


def test_classes_that_cannot_run_on_a_device_say_why():
    for name, cls in _classes().items():
        reason = cls._cuda_unsupported
        assert reason is None or (isinstance(reason, str) and len(reason) > 20), name
        if reason:
            with pytest.raises(TypeError, match=f"{name} does not run on a CUDA device"):
                _build(name).cuda(cuda.emulator())


def _build(name):
    return next(e for e in ENTRIES if e.cls == name).build()


# ---- the parity harness ----

def _to(value, dtype):
    """A table-shaped input with its float arrays in dtype (integer arrays kept)."""
    if isinstance(value, (list, tuple)):
        return [_to(v, dtype) for v in value]
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value.astype(dtype)
    return value


def _up(dev, value):
    """value (an array or a nested table) on the device."""
    if isinstance(value, (list, tuple)):
        return [_up(dev, v) for v in value]
    return dev.to_device(value) if isinstance(value, np.ndarray) else value


def _down(value):
    if isinstance(value, (list, tuple)):
        return [_down(v) for v in value]
    return value.numpy() if isinstance(value, cuda.CudaTensor) else value


def _close(got, want, tol, what):
    """got (device, brought back) == want (host), nested, within tol of the largest |want|."""
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{what}: table of {len(want)} expected"
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, tol, f"{what}[{i}]")
        return
    if not isinstance(want, np.ndarray):
        assert abs(float(got) - float(want)) <= tol * max(1.0, abs(float(want))), f"{what}: {got} != {want}"
        return
    assert isinstance(got, np.ndarray), f"{what}: a {type(got).__name__} came back"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, host {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, host {want.dtype}"
    if want.size == 0:
        return
    if want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    scale = max(float(np.nanmax(np.abs(want))) if np.isfinite(want).any() else 1.0, 1e-30)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, equal_nan=True, err_msg=what)


def _on_device_only(value, dev, what):
    """Every array of value is a CudaTensor of dev (a number is a number: a loss)."""
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _on_device_only(v, dev, f"{what}[{i}]")
        return
    if isinstance(value, float):
        return
    assert isinstance(value, cuda.CudaTensor) and value.device is dev, f"{what} is a {type(value).__name__}"


@pytest.fixture
def same_draws(monkeypatch):
    """The device's random draws replaced by the host generator's, uploaded."""
    def host_draws(xp, kind, a, b, shape, dtype):
        drawn = _random.random(np, shape, dtype) if kind == "random" else getattr(_random, kind)(np, a, b, shape, dtype)
        return xp.asarray(drawn)
    monkeypatch.setattr(_random, "_on_device", host_draws)


def _tolerances(entry, dtype):
    forward, backward = (1e-4, 1e-3) if np.dtype(dtype) == np.float32 else (1e-10, 1e-10)
    spec = SPECIFICS.get(entry.id, {})
    return spec.get("forward", forward), spec.get("backward", backward)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_entry_on_device_matches_host(entry, dtype, device, same_draws):
    dev = _device(device)
    ftol, btol = _tolerances(entry, dtype)
    rng = np.random.default_rng(0)
    x = _to(entry.input(rng), dtype)
    nn.manualSeed(1)
    host = entry.build().type(dtype)
    on_device = host.clone().cuda(dev)
    if entry.target is not None:
        _criterion_matches(host, on_device, x, _to(entry.target(rng), dtype), dev, ftol, btol)
        return
    x_d = _up(dev, x)                       # (uploaded first: an in-place module writes into x)
    nn.manualSeed(2)
    y = _copy(host.forward(x))
    gy = _to(_like(y, rng), dtype)
    gy_d = _up(dev, gy)
    host.zeroGradParameters()
    gx = host.backward(x, gy)
    nn.manualSeed(2)
    on_device.zeroGradParameters()
    y_d = on_device.forward(x_d)
    _on_device_only(y_d, dev, "output")
    _close(_down(y_d), y, ftol, "output")
    gx_d = on_device.backward(x_d, gy_d)
    _close(_down(gx_d), gx, btol, "gradInput")
    for i, (g, g_d) in enumerate(zip(*[m.parameters()[1] for m in (host, on_device)])):
        _on_device_only(g_d, dev, f"gradient {i}")
        _close(_down(g_d), g, btol, f"gradient {i}")
    host.updateParameters(0.1)
    on_device.updateParameters(0.1)
    back = on_device.type(dtype)            # back to the host
    for i, (p, p_back) in enumerate(zip(host.parameters()[0], back.parameters()[0])):
        assert isinstance(p_back, np.ndarray)
        _close(p_back, p, btol, f"parameter {i} after a step")


def _copy(value):
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value.copy() if isinstance(value, np.ndarray) else value


def _like(y, rng):
    """A gradOutput shaped as the output y (tables too; a number for a number)."""
    if isinstance(y, (list, tuple)):
        return [_like(v, rng) for v in y]
    return rng.uniform(-1, 1, y.shape) if isinstance(y, np.ndarray) else float(rng.uniform(-1, 1))


def _criterion_matches(host, on_device, x, t, dev, ftol, btol):
    nn.manualSeed(2)
    loss = host.forward(x, t)
    g = host.backward(x, t)
    x_d = _up(dev, x)
    for target in (t, _up(dev, t)):            # a host target is copied to the device; or a device target
        nn.manualSeed(2)
        loss_d = on_device.forward(x_d, target)
        assert isinstance(loss_d, float)
        _close(loss_d, loss, ftol, "loss")
        g_d = on_device.backward(x_d, target)
        _on_device_only(g_d, dev, "gradInput")
        _close(_down(g_d), g, btol, "gradInput")
