"""cffi (API mode) builds of the CUDA twins in thcunn_cu/, run by setup.py.

Two extensions from the same sources:

- ``thnn._thcunn_emu``, always: the .cu files compiled by the C++ compiler
  over thcunn_cu/THCEmu.h, which runs the kernels on the CPU block by block.
  The CUDA tests compare it with the CPU kernels on every machine.
- ``thnn._thcunn``, when nvcc and cuBLAS are found (``nvcc_toolchain``;
  thnn/_build_gpu.py is its cffi module): the same files compiled by nvcc for sm_80 and sm_90 plus
  PTX, linked against the CUDA runtime and cuBLAS.  Without them it is
  skipped with a message; the CPU package never needs it.

Both contain the CPU library too (thnn_c/*.c): a CUDA tensor is thnn_c's
tensor struct with device memory, and the twins call the CPU layers' shape
checks, so both sides refuse the same shapes with the same messages.

Which layers have a twin is which thcunn_cu/generic/<Layer>.cu files exist:
the build writes their list (build/generated/THCUNN_layers.h, which init.cu
includes, and THNN_layers.h for the CPU side; thnn/_layers.py) and compiles
its text in, for the binding to read."""
import glob
import json
import os
import shutil
import subprocess
import sys

import cffi
import scipy_openblas32

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "thnn_c")
CUSRC = os.path.join(ROOT, "thcunn_cu")
sys.path.insert(0, HERE)
import _header  # noqa: E402
import _layers  # noqa: E402

NVCC_ARCHS = ["-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90",
              "-gencode=arch=compute_90,code=compute_90"]


def _read(path):
    with open(path, encoding="ascii") as f:
        return f.read()


def _rel(paths):
    return sorted(os.path.relpath(p, ROOT) for p in paths)


thnn_h = _read(os.path.join(SRC, "generic", "THNN.h"))
_functions = _header.parse(thnn_h)
_layers.write(_layers.CPU, _functions)         # the twins' libraries hold the CPU kernels too
layers_h = _layers.write(_layers.CUDA, _functions)
math_h = _read(os.path.join(CUSRC, "generic", "THCTensorMath.h"))
_header.parse(math_h, _header.MATH_PREFIX, _header.MATH_SOURCE)  # fail early on a malformed declaration
CDEF = _header.cuda_cdef(_read(os.path.join(SRC, "THGeneral.h")), _read(os.path.join(SRC, "generic", "THTensor.h")),
                         _read(os.path.join(CUSRC, "generic", "THCTensor.h")), thnn_h, layers_h,
                         _read(os.path.join(CUSRC, "THCTensorMath.h")), math_h)
# the headers the binding reads at run time, compiled into the library
HEADER_TEXTS = (
    f"static const char THNN_HEADER_TEXT[] = {json.dumps(thnn_h)};\n"
    f"static const char THCUNN_LAYERS_TEXT[] = {json.dumps(layers_h)};\n"
    f"static const char THC_MATH_TEXT[] = {json.dumps(math_h)};\n"
)
MODULE_SOURCE = (
    '#include "THC.h"\n#include "THCTensorMath.h"\n' + HEADER_TEXTS +
    'extern "C" const char *THNN_headerText(void) { return THNN_HEADER_TEXT; }\n'
    'extern "C" const char *THCUNN_layersText(void) { return THCUNN_LAYERS_TEXT; }\n'
    'extern "C" const char *THCTensorMath_headerText(void) { return THC_MATH_TEXT; }\n'
)
CU_FILES = ["THCGeneral.cu", "THCSelfTest.cu", "init.cu"]   # the CUDA translation unit, in this order
CPU_SOURCES = _layers.cpu_sources(_functions)
CUDA_PARTS = _layers.write_parts(_layers.CUDA, _functions)   # the emulator's twins, side by side


