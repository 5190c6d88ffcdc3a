"""The devices the CUDA tests run on, in one place; conftest.py makes a `dev`
fixture of them.

- "emulator": the CPU emulation of CUDA (thnn._thcunn_emu), marked
  ``emulator``; skipped, with the reason, in a build made without it
  (THNN_EMULATOR=0: the GPU machine's build of tools/gpu_check.sh).
- "gpu": the nvcc build on a real GPU (thnn._thcunn), marked ``gpu``;
  skipped, with thnn.cuda's reason, where there is none (this machine, CI).

``pytest -m gpu`` selects every GPU variant and nothing else: that is the
test run of tools/gpu_check.sh.  A test that runs only on a GPU takes
``@gpu_only``; one that runs on whichever device the machine has
(``thnn.cuda.default()``) is marked ``gpu`` too, so the GPU run includes it.
The skip guard (tests/skip_guard.py) accepts both reasons.
"""
import pytest

import thnn.cuda as cuda

GPU_UNAVAILABLE = cuda.gpu_unavailable_reason()
EMULATOR_UNAVAILABLE = cuda.emulator_unavailable_reason()

_ON_GPU = (pytest.mark.gpu, pytest.mark.skipif(GPU_UNAVAILABLE is not None, reason=str(GPU_UNAVAILABLE)))
_ON_EMULATOR = (pytest.mark.emulator,
                pytest.mark.skipif(EMULATOR_UNAVAILABLE is not None, reason=str(EMULATOR_UNAVAILABLE)))
DEVICES = [pytest.param("emulator", id="emulator", marks=_ON_EMULATOR),
           pytest.param("gpu", id="gpu", marks=_ON_GPU)]


def gpu_only(test):
    """A test that needs a real GPU (marked gpu, skipped without one)."""
    for mark in _ON_GPU:
        test = mark(test)
    return test


def emulator_only(test):
    """A test that runs on the emulator by name (or on whichever device
    .cuda() picks, which is the emulator where there is no GPU): marked
    emulator, skipped with the reason in a build without it (the binary wheel
    of tools/wheel_check.sh)."""
    for mark in _ON_EMULATOR:
        test = mark(test)
    return test


def a_device(test):
    """A test that runs on whichever device .cuda() picks (the GPU where there
    is one, else the emulator): skipped, with the reason, in a build with
    neither (the binary wheel on a machine without a GPU); marked emulator
    where that is the device it gets (no GPU), as the emulator's variants are."""
    if GPU_UNAVAILABLE is not None:
        test = pytest.mark.emulator(test)
    return pytest.mark.skipif(EMULATOR_UNAVAILABLE is not None and GPU_UNAVAILABLE is not None,
                              reason=str(EMULATOR_UNAVAILABLE))(test)


def device_named(name):
    """The device a DEVICES parameter names."""
    return cuda.emulator() if name == "emulator" else cuda.gpu()


def any_device():
    """A device whose header-derived lists (layers, functions, math functions,
    the library's constants) tests enumerate at import time: the emulator,
    or the GPU in a build without it.  Both libraries are built from the same
    headers, so the lists are the same.  In a build with neither (the
    binary wheel), the calling test module is skipped, with the reason."""
    if EMULATOR_UNAVAILABLE is not None and GPU_UNAVAILABLE is not None:
        pytest.skip(str(EMULATOR_UNAVAILABLE), allow_module_level=True)
    return cuda.emulator() if EMULATOR_UNAVAILABLE is None else cuda.gpu()
