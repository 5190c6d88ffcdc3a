"""The skip guard accepts the skips CI expects and no others."""
import pytest

from skip_guard import accepted


@pytest.mark.parametrize("reason", [
    "thnn was built without the nvcc library (cannot import name '_thcunn' from 'thnn')",
    "no CUDA device is present",
    "thnn was built without the CUDA emulator (THNN_EMULATOR=0 skips it; cannot import name '_thcunn_emu' from "
    "'thnn')",
    "this CPU has no AVX-512: the float rows use the C library's exp",
    "could not import 'torch': No module named 'torch'",
    "could not import 'onnxruntime': No module named 'onnxruntime'",
    "could not import 'mpi4py': No module named 'mpi4py'",
    "shared/t7data is not beside the checkout",
    'mpi4py is not installed: pip install -e ".[mpi]" to run the MPI tests',
])
def test_accepted(reason):
    assert accepted(reason)


@pytest.mark.parametrize("reason", [
    "could not import 'hypothesis': No module named 'hypothesis'",       # in the [test] extra: must run
    "could not import 'hypothesis.strategies': No module named 'hypothesis'",
    "could not import 'torchvision': No module named 'torchvision'",
    "not implemented yet",
    "unconditional skip",
])
def test_refused(reason):
    assert not accepted(reason)