def write_base(directory=_layers.GENERATED):
    """Writes the emulator's base unit (CU_FILES without the twins: the
    device tensor, cuBLAS and the tensor math) and returns its path, relative
    to the repository.  It is a unit of its own, not a part of the cffi
    module's source: the module's wrapper (about 680 functions of argument
    conversion) and the base then compile side by side, each at its own
    optimisation level (thnn/_build_ext.py, LOWER_OPTIMISATION)."""
    path = os.path.join(directory, "THCUNN_base.cpp")
    _layers.write_text(path, "/* THCUNN_base.cpp: written by the build (thnn/_build_cuda.py); do not edit.\n"
                             " * The CUDA emulator's helpers, without the twins (their parts: THCUNN_part<k>.cpp). */\n"
                             "#define THCUNN_BASE_ONLY\n" + "".join(f'#include "{f}"\n' for f in CU_FILES))
    return os.path.relpath(path, ROOT)


EMULATOR_BASE = write_base()
DEPENDS = _rel(glob.glob(os.path.join(SRC, "**", "*.[ch]"), recursive=True)
               + glob.glob(os.path.join(CUSRC, "**", "*.*"), recursive=True)
               + [os.path.join(_layers.GENERATED, kind[3]) for kind in (_layers.CPU, _layers.CUDA)])
BLAS = dict(include_dirs=[SRC, CUSRC, _layers.GENERATED, scipy_openblas32.get_include_dir()],
            library_dirs=[scipy_openblas32.get_lib_dir()],
            runtime_library_dirs=["$ORIGIN/../scipy_openblas32/lib", scipy_openblas32.get_lib_dir()])


