"""One build serves every x86-64 CPU: the kernels choose their vector code at
run time, never at compile time (docs/install.md; the binary wheel of
tools/wheel_check.sh runs this file against the installed package).

Two mechanisms (thnn_c/THLoop.h, THGeneral.c):

- TH_VECTOR_CLONES (GCC's target_clones): the elementwise loops, the softmax
  rows, the LSTM rows, ... are compiled three times, ``name.default`` (the
  x86-64 baseline), ``name.avx2`` and ``name.avx512f``, and the loader binds
  ``name`` to the widest one the CPU has.  No switch chooses another one, so
  these tests call each clone the CPU can run directly, at its address in
  the loaded library (read from its symbol table with ``nm``), and check that
  they agree with each other, with numpy, and that the kernel a user calls
  gives exactly the clone the CPU should get.
- The hand-written AVX-512 loops (direct convolution, the float exp rows)
  behind ``THUseAVX512()``, which ``thnn.allow_avx512`` switches: tests/
  test_THVector.py and tests/test_SpatialDilatedConvolution.py run both
  settings.

And a static check: no function of the built libraries outside those two
mechanisms holds an AVX instruction, which is what a ``-march=native`` (or
``-mavx2``) in the build flags would cause, making the build crash with an
illegal instruction on an older CPU."""
import ctypes
import re
import shutil
import subprocess

import numpy as np
import pytest

import thnn
import thnn._call
import thnn._thnn

NM, OBJDUMP = shutil.which("nm"), shutil.which("objdump")
needs_binutils = pytest.mark.skipif(NM is None or OBJDUMP is None, reason="nm/objdump (binutils) are not on PATH")


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


FLAGS = cpu_flags()
# the clones, baseline first; the loader's choice is the last the CPU has
CLONES = ["default", "avx2", "avx512f"]
RUNNABLE = ["default"] + [c for c in CLONES[1:] if c in FLAGS]

LIBRARY = thnn._thnn.__file__


