"""The devices the CUDA tests run on, in one place.

Each test of a twin or of a module on the device runs once per device:

    @pytest.mark.parametrize("device", DEVICES)      # or a fixture: params=DEVICES
    def test_x(device):
        dev = device_of(device)                      # thnn.cuda.emulator() or thnn.cuda.gpu()

- "emulator": the CPU emulation (thnn._thcunn_emu), marked ``emulator``;
  skipped, with the reason, in a build made without it (THNN_EMULATOR=0: the
  GPU machine's build of tools/gpu_check.sh).
- "gpu": the nvcc build on a real GPU (thnn._thcunn), marked ``gpu``;
  skipped, with the reason, where there is none (this machine, CI).

``pytest -m gpu`` selects every GPU variant, and nothing else: that is the
test run of tools/gpu_check.sh.  A test that runs only on a GPU takes
``@gpu_only``; one that runs on whichever device the machine has
(``thnn.cuda.default()``) is marked ``gpu`` too, so the GPU run includes it.
Both reasons are accepted by tests/skip_guard.py.
"""
import pytest

import thnn.cuda as cuda

GPU_REASON = cuda.gpu_unavailable_reason()
EMULATOR_REASON = cuda.emulator_unavailable_reason()

_on_gpu = [pytest.mark.gpu, pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))]
_on_emulator = [pytest.mark.emulator, pytest.mark.skipif(EMULATOR_REASON is not None, reason=str(EMULATOR_REASON))]

DEVICES = [pytest.param("emulator", id="emulator", marks=_on_emulator),
           pytest.param("gpu", id="gpu", marks=_on_gpu)]


def device_of(name):
    """The thnn.cuda device of a DEVICES value."""
    return cuda.emulator() if name == "emulator" else cuda.gpu()


def gpu_only(test):
    """A test that needs a real GPU (marked gpu, skipped without one)."""
    for mark in _on_gpu:
        test = mark(test)
    return test


def any_device():
    """A device whose header-derived lists (layers, functions, math functions,
    the library's constants) tests enumerate at import time: the emulator,
    or the GPU in a build without it.  Both libraries are built from the same
    headers, so the lists are the same."""
    return cuda.emulator() if EMULATOR_REASON is None else cuda.gpu()