def _flags():
    compile_args = ["-O3", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-unused-function"]
    link_args = []
    if sys.platform.startswith("linux") and os.environ.get("THNN_OPENMP", "1") != "0":
        compile_args.append("-fopenmp")
        link_args.append("-fopenmp")
    else:
        compile_args.append("-Wno-unknown-pragmas")
    return (compile_args + os.environ.get("THNN_CFLAGS", "").split(),
            link_args + os.environ.get("THNN_LDFLAGS", "").split())


def emulation_builder():
    """thnn._thcunn_emu: the twins on the CPU (C++ over THCEmu.h).  setup.py
    names this function, not an FFI made when the module is imported: cffi
    runs the function when it builds, and setup.py's own import of this
    module (for nvcc_toolchain) then parses no cdef (about 1 s)."""
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    compile_args, link_args = _flags()
    ffi.set_source(
        "thnn._thcunn_emu",
        # the helpers are in the base unit and the twins in the parts: this one has the wrapper
        MODULE_SOURCE,
        source_extension=".cpp",
        sources=CPU_SOURCES + _rel([os.path.join(CUSRC, "THCEmu.cpp")]) + [EMULATOR_BASE] + CUDA_PARTS,
        depends=DEPENDS,
        libraries=[scipy_openblas32.get_library(), "m"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        language="c++",
        **BLAS,
    )
    return ffi


def nvcc_toolchain():
    """(nvcc, CUDA include dir, CUDA lib dir, cuBLAS include dir, cuBLAS lib dir),
    or a string saying what is missing.  cuBLAS is looked for in the CUDA
    toolkit, then in $THNN_CUBLAS_HOME, then in the `nvidia-cublas` wheel."""
    if os.environ.get("THNN_CUDA", "1") == "0":
        return "THNN_CUDA=0"
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return "nvcc not found"
    homes = [os.environ.get("CUDA_HOME", ""), os.environ.get("CUDA_PATH", ""),
             os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "/usr/local/cuda"]
    cuda_home = next((h for h in homes if h and os.path.exists(os.path.join(h, "include", "cuda_runtime.h"))
                      and os.path.exists(os.path.join(h, "lib64", "libcudart_static.a"))), None)
    if not cuda_home:
        return "the CUDA runtime (include/cuda_runtime.h, lib64/libcudart_static.a) was not found; set CUDA_HOME"
    candidates = [cuda_home, os.environ.get("THNN_CUBLAS_HOME", "")]
    try:
        import nvidia
        candidates += [os.path.join(p, "cu13") for p in nvidia.__path__]
    except ImportError:
        pass
    for home in candidates:
        if home and os.path.exists(os.path.join(home, "include", "cublas_v2.h")):
            lib = next((os.path.join(home, d) for d in ("lib64", "lib")
                        if glob.glob(os.path.join(home, d, "libcublas.so*"))), None)
            if lib:
                return nvcc, os.path.join(cuda_home, "include"), os.path.join(cuda_home, "lib64"), \
                    os.path.join(home, "include"), lib
    return "the cuBLAS headers and library were not found (install a CUDA toolkit with cuBLAS, or " \
           "`pip install nvidia-cublas`, or set THNN_CUBLAS_HOME)"


def nvcc_compile(toolchain, output):
    """Compile every .cu file (one translation unit) with nvcc, warnings as errors."""
    nvcc, cuda_inc, _, cublas_inc, _ = toolchain
    unit = os.path.join(ROOT, "build", "nvcc", "thcunn_all.cu")
    os.makedirs(os.path.dirname(unit), exist_ok=True)
    with open(unit, "w", encoding="ascii") as f:
        f.write("".join(f'#include "{name}"\n' for name in CU_FILES))
    # (--threads 0: the three targets of NVCC_ARCHS compile side by side)
    command = [nvcc, "-c", "-std=c++17", "-O3", "--threads", "0", "-Xcompiler", "-fPIC", "-Werror", "all-warnings",
               *NVCC_ARCHS, "-I", CUSRC, "-I", SRC, "-I", _layers.GENERATED, "-I", cuda_inc, "-I", cublas_inc,
               "-I", scipy_openblas32.get_include_dir(), "-o", output, unit]
    print(" ".join(command))
    subprocess.run(command, check=True)


def gpu_builder(toolchain, absolute_paths=False):
    """thnn._thcunn: the twins compiled by nvcc, for a real GPU.  Paths are
    relative to the repository for setup.py; absolute for ffi.compile, which
    builds from inside its tmpdir."""
    place = (lambda paths: [os.path.join(ROOT, p) for p in paths]) if absolute_paths else (lambda paths: paths)
    _, _, cuda_lib, _, cublas_lib = toolchain
    obj = os.path.join(ROOT, "build", "nvcc", "thcunn_all.o")
    nvcc_compile(toolchain, obj)
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    compile_args, link_args = _flags()
    cublas = next(os.path.basename(p) for p in sorted(glob.glob(os.path.join(cublas_lib, "libcublas.so*"))))
    ffi.set_source(
        "thnn._thcunn",
        # the twins are in the nvcc object; this module only declares them (the cdef is C,
        # where the twins' bool arguments need stdbool.h)
        "#include <stdbool.h>\n" + CDEF.replace("int THCDeviceCount", "extern int THCDeviceCount") + "\n"
        + HEADER_TEXTS +
        "const char *THNN_headerText(void) { return THNN_HEADER_TEXT; }\n"
        "const char *THCUNN_layersText(void) { return THCUNN_LAYERS_TEXT; }\n"
        "const char *THCTensorMath_headerText(void) { return THC_MATH_TEXT; }\n",
        sources=place(CPU_SOURCES),
        depends=place(DEPENDS),
        extra_objects=[obj],
        libraries=[scipy_openblas32.get_library(), "m", "stdc++"],
        extra_compile_args=compile_args,
        extra_link_args=link_args + [os.path.join(cuda_lib, "libcudart_static.a"), "-ldl", "-lrt", "-lpthread",
                                     f"-L{cublas_lib}", f"-l:{cublas}", f"-Wl,-rpath,{cublas_lib}"],
        **BLAS,
    )
    return ffi



if __name__ == "__main__":
    # python thnn/_build_cuda.py [--gpu]: build in place (the GPU library with --gpu)
    tmp = os.path.join(ROOT, "build", "cffi")
    if "--gpu" in sys.argv:
        toolchain = nvcc_toolchain()
        if isinstance(toolchain, str):
            sys.exit(f"cannot build thnn._thcunn: {toolchain}")
        gpu_builder(toolchain, absolute_paths=True).compile(tmpdir=tmp, verbose=True)
    else:
        emulation_builder().compile(tmpdir=tmp, verbose=True)