def symbols(path):
    """{name: address in the file} of the functions of the library at path."""
    out = subprocess.run([NM, "--defined-only", path], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTi":
            table.setdefault(parts[2], int(parts[0], 16))
    return table


@pytest.fixture(scope="module")
def clone():
    """clone(name, variant, restype, *argtypes): the ctypes function of one
    clone of a vector-cloned static function of the loaded library."""
    table = symbols(LIBRARY)
    lib = ctypes.CDLL(LIBRARY)      # the library thnn loaded (same handle)
    anchor = "THAllowAVX512"
    base = ctypes.cast(getattr(lib, anchor), ctypes.c_void_p).value - table[anchor]

    def get(name, variant, restype, *argtypes):
        address = table.get(f"{name}.{variant}")
        assert address is not None, f"{name}.{variant} is not in {LIBRARY}: the build lost its clones"
        return ctypes.CFUNCTYPE(restype, *argtypes)(base + address)
    return get


def pointer(a):
    return a.ctypes.data_as(ctypes.c_void_p)


# (the formula loop, thnn's kernel, the numpy reference); the loops have one
# signature, void f(real *out, const real *a, const real *b, const real *c, int64_t n, const accreal *arg)
POINTWISE = [("Tanh_forward", "Tanh", np.tanh),
             ("Sigmoid_forward", "Sigmoid", lambda x: 1 / (1 + np.exp(-x))),
             ("Abs_forward", "Abs", np.abs)]
DTYPES = {np.float32: ("Float", "Float", 4e-7), np.float64: ("Double", "Double", 2e-15)}


def run_loop(fn, x):
    out = np.full_like(x, np.nan)
    arg = np.zeros(4, np.float64)
    fn(pointer(out), pointer(x), None, None, x.size, pointer(arg))
    return out


def sample(dtype, n=1000):
    """Values over the whole range of each formula (tails, zero, signs), an
    odd length so that every clone's remainder loop runs too."""
    x = np.random.default_rng(7).normal(0, 4, n).astype(dtype)
    x[:6] = [0, -0.0, 1e-30, -1e-30, 40, -40]
    return x


@needs_binutils
@pytest.mark.parametrize("dtype", DTYPES, ids=["float", "double"])
@pytest.mark.parametrize("loop, kernel, reference", POINTWISE, ids=[p[1] for p in POINTWISE])
def test_every_clone_the_cpu_runs_agrees(clone, loop, kernel, reference, dtype):
    prefix, _, rtol = DTYPES[dtype]
    x = sample(dtype)
    results = {v: run_loop(clone(f"THNN_{prefix}{loop}", v, None, *[ctypes.c_void_p] * 4 + [ctypes.c_int64,
                                                                                             ctypes.c_void_p]), x)
               for v in RUNNABLE}
    expected = reference(x.astype(np.float64))
    for variant, y in results.items():
        assert y.dtype == dtype
        np.testing.assert_allclose(y, expected, rtol=rtol, atol=np.finfo(dtype).tiny,
                                   err_msg=f"{prefix}{loop}.{variant} against numpy")
        np.testing.assert_allclose(y, results["default"], rtol=rtol, atol=np.finfo(dtype).tiny,
                                   err_msg=f"{prefix}{loop}.{variant} against the baseline clone")
    # the kernel a user calls is bound to the widest clone this CPU has
    public = getattr(thnn.backend(np.dtype(dtype)), f"{kernel}_updateOutput")(x, None)
    np.testing.assert_array_equal(public, results[RUNNABLE[-1]],
                                  err_msg=f"{kernel} did not run the {RUNNABLE[-1]} clone")


@needs_binutils
@pytest.mark.parametrize("dtype", DTYPES, ids=["float", "double"])
@pytest.mark.parametrize("row", ["SoftMax_row", "LogSoftMax_row"])
def test_softmax_row_clones_agree(clone, row, dtype):
    """The rows, which also call the exp rows (THVector_(expSum)) and, in
    float, the AVX-512 loops where allowed: every clone under both settings."""
    prefix, _, rtol = DTYPES[dtype]
    x = sample(dtype, 333)
    shifted = x.astype(np.float64) - x.max()
    expected = shifted - np.log(np.exp(shifted).sum())
    if row == "SoftMax_row":
        expected = np.exp(expected)
    for variant in RUNNABLE:
        fn = clone(f"THNN_{prefix}{row}", variant, None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                   ctypes.c_int64)
        for allow in (True, False):
            before = thnn.allow_avx512(allow)
            try:
                out = np.full_like(x, np.nan)
                fn(pointer(x), None, pointer(out), x.size)
            finally:
                thnn.allow_avx512(before)
            np.testing.assert_allclose(out, expected, rtol=50 * rtol, atol=50 * rtol,
                                       err_msg=f"{prefix}{row}.{variant}, allow_avx512({allow})")


AVX = re.compile(r"%[yz]mm\d|%k[1-7]\b|\t(v[a-z0-9]+|kmov[a-z]*|kand[a-z]*|kor[a-z]*)\s")
# Functions that may hold AVX code besides the clones: they run only behind
# THUseAVX512() (thnn_c/THVector.c, generic/unfold.h) or THGemm_floatAvailable() (thnn_c/THGemm.c).
GATED = re.compile(r"AVX512|convDirect|THGemm")


@needs_binutils
@pytest.mark.parametrize("module", [thnn._thnn, thnn._call], ids=["_thnn", "_call"])
def test_no_avx_outside_the_dispatched_functions(module):
    listing = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", module.__file__], capture_output=True,
                             text=True, check=True).stdout
    offenders, clones, function = set(), set(), None
    for line in listing.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if head:
            function = head.group(1)
            continue
        if function and AVX.search(line):
            # a clone, or a part GCC split off from one (f.avx2.cold: its rarely taken paths; .part, .isra,
            # .constprop: specialized copies; .N: a local symbol's number), reached only from that clone
            variant = re.search(r"\.(avx2|avx512f)(\.(?:cold|part|isra|constprop)|\.\d+)*$", function)
            if variant:
                clones.add(variant.group(1))
            elif not GATED.search(function):
                offenders.add(function)
    assert not offenders, f"AVX instructions outside the run-time dispatch in {module.__file__}: {sorted(offenders)}"
    if module is thnn._thnn:
        # the check above means something only if the dispatched code is there
        assert clones == {"avx2", "avx512f"}, clones
