"""The build's side-by-side compile and object cache (thnn/_build_ext.py) and
the parts of the layer files (thnn/_layers.py): a cached object is reused
exactly when the compiler would see the same code, whatever the -I paths
(pip's isolated builds put them in a new temporary folder each time)."""
import os
import re
import shutil
import sys

import pytest

pytestmark = pytest.mark.source_tree   # reads setup.py's build_ext of the checkout (tests/source_tree_guard.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "thnn"))
import _build_ext  # noqa: E402
import _header  # noqa: E402
import _layers  # noqa: E402

ccompiler = pytest.importorskip("setuptools._distutils.ccompiler", reason="setuptools' distutils")
if shutil.which("gcc") is None:
    pytest.skip("no C compiler", allow_module_level=True)


def test_key_args_keep_what_decides_the_code():
    args = ["gcc", "-O3", "-I", "/tmp/a", "-I/tmp/b", "-Wall", "-Wno-x", "-DX=1", "-fopenmp", "-c", "-o", "f.o"]
    assert _build_ext._key_args(args) == ["gcc", "-O3", "-DX=1", "-fopenmp", "-c"]


def test_the_slow_path_units_are_compiled_at_a_lower_level():
    """cffi's wrappers at -O0; the rest of the CUDA emulator (its base and
    each part, however many parts there are) at -O1; the CPU kernels, which
    the emulator links too, keep their own level."""
    parts = [f"build/generated/THCUNN_part{k}.cpp" for k in range(_layers.PARTS + 3)]
    for src in ["build/temp/thnn._thnn.c", "build/temp/thnn._thcunn_emu.cpp"]:
        assert _build_ext._optimisation(src) == "-O0", src
    for src in ["build/generated/THCUNN_base.cpp", *parts]:
        assert _build_ext._optimisation(src) == "-O1", src
    for src in ["build/generated/THNN_part0.c", "thnn_c/THBlas.c", "thcunn_cu/THCEmu.cpp", "thnn/_call.c"]:
        assert _build_ext._optimisation(src) is None, src


def test_unit_flags_order():
    """-g0 first, so that the extension's own flags (THNN_CFLAGS=-g, make
    asan) override it; a lowered -O last, so that it overrides the
    extension's -O3."""
    assert _build_ext.unit_flags("thnn_c/THBlas.c", ["-O3", "-g"]) == ["-g0", "-O3", "-g"]
    assert _build_ext.unit_flags("x/THCUNN_part2.cpp", ["-O3"]) == ["-g0", "-O3", "-O1"]
    assert _build_ext.unit_flags("thnn._thnn.c", None) == ["-g0", "-O0"]


