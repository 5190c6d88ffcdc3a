"""The devices the CUDA tests run on: the CPU emulation of CUDA always, the
GPU where this machine has one (skipped otherwise, with thnn.cuda's reason,
which the skip guard accepts).  conftest.py makes a `dev` fixture of them."""
import pytest

import thnn.cuda as cuda

GPU_UNAVAILABLE = cuda.gpu_unavailable_reason()
gpu_only = pytest.mark.skipif(GPU_UNAVAILABLE is not None, reason=str(GPU_UNAVAILABLE))
DEVICES = [pytest.param("emulator", id="emulator"), pytest.param("gpu", id="gpu", marks=gpu_only)]


def device_named(name):
    """The device a DEVICES parameter names."""
    return cuda.emulator() if name == "emulator" else cuda.gpu()
