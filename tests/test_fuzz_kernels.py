"""Every kernel of THNN.h, fuzzed (tests/fuzz_kernels.py): each call of a
bounded, seeded run returns or raises a Python exception, and none kills,
hangs or (under `make asan`) corrupts the process.

The budget is THNN_FUZZ_CALLS calls (CALLS by default: about a minute; `make
asan` sets a smaller one), the seed THNN_FUZZ_SEED (random by default, and
printed: a failure names it, and the call to repeat alone).  A long run is
`THNN_FUZZ_CALLS=1000000 python tests/fuzz_kernels.py`.

The CUDA twins get the same calls on each device of tests/cuda_devices.py
(fuzz_kernels.py --device emulator, or gpu where a GPU is lent): a budget
of THNN_FUZZ_DEVICE_CALLS (DEVICE_CALLS by default); the device tensor math
(--device math, gpu-math) a budget of THNN_FUZZ_MATH_CALLS (MATH_CALLS by
default).
"""
import os

import numpy as np
import pytest

import fuzz_kernels as fk
from cuda_devices import DEVICES, device_named

CALLS = 30_000
DEVICE_CALLS = 40_000
MATH_CALLS = 4_000


def _failures(report):
    return "\n\n".join(f"{desc}\n  {what}; repeat it alone with\n  python tests/fuzz_kernels.py --seed "
                       f"{report.seed} --start {i} --show\n  worker stderr (end):\n{err}"
                       for i, what, desc, err in report.failures)


def test_fuzz_every_kernel():
    seed = fk.default_seed()
    calls = max(int(os.environ.get("THNN_FUZZ_CALLS", CALLS)), 2 * len(fk.KERNELS))
    print(f"\nTHNN_FUZZ_SEED={seed} THNN_FUZZ_CALLS={calls}")
    report = fk.run(seed, calls)
    print(report.summary())
    for desc in report.slow:
        print("  given up (slow, not a failure):", desc)
    assert not report.failures, f"seed {seed}:\n{_failures(report)}"
    # every header function made at least one valid and one mutated call
    assert [k for k in fk.KERNELS if not report.valid[k]] == []
    assert [k for k in fk.KERNELS if not report.mutated[k]] == []
    assert sum(report.valid.values()) + sum(report.mutated.values()) == calls
    # (the mix the mutations aim at: some calls pass, many are refused)
    assert report.outcomes["returned"] > calls // 10 and report.outcomes["THNNError"] > calls // 10


def _fuzz_on_a_device(device, names, budget_variable, budget, refused):
    """A bounded run of fuzz_kernels in device mode `device` over the functions
    names: no crash or hang, every function called validly and mutated, and
    many calls both passing and refused (the exception type `refused`)."""
    seed = fk.default_seed()
    calls = max(int(os.environ.get(budget_variable, budget)), 2 * len(names))
    print(f"\nTHNN_FUZZ_SEED={seed} {budget_variable}={calls}")
    report = fk.run(seed, calls, device=device)
    print(report.summary())
    for desc in report.slow:
        print("  given up (slow, not a failure):", desc)
    failures = _failures(report).replace("--show", f"--device {device} --show")
    assert not report.failures, f"seed {seed}, device {device}:\n{failures}"
    assert sorted(fk.kernels(device)) == sorted(names)
    assert [k for k in names if not report.valid[k]] == []
    assert [k for k in names if not report.mutated[k]] == []
    assert sum(report.valid.values()) + sum(report.mutated.values()) == calls
    assert report.outcomes["returned"] > calls // 10 and report.outcomes[refused] > calls // 10


@pytest.mark.parametrize("device", DEVICES)
def test_fuzz_every_cuda_twin(device):
    # the twins' own checks refuse many calls (CudaError, a THNNError), and pass many
    _fuzz_on_a_device("emulator" if device == "emulator" else "gpu", [f.name for f in device_named(device).functions],
                      "THNN_FUZZ_DEVICE_CALLS", DEVICE_CALLS, "CudaError")


@pytest.mark.parametrize("device", DEVICES)
def test_fuzz_the_device_tensor_math(device):
    names = [f.name for f in device_named(device).math_functions]
    assert sorted(fk.MATH_CASES_OF) == sorted(names) and all(fk.MATH_CASES_OF.values())   # a valid call each
    _fuzz_on_a_device("math" if device == "emulator" else "gpu-math", names, "THNN_FUZZ_MATH_CALLS", MATH_CALLS,
                      "CudaError")


def test_device_mode_uploads_views_as_views():
    # the mutations survive the upload: a stride-0 view of 2**31+ elements
    # costs one element, reversed / transposed / overlapping views keep their
    # strides, 0D stays 0D, an array passed twice is one tensor
    import thnn.cuda
    dev = thnn.cuda.emulator()
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    overlapping = np.lib.stride_tricks.as_strided(base, (3, 4), (4, 4))
    for a in (base, base.T, np.flip(base), base[::2, 1::2], overlapping, base[1, 2].reshape(())):
        t = fk._upload(dev, a)
        assert t.shape == a.shape and t.strides == tuple(s // 4 for s in a.strides)
        assert np.array_equal(t.numpy(), a)
    huge = fk._broadcast(base, [2 ** 32 + 3, 4])
    t = fk._upload(dev, huge)
    assert t.shape == huge.shape and t.strides == (0, 0) and t._storage.size == 1
    # (memory spanning more than UPLOAD_CAP elements is not read: the call is skipped)
    far = np.lib.stride_tricks.as_strided(base, (2,), (4 * fk.UPLOAD_CAP,))
    with pytest.raises(fk.TooLarge):
        fk._upload(dev, far)
    assert fk._upload(dev, np.arange(3, dtype=np.int8)).dtype == np.int64
    with pytest.raises(TypeError):
        fk._upload(dev, base.astype(np.float16))
    x, y = fk.upload(dev, [base, base])
    assert x is y
    assert fk.upload(dev, [None, 1.5, [1, 2]]) == [None, 1.5, [1, 2]]


def test_the_kernel_list_is_the_header():
    import thnn
    assert fk.KERNELS == [f.name for f in thnn.FUNCTIONS] and len(set(fk.KERNELS)) == len(fk.KERNELS)


def test_a_call_repeats_from_seed_and_index():
    for i in (0, len(fk.KERNELS) + 5, 12345):
        a, b = fk.build(99, i), fk.build(99, i)
        assert a[:4] == b[:4]
        assert fk.build(99, i, "emulator")[:4] == a[:4]   # (every kernel has a twin: the same call)
        for x, y in zip(a[4], b[4]):
            assert type(x) is type(y)
            if hasattr(x, "shape"):
                assert x.shape == y.shape and x.strides == y.strides and x.dtype == y.dtype


def test_a_dying_worker_is_reported_and_the_run_goes_on(monkeypatch):
    # the harness itself: a worker killed by a signal in call 200 (made to
    # crash on purpose) is a failure naming that call, and the calls after it
    # are still made
    monkeypatch.setenv("THNN_FUZZ_CRASH_AT", "200")
    report = fk.run(3, 260, max_failures=3)
    # (signal 11; under ASan, which reports the SEGV itself, status 1)
    assert [i for i, _, _, _ in report.failures] == [200]
    assert report.failures[0][1] in ("worker died with signal 11", "worker died with status 1")
    assert report.failures[0][2].startswith(f"call 200 (seed 3): {fk.KERNELS[200 % len(fk.KERNELS)]} [")
    assert sum(report.valid.values()) + sum(report.mutated.values()) == 260
