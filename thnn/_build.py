"""cffi (API mode) build of the C kernels in thnn_c/, run by setup.py.

The cdef is parsed from the headers (thnn/_header.py); the header text is
also compiled in, for the binding to read at run time.  The list of layer
files thnn_c/init.c compiles is written from the files first
(build/generated/THNN_layers.h, thnn/_layers.py)."""
import glob
import json
import os
import sys

import cffi
import scipy_openblas32

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "thnn_c")
sys.path.insert(0, HERE)
import _header  # noqa: E402  (a plain module next to this file; the package is not built yet)
import _layers  # noqa: E402


def _read(*parts):
    with open(os.path.join(SRC, *parts), encoding="ascii") as f:
        return f.read()


def _c_string(text):
    # json's escapes are valid C for an ASCII text
    return json.dumps(text)


thnn_h = _read("generic", "THNN.h")
# fails the build early on a malformed declaration, or a layer file that misses a kernel
_layers.write(_layers.CPU, _header.parse(thnn_h))

ffibuilder = cffi.FFI()
ffibuilder.cdef(_header.cdef(_read("THGeneral.h"), _read("generic", "THTensor.h"), thnn_h)
               + "\nuintptr_t THNN_trampoline(int k);\n")

blas_lib = scipy_openblas32.get_lib_dir()
extra_compile_args = ["-O3", "-Wall", "-Wextra", "-Wno-unused-parameter"]
extra_link_args = []
# One OpenMP pool runs the elementwise loops and the matrix products (see
# thnn_c/THBlas.c).  THNN_OPENMP=0 builds without it: serial loops, and
# OpenBLAS threads the products itself.
if sys.platform.startswith("linux") and os.environ.get("THNN_OPENMP", "1") != "0":
    extra_compile_args.append("-fopenmp")
    extra_link_args.append("-fopenmp")
else:
    extra_compile_args.append("-Wno-unknown-pragmas")
extra_compile_args += os.environ.get("THNN_CFLAGS", "").split()
extra_link_args += os.environ.get("THNN_LDFLAGS", "").split()

ffibuilder.set_source(
    "thnn._thnn",
    '#include "THNN.h"\n'
    f"static const char THNN_HEADER_TEXT[] = {_c_string(thnn_h)};\n"
    "const char *THNN_headerText(void) { return THNN_HEADER_TEXT; }\n"
    # one call signature for every kernel, for the binding's C caller (thnn/_call.c)
    + _header.trampolines(thnn_h),
    # the layers in parts compiled side by side (thnn/_layers.py), in place of init.c
    sources=_layers.cpu_sources(_header.parse(thnn_h)),
    # the generic files are #included, so name them: an edit to one must rebuild
    # (and the generated list: a layer file removed must rebuild too)
    depends=sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(SRC, "**", "*.[ch]"), recursive=True)
                   + [os.path.join(_layers.GENERATED, _layers.CPU[3])]),
    include_dirs=[SRC, _layers.GENERATED, scipy_openblas32.get_include_dir()],
    library_dirs=[blas_lib],
    libraries=[scipy_openblas32.get_library(), "m"],
    runtime_library_dirs=["$ORIGIN/../scipy_openblas32/lib", blas_lib],
    extra_compile_args=extra_compile_args,
    extra_link_args=extra_link_args,
)

if __name__ == "__main__":
    ffibuilder.compile(tmpdir=os.path.join(ROOT, "build", "cffi"), verbose=True)
