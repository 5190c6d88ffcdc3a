"""Every CUDA twin (thcunn_cu/) against its CPU kernel (thnn_c/).

For each valid call of tests/kernel_cases.py whose layer has a twin, the CPU
kernel runs on the host arrays and the twin on device copies of the same
arrays; then everything either side wrote must agree: the [OUT] and [BUFFER]
results (a buffer carries state from one verb to the next, so both sides
must mean the same by it, except the scratch buffers in SCRATCH) and the
arrays written in place ([INOUT], [INPLACE]).  Tolerances, relative to the
largest magnitude of the CPU result: float32 1e-4 forward and 1e-3 backward,
float64 1e-10.

The batch is large enough that a call spans several blocks (the emulator
caps a grid-stride launch at 3 blocks of 256 threads, so a loop over a few
thousand elements goes around the grid more than once).

Devices: the CPU emulation always; a real GPU when one is present (skipped,
with the reason, when not)."""
import numpy as np
import pytest

from cuda_devices import DEVICES, any_device, device_named
from kernel_cases import CASES, read_only, written

# [BUFFER]s that are only scratch space of one call: their layout is each side's own
SCRATCH = {"finput", "fgradInput", "columns", "ones", "fgradInput_", "buffer_"}
# [BUFFER]s each side lays out its own way: the device keeps no packed weight (its
# SpatialDilatedConvolution_packWeight leaves packed empty; tests/test_freeze.py checks that contract)
OWN_LAYOUT = {"packed"}
BATCH = 40

TWIN_CASES = [c for c in CASES if c.header.layer in any_device().layers]


def _tolerance(case, dtype):
    if np.dtype(dtype) == np.float64:
        return 1e-10
    return 1e-4 if case.header.verb == "updateOutput" else 1e-3


def _upload(device, value):
    return device.to_device(value) if isinstance(value, np.ndarray) else value


def _assert_close(name, got, want, tol):
    assert got.shape == want.shape, f"{name}: shape {got.shape}, CPU {want.shape}"
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    err = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
    assert err <= tol * max(scale, 1e-30), f"{name}: max |twin - cpu| = {err:.3g}, CPU magnitude {scale:.3g}"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("case", TWIN_CASES, ids=[c.id for c in TWIN_CASES])
def test_twin_matches_cpu(case, dtype, device):
    dev = device_named(device)
    kw = case.kwargs(dtype, n=BATCH, seed=1)
    host = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    on_device = {k: _upload(dev, v) for k, v in kw.items()}
    cpu_out = case.results(case.call(dtype, host))
    twin = getattr(dev.backend(dtype), case.function)
    gpu_out = case.results(twin(*[on_device[a.name] for a in case.params]))
    tol = _tolerance(case, dtype)
    for name, want in cpu_out.items():
        if name in SCRATCH or name in OWN_LAYOUT:
            continue
        got = gpu_out[name]
        assert (got is None) == (want is None), f"{name}: twin gave {got!r}, CPU {want!r}"
        if want is not None:
            _assert_close(name, got.numpy(), want, tol)
    for name in written(case, kw):
        _assert_close(name, on_device[name].numpy(), host[name], tol)
    for name in read_only(case, kw):   # what the kernel must only read is untouched on the device
        np.testing.assert_array_equal(on_device[name].numpy(), kw[name], err_msg=f"{name} was written")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", TWIN_CASES, ids=[c.id for c in TWIN_CASES])
def test_twin_takes_non_contiguous_input(case, device):
    """Every tensor argument the kernel reads handed in as a transposed
    (non-contiguous) view gives the same results."""
    dev = device_named(device)
    kw = case.kwargs(np.float64, n=BATCH, seed=2)
    host = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    cpu_out = case.results(case.call(np.float64, host))
    args = {}
    for a in case.params:
        v = kw[a.name]
        if isinstance(v, np.ndarray) and a.name in read_only(case, kw) and v.ndim >= 2:
            # the same values, stored transposed: a view whose strides are not C order
            args[a.name] = dev.to_device(np.ascontiguousarray(v.swapaxes(0, 1))).swapaxes(0, 1)
            assert not args[a.name].is_contiguous() or min(v.shape[:2]) == 1
        else:
            args[a.name] = _upload(dev, v)
    out = case.results(getattr(dev.CudaDouble, case.function)(*[args[a.name] for a in case.params]))
    for name, want in cpu_out.items():
        if name not in SCRATCH and want is not None:
            _assert_close(name, out[name].numpy(), want, 1e-10)


def test_every_twin_has_a_case():
    have = {c.function for c in TWIN_CASES}
    missing = sorted(f.name for f in any_device().functions if f.name not in have)
    assert not missing, f"add a valid call of {missing} to tests/kernel_cases.py"
