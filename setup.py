"""Builds thnn._thnn (the CPU kernels), thnn._thcunn_emu (the CUDA twins on the
CPU emulation) and, when nvcc and cuBLAS are found, thnn._thcunn (the twins
for a real GPU).  THNN_CUDA=0 skips the nvcc build."""
import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "thnn"))
import _build_cuda  # noqa: E402

modules = ["thnn/_build.py:ffibuilder", "thnn/_build_cuda.py:emulation"]
toolchain = _build_cuda.nvcc_toolchain()
if isinstance(toolchain, str):
    print(f"thnn: not building the GPU library thnn._thcunn: {toolchain}")
else:
    modules.append("thnn/_build_gpu.py:ffibuilder")
setup(cffi_modules=modules)
