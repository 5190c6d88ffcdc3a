"""Builds thnn._thnn (the CPU kernels), thnn._call (the C path of kernel
calls, thnn/_call.c, and the guard of module verbs, thnn/_guard.c),
thnn._thcunn_emu (the CUDA twins on the CPU emulation) and, when nvcc and
cuBLAS are found, thnn._thcunn (the twins for a real GPU).  THNN_CUDA=0
skips the nvcc build; THNN_EMULATOR=0 skips the emulator (a GPU machine's
build, tools/gpu_check.sh: thnn.cuda.emulator() then says it was skipped).
thnn/_build_ext.py compiles every file side by side (THNN_BUILD_JOBS, or
`build_ext -j N`) and keeps the objects in build/objects/, so that a second
install compiles only what changed."""
import os
import sys

from setuptools import Extension, setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "thnn"))
import _build_ext  # noqa: E402


def metadata_only(argv):
    """True for the commands that only describe the package: pip runs
    setup.py with egg_info or dist_info for the build requirements and the
    metadata, then again to build.  They need no extension, so the cffi
    builders, which parse the C headers (about 1 s each), are not run."""
    describe = {"egg_info", "dist_info"}
    build = {"build", "build_ext", "install", "develop", "bdist_wheel", "editable_wheel", "bdist_egg", "sdist"}
    return bool(describe & set(argv[1:])) and not build & set(argv[1:])


modules = []
if not metadata_only(sys.argv):
    import _build_cuda  # noqa: E402
    modules.append("thnn/_build.py:ffibuilder")
    if os.environ.get("THNN_EMULATOR", "1") == "0":
        print("thnn: not building the CUDA emulator thnn._thcunn_emu: THNN_EMULATOR=0")
    else:
        modules.append("thnn/_build_cuda.py:emulation_builder")
    toolchain = _build_cuda.nvcc_toolchain()
    if isinstance(toolchain, str):
        print(f"thnn: not building the GPU library thnn._thcunn: {toolchain}")
    else:
        modules.append("thnn/_build_gpu.py:ffibuilder")


def call_extension():
    """thnn._call; numpy (for its headers) is imported only for a build."""
    import numpy
    # THNN_CFLAGS / THNN_LDFLAGS (make asan) apply here as in thnn/_build.py
    return Extension("thnn._call", ["thnn/_call.c", "thnn/_guard.c"], include_dirs=["thnn_c", numpy.get_include()],
                     depends=["thnn_c/THGeneral.h", "thnn_c/TH.h", "thnn_c/generic/THTensor.h"],
                     extra_compile_args=["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"]
                     + os.environ.get("THNN_CFLAGS", "").split(),
                     extra_link_args=os.environ.get("THNN_LDFLAGS", "").split())


setup(cffi_modules=modules, ext_modules=[call_extension()] if modules else [],
      cmdclass={"build_ext": _build_ext.build_ext})
