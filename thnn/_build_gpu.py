"""cffi module of thnn._thcunn (the CUDA twins compiled by nvcc), listed by
setup.py only when thnn/_build_cuda.py's nvcc_toolchain() found nvcc and
cuBLAS.  Building it runs nvcc (warnings as errors) on thcunn_cu/."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _build_cuda  # noqa: E402

_toolchain = _build_cuda.nvcc_toolchain()
if isinstance(_toolchain, str):
    raise RuntimeError(f"cannot build thnn._thcunn: {_toolchain}")
ffibuilder = _build_cuda.gpu_builder(_toolchain)
