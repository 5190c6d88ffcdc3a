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
the test swaps the device's own draws (nn_legacy/_helpers/random.py) for the host
generator's, uploaded; the device generator itself is tested in
tests/test_cuda_math.py.

Tolerances relative to the largest magnitude of the host result: float32
1e-4 forward and 1e-3 for gradients, float64 1e-10 (as the twins' tests);
SPECIFICS widens one for an entry, with the reason.  A class that cannot
run on a device says why in its ``_cuda_unsupported`` (docs/guides/cuda.md lists
them) and its entries are in EXCLUDED with the reason; a new class without
a table entry fails test_every_class_is_covered.

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
from cuda_devices import DEVICES, device_named, emulator_only
from module_table import ABSTRACT, ENTRIES
from nn_legacy._helpers import random as _random

DTYPES = [pytest.param(np.float32, id="float32"), pytest.param(np.float64, id="float64")]

# entry id -> what differs for it on the device ({"forward": tol, "backward": tol}), with the reason
SPECIFICS = {}
# entry id -> why it does not run on the device (its class's _cuda_unsupported says so too)
EXCLUDED = {}


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


def test_every_entry_is_run_or_excluded_with_a_reason():
    ids = {e.id for e in ENTRIES}
    assert (set(SPECIFICS) | set(EXCLUDED)) <= ids, "SPECIFICS or EXCLUDED name no table entry"
    for entry_id, reason in EXCLUDED.items():
        assert isinstance(reason, str) and len(reason) > 20, entry_id
        cls = getattr(nn, next(e.cls for e in ENTRIES if e.id == entry_id))
        assert cls._cuda_unsupported, f"{entry_id} is excluded but its class claims to run on a device"


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
    if entry.id in EXCLUDED:
        pytest.skip(EXCLUDED[entry.id])
    dev = device_named(device)
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


# (entry.params lists an entry's parameters; test_module_table checks it against parameters())
WITH_PARAMETERS = [e for e in ENTRIES if e.params]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("entry", WITH_PARAMETERS, ids=[e.id for e in WITH_PARAMETERS])
def test_reset_on_device_matches_host(entry, device):
    """reset() of a module on the device draws what it draws on the host."""
    dev = device_named(device)
    host = entry.build()
    assert isinstance(host, nn.Module) and host.parameters()[0]
    on_device = host.clone().cuda(dev)
    for m in (host, on_device):
        nn.manualSeed(5)
        m.reset()
    for i, (p, p_d) in enumerate(zip(host.parameters()[0], on_device.parameters()[0])):
        _on_device_only(p_d, dev, f"parameter {i}")
        np.testing.assert_array_equal(p_d.numpy(), p, err_msg=f"parameter {i}")


# ---- containers, parameters, optim, saving ----

def _nested():
    """Containers three deep, a table in the middle."""
    branch = nn.ConcatTable().add(nn.Sequential().add(nn.Linear(6, 4)).add(nn.Tanh())) \
        .add(nn.Sequential().add(nn.Linear(6, 4)).add(nn.Sigmoid()).add(nn.MulConstant(2, inplace=True)))
    return nn.Sequential().add(nn.Linear(5, 6)).add(branch).add(nn.CAddTable()).add(nn.Dropout(0.25)) \
        .add(nn.Linear(4, 3)).add(nn.LogSoftMax())


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nested_containers_on_device(device, dtype, same_draws):
    dev = device_named(device)
    entry = type("E", (), {"id": "nested", "build": staticmethod(_nested), "target": None,
                           "input": staticmethod(lambda r: r.uniform(-2, 2, (7, 5)))})
    test_entry_on_device_matches_host(entry, dtype, device, None)
    model = _nested().cuda(dev)
    assert all(isinstance(p, cuda.CudaTensor) and p.device is dev for p in model.parameters()[0])
    assert model.modules[1].modules[0].modules[0].weight.device is dev   # three deep


def _opfunc(model, criterion, x, t, grads):
    def f(_):
        grads.fill(0)   # (grads: the flat gradient, which the model's gradients view)
        loss = criterion.forward(model.forward(x), t)
        model.backward(x, criterion.backward(model.output, t))
        return loss, grads
    return f


@pytest.mark.parametrize("device", DEVICES)
def test_flat_parameters_share_clone_on_device(device):
    dev = device_named(device)
    model = nn.Sequential().add(nn.Linear(4, 3)).add(nn.Tanh()).add(nn.Linear(3, 2)).cuda(dev)
    flat, grads = model.flattenParameters()
    assert isinstance(flat, cuda.CudaTensor) and flat.shape == (4 * 3 + 3 + 3 * 2 + 2,)
    assert all(p.shares_memory(flat) for p in model.parameters()[0])
    assert all(g.shares_memory(grads) for g in model.parameters()[1])
    again, _ = model.flattenParameters()                    # the same memory again
    assert again.shares_memory(flat) and again.offset == flat.offset
    flat.fill(0.5)                                          # the flat array is the parameters
    assert (model.modules[2].bias.numpy() == 0.5).all()
    model.zeroGradParameters()
    assert not grads.numpy().any()
    x = dev.to_device(np.ones((2, 4)))
    model.backward(x, model.forward(x) * 0 + 1)
    step = grads.numpy().copy()
    model.updateParameters(0.1)
    np.testing.assert_allclose(flat.numpy(), 0.5 - 0.1 * step, rtol=1e-14)
    # share and clone
    twin = nn.Linear(4, 3).cuda(dev).share(model.modules[0], "weight", "bias")
    assert twin.weight is model.modules[0].weight
    copy = model.clone()
    assert not copy.modules[0].weight.shares_memory(flat)
    np.testing.assert_array_equal(copy.modules[0].weight.numpy(), model.modules[0].weight.numpy())
    tied = model.clone("weight", "bias")
    assert tied.modules[0].weight is model.modules[0].weight
    with pytest.raises(TypeError, match="must be an array in both modules"):
        nn.Linear(4, 3).share(object.__new__(nn.Linear), "weight")


OPTIMS = {"sgd": {"learningRate": 0.05, "momentum": 0.9, "weightDecay": 1e-3}, "adam": {"learningRate": 0.01},
          "adagrad": {"learningRate": 0.1}, "adadelta": {}, "adamax": {"learningRate": 0.01},
          "rmsprop": {"learningRate": 0.01}, "nag": {"learningRate": 0.05, "momentum": 0.5},
          "asgd": {"eta0": 0.05}, "rprop": {}, "cg": {"maxIter": 3}, "lbfgs": {"maxIter": 3}}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("method", sorted(OPTIMS))
def test_optim_on_device_parameters(method, device):
    """Every nn_legacy.optim method steps the flat device parameters as it
    steps the host's (state arrays made on the device)."""
    dev = device_named(device)
    rng = np.random.default_rng(9)
    nn.manualSeed(1)
    host = nn.Sequential().add(nn.Linear(5, 4)).add(nn.Tanh()).add(nn.Linear(4, 3)).add(nn.LogSoftMax())
    on_device = host.clone().cuda(dev)
    x, t = rng.uniform(-1, 1, (6, 5)), rng.integers(0, 3, 6)
    runs = []
    for model, xx in ((host, x), (on_device, dev.to_device(x))):
        flat, grads = model.flattenParameters()
        f, state = _opfunc(model, nn.ClassNLLCriterion(), xx, t, grads), {}
        for _ in range(4):
            getattr(nn.optim, method)(f, flat, dict(OPTIMS[method]), state)
        runs.append((flat, state))
    (flat, state), (flat_d, state_d) = runs
    assert isinstance(flat_d, cuda.CudaTensor)
    np.testing.assert_allclose(flat_d.numpy(), flat, rtol=1e-9, atol=1e-12)
    for key, value in state.items():
        if isinstance(value, np.ndarray) and value.shape == flat.shape:
            assert isinstance(state_d[key], cuda.CudaTensor) and state_d[key].device is dev, key


def _lenet():
    return (nn.Sequential().add(nn.SpatialConvolution(1, 6, 5, 5)).add(nn.ReLU())
            .add(nn.SpatialMaxPooling(2, 2, 2, 2)).add(nn.SpatialConvolution(6, 16, 5, 5)).add(nn.ReLU())
            .add(nn.SpatialMaxPooling(2, 2, 2, 2)).add(nn.View(16 * 4 * 4)).add(nn.Linear(16 * 4 * 4, 120))
            .add(nn.ReLU()).add(nn.Linear(120, 84)).add(nn.ReLU()).add(nn.Linear(84, 10)).add(nn.LogSoftMax()))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_lenet_trains_on_device_as_on_host(device, dtype):
    """20 steps of optim.sgd (momentum) on LeNet-5, the flat parameters on
    the device, end where the same loop on the host ends."""
    dev = device_named(device)
    rng = np.random.default_rng(11)
    nn.manualSeed(3)
    host = _lenet().type(dtype)
    on_device = host.clone().cuda(dev)
    batches = [(rng.uniform(0, 1, (8, 1, 28, 28)).astype(dtype), rng.integers(0, 10, 8)) for _ in range(4)]
    config = {"learningRate": 0.05, "momentum": 0.9}
    ends, losses = [], []
    for model, up in ((host, lambda a: a), (on_device, dev.to_device)):
        flat, grads = model.flattenParameters()
        criterion, state, curve = nn.ClassNLLCriterion().type(dtype), {}, []
        for step in range(20):
            x, t = batches[step % len(batches)]
            f = _opfunc(model, criterion, up(x), t, grads)
            curve.append(nn.optim.sgd(f, flat, dict(config), state)[1][0])
        ends.append(flat.numpy() if isinstance(flat, cuda.CudaTensor) else flat)
        losses.append(curve)
    tol = 1e-3 if np.dtype(dtype) == np.float32 else 1e-9
    assert losses[0][-1] < losses[0][0]                       # (it learns)
    np.testing.assert_allclose(losses[1], losses[0], rtol=tol)
    np.testing.assert_allclose(ends[1], ends[0], rtol=tol, atol=tol * np.abs(ends[0]).max())


@pytest.mark.parametrize("device", DEVICES)
def test_save_a_device_model(device, tmp_path):
    """nn.save writes host arrays and says so; load gives a host model that
    .cuda() places on the device again."""
    dev = device_named(device)
    model = _lenet().cuda(dev)
    model.flattenParameters()
    x = dev.to_device(np.random.default_rng(2).uniform(0, 1, (2, 1, 28, 28)))
    y = model.forward(x).numpy()
    with pytest.warns(UserWarning, match="CUDA tensors of the saved value were written as host arrays"):
        nn.save(model, tmp_path / "lenet.nn")
    back = nn.load(tmp_path / "lenet.nn")
    assert all(isinstance(p, np.ndarray) for p in back.parameters()[0])
    assert back.modules[0].weight.base is back.modules[-2].bias.base     # (still views of one flat array)
    np.testing.assert_allclose(back.forward(x.numpy()), y, rtol=1e-12)
    np.testing.assert_allclose(back.cuda(dev).forward(x).numpy(), y, rtol=1e-12)


# ---- host/device mix-ups ----

@emulator_only
def test_host_and_device_mix_ups_blame_the_argument():
    dev = cuda.emulator()
    x = np.ones((2, 4))
    on_device = nn.Linear(4, 3).cuda(dev)
    with pytest.raises(TypeError, match="Linear: input is a numpy array but the module is on CUDA device "
                                        "'emulator'; use thnn.cuda.to_device"):
        on_device.forward(x)
    with pytest.raises(TypeError, match="Linear: input is on CUDA device 'emulator' but the module is not; "
                                        "call module.cuda"):
        nn.Linear(4, 3).forward(dev.to_device(x))
    with pytest.raises(TypeError, match=r"Sequential \(1\) -> CMul: input is a numpy array but the module is "
                                        r"on CUDA device"):
        nn.Sequential().add(nn.Tanh()).add(nn.CMul(4)).cuda(dev).forward(x)
    y = on_device.forward(dev.to_device(x))
    with pytest.raises(TypeError, match="gradOutput"):
        on_device.backward(dev.to_device(x), np.ones(y.shape))
    with pytest.raises(TypeError, match="a numpy array and CudaTensors"):
        nn.CAddTable().forward([dev.to_device(x), x])
    # a module without parameters runs where its input is
    tanh = nn.Tanh().cuda(dev)
    assert isinstance(tanh.forward(x), np.ndarray)
    assert isinstance(tanh.forward(dev.to_device(x)), cuda.CudaTensor)