class Tree:
    """A C file including a header from an include folder, compiled through
    the cache with a real compiler."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.cache_dir = tmp_path / "cache"
        self.write("inc1/h.h", "#define VALUE 1\n")
        self.write("f.c", '#include "h.h"\nint f(void) { return VALUE; }\n')
        self.compiles = 0

    def write(self, name, text):
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def build(self, include="inc1", flags=("-O2",), out="out", timings=None, cache=None):
        compiler = ccompiler.new_compiler()
        from setuptools._distutils.sysconfig import customize_compiler
        customize_compiler(compiler)
        real = compiler._compile

        def counted(*a, **k):
            self.compiles += 1
            return real(*a, **k)
        compiler._compile = counted
        own = cache is None
        cache = cache or _build_ext.ObjectCache(2, str(self.cache_dir))
        compile = _build_ext.parallel_compile(compiler, cache)
        assert compile is not None, "this setuptools' compiler lacks the internals the cache uses"
        undo = None
        if timings:
            cache.timings = timings
            undo = timings.patch(compiler)
        cwd = os.getcwd()
        os.chdir(self.tmp)
        try:
            objects = compile(["f.c"], output_dir=out, include_dirs=[str(self.tmp / include)],
                              extra_postargs=list(flags))
        finally:
            os.chdir(cwd)
            if own:
                cache.pool.shutdown()
            if undo:
                undo()
        assert len(objects) == 1 and os.path.exists(self.tmp / objects[0])
        return (self.tmp / objects[0]).read_bytes(), cache


def test_second_build_reuses_the_object(tmp_path):
    t = Tree(tmp_path)
    first, c1 = t.build(out="a")
    second, c2 = t.build(out="b")
    assert (c1.misses, c1.hits, c2.misses, c2.hits) == (1, 0, 0, 1)
    assert t.compiles == 1 and first == second


@pytest.mark.parametrize("directory", [True, False], ids=["cache", "no-cache"])
def test_an_object_two_extensions_share_is_written_once(tmp_path, directory):
    """The CPU library and the emulator both link thnn_c/*.o from one path:
    the second extension's compile of the same unit must neither compile
    nor rewrite that file, which the first may be linking (a file rewritten
    in place under ld gave "internal error ... merge.c" in CI)."""
    t = Tree(tmp_path)
    cache = _build_ext.ObjectCache(2, str(t.cache_dir) if directory else None)
    first, _ = t.build(cache=cache)
    obj = next((tmp_path / "out").rglob("f.o"))
    before = os.stat(obj)
    with open(obj, "rb") as linking:            # a reader, as ld would be
        second, _ = t.build(cache=cache)
        assert linking.read() == first
    after = os.stat(obj)
    assert t.compiles == 1 and second == first
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_an_object_copied_in_is_renamed_into_place(tmp_path):
    """A cached object copied over an old one: a reader of the old file
    keeps reading it whole, the path holds the new one."""
    t = Tree(tmp_path)
    new, _ = t.build(out="a")
    old = tmp_path / "b" / "f.o"
    old.parent.mkdir()
    old.write_bytes(b"old object")
    with open(old, "rb") as linking:
        placed, c = t.build(out="b")
        assert linking.read() == b"old object"
    assert placed == new and c.hits == 1 and not list((tmp_path / "b").glob("*.tmp"))


def test_another_include_path_with_the_same_header_hits(tmp_path):
    t = Tree(tmp_path)
    t.build()
    t.write("inc2/h.h", "#define VALUE 1\n")             # pip's next temporary folder, same files
    _, c = t.build(include="inc2", out="b")
    assert c.hits == 1 and t.compiles == 1


@pytest.mark.parametrize("change", ["header", "flags", "source"])
def test_a_change_the_compiler_would_see_misses(tmp_path, change):
    t = Tree(tmp_path)
    t.build()
    flags = ("-O2",)
    if change == "header":
        t.write("inc1/h.h", "#define VALUE 2\n")
    elif change == "flags":
        flags = ("-O0",)
    else:
        t.write("f.c", '#include "h.h"\nint f(void) { return VALUE + 1; }\n')
    _, c = t.build(flags=flags, out="b")
    assert (c.hits, c.misses) == (0, 1) and t.compiles == 2


def test_a_compile_error_is_raised_and_nothing_is_cached(tmp_path):
    t = Tree(tmp_path)
    t.write("f.c", "int f(void) { return ; }}\n")
    with pytest.raises(Exception):
        t.build()
    assert not any(p.suffix == ".o" for p in t.cache_dir.rglob("*"))


def test_timings_list_each_process(tmp_path):
    """THNN_BUILD_TIMES: the preprocessing and the compile of a unit, each
    with its own CPU time; the object is the same as without."""
    t = Tree(tmp_path)
    timings = _build_ext.Timings()
    timed, _ = t.build(out="a", timings=timings)
    assert sorted((what, name) for what, name, *_ in timings.rows) == [("compile", "f.o"), ("preprocess", "f.c")]
    assert all(start >= 0 and wall > 0 and cpu >= 0 for _, _, start, wall, cpu in timings.rows)
    report = timings.report()
    assert "f.o" in report and "compile    total CPU" in report
    plain, _ = Tree(tmp_path / "plain").build(out="b")
    assert timed == plain


def test_timings_keep_a_compile_error(tmp_path):
    t = Tree(tmp_path)
    t.write("f.c", "int f(void) { return ; }}\n")
    timings = _build_ext.Timings()
    with pytest.raises(Exception):
        t.build(timings=timings)
    assert [what for what, *_ in timings.rows] == ["preprocess", "compile"]
    assert not any(p.suffix == ".o" for p in t.cache_dir.rglob("*"))


def test_prune_drops_the_least_recently_used(tmp_path):
    cache = _build_ext.ObjectCache(1, str(tmp_path))
    for i, name in enumerate(["old", "new"]):
        p = tmp_path / "ab" / f"{name}.o"
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(b"x" * 2 ** 20)
        os.utime(p, (1000 + i, 1000 + i))
    cache.prune(1.5)
    assert sorted(p.name for p in tmp_path.rglob("*.o")) == ["new.o"]
    cache.pool.shutdown()


def test_split_balances_and_keeps_name_order():
    sizes = {"A": 9, "B": 1, "C": 5, "D": 4, "E": 1}
    groups = _layers.split(list(sizes), sizes, count=2)
    assert sorted(sum(groups, [])) == sorted(sizes)
    assert all(g == sorted(g) for g in groups)
    assert sorted(sum(sizes[n] for n in g) for g in groups) == [10, 10]


@pytest.mark.parametrize("kind", [_layers.CPU, _layers.CUDA], ids=["cpu", "cuda"])
def test_the_parts_hold_every_layer_once(tmp_path, kind):
    with open(os.path.join(ROOT, "thnn_c", "generic", "THNN.h"), encoding="ascii") as f:
        functions = _header.parse(f.read())
    units = _layers.write_parts(kind, functions, directory=str(tmp_path))
    assert len(units) == _layers.PARTS
    listed = []
    for k, unit in enumerate(units):
        text = open(os.path.join(ROOT, unit), encoding="ascii").read()
        assert f'"init.{kind[1]}"' in text
        header = tmp_path / f"{kind[3][:-2]}_part{k}.h"
        listed += [line.split('"generic/')[1].split(".")[0] for line in header.read_text().splitlines()
                   if line.startswith("#define TH_GENERIC_FILE")]
    assert sorted(listed) == _layers.layer_files(functions, kind)


def test_describing_the_package_runs_no_cffi_builder(tmp_path):
    """pip runs setup.py with egg_info / dist_info for the metadata before the
    build: those runs skip the cffi builders (each parses the C headers) and
    do not import numpy."""
    import subprocess
    code = ("import runpy, sys; sys.argv = ['setup.py', 'egg_info', '--egg-base', sys.argv[1]]; "
            "runpy.run_path('setup.py', run_name='__main__'); print('numpy imported:', 'numpy' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Name: thnn" in (tmp_path / "thnn.egg-info" / "PKG-INFO").read_text()
    assert "not building" not in r.stdout + r.stderr   # what the builders' setup prints
    assert "numpy imported: False" in r.stdout


def test_the_emulator_base_is_a_unit_of_its_own(tmp_path):
    """The emulator's cffi module holds its wrapper only (compiled at -O0);
    the helpers it calls are the base unit (at -O1), which the module's
    sources list, and the twins are the parts."""
    import _build_cuda
    unit = _build_cuda.write_base(str(tmp_path))
    text = open(os.path.join(ROOT, unit), encoding="ascii").read()
    assert "#define THCUNN_BASE_ONLY" in text
    assert [line for line in text.splitlines() if line.startswith("#include")] == \
        [f'#include "{f}"' for f in _build_cuda.CU_FILES]
    assert not re.search(r'#include "[^"]*\.cu"', _build_cuda.MODULE_SOURCE)
    _, source, _, kwds = _build_cuda.emulation_builder()._assigned_source
    assert source == _build_cuda.MODULE_SOURCE
    assert kwds["sources"].count(_build_cuda.EMULATOR_BASE) == 1
    assert _build_ext._optimisation(_build_cuda.EMULATOR_BASE) == "-O1"
    assert all(_build_ext._optimisation(p) == "-O1" for p in _build_cuda.CUDA_PARTS)


def test_importing_the_cuda_builder_parses_no_cdef():
    """setup.py imports thnn/_build_cuda.py for nvcc_toolchain(); cffi runs
    emulation_builder itself, so the import must not parse the cdef (it did
    once more than needed, about 1 s of every build)."""
    import subprocess
    code = ("import sys, cffi; calls = []; real = cffi.FFI.cdef\n"
            "cffi.FFI.cdef = lambda self, *a, **k: (calls.append(1), real(self, *a, **k))[1]\n"
            "sys.path.insert(0, 'thnn'); import _build_cuda\n"
            "print('cdef calls:', len(calls)); _build_cuda.emulation_builder(); print('cdef calls:', len(calls))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == ["cdef calls: 0", "cdef calls: 1"]
