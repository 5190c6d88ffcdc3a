"""setup.py's build_ext: every C and C++ file of every extension compiled side
by side, and each object kept in a cache, so that installing again (another
extra, `pip install -e .` after a pull that touched no C file) compiles
nothing that did not change.

- Side by side: the extensions are built in threads, and each one's files go
  to one pool of THNN_BUILD_JOBS compiler processes (default: the cores this
  process may use; `build_ext -j N` sets it too), the largest waiting unit
  first.  The layer files are split into several translation units for this
  (thnn/_layers.py, PARTS).
- The cache (build/objects/ in the source tree, or THNN_BUILD_CACHE; `0`
  turns it off): an object is found by a hash of the compiler, the flags and
  the source *as preprocessed* (gcc -E -P), so an edit to any header it
  includes, a changed macro or another numpy misses, while the temporary
  folders of pip's isolated builds (in every -I path) do not.  Flags that
  only choose warnings (-W...) and the -I paths are left out of the hash; the
  warnings of a file are printed when it is compiled, not when it is found.
  The same file built twice in one run (the CPU kernels are in both the CPU
  library and the emulator) is compiled once, and its object is written
  once: both extensions name the same object file, and the first may be
  linking it while the second's threads finish (rewriting it in place then
  gave the linker a half-written file: ld's "internal error ... merge.c").
  An object copied in (from the cache, or to another folder) is written
  beside its place and renamed into it, never rewritten where it lies.
- Anything unexpected (a compiler class without the distutils internals used
  here, a preprocessor failure) falls back to distutils' own serial compile
  of that extension: the cache is a speed-up, never a requirement.

The cache holds at most THNN_BUILD_CACHE_MB megabytes (default 400); the
least recently used objects go first.

Every build prints its wall and compiler CPU time; THNN_BUILD_TIMES=1 lists
each compiler process (compile, preprocessing, link) with when it started,
its wall time and its own CPU time (Timings), for finding where a build's
time goes (docs/install.md)."""
import concurrent.futures
import fnmatch
import hashlib
import heapq
import itertools
import os
import shutil
import resource
import subprocess
import tempfile
import threading
import time

from setuptools.command.build_ext import build_ext as _build_ext
from setuptools.errors import ExecError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _jobs(requested=None):
    env = os.environ.get("THNN_BUILD_JOBS")
    if env:
        return max(1, int(env))
    if requested and requested is not True:
        return max(1, int(requested))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def _cache_dir():
    path = os.environ.get("THNN_BUILD_CACHE", os.path.join(ROOT, "build", "objects"))
    return None if path == "0" else path


def _key_args(args):
    """The arguments that decide an object's code: not -I/-L paths (the
    preprocessed text holds what they found), not warning choices."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-I", "-L", "-o"):
            skip = True
        elif not a.startswith(("-I", "-L", "-W")):
            out.append(a)
    return out


# Units whose optimisation level is lowered (fnmatch patterns of the file
# name).  Compiler CPU time on this project's two-core machine (GCC 12,
# -g0, 2026-11-29, busy: a spread of about 15 %):
# - cffi's generated wrappers (argument conversion, on the slow path only):
#   the CPU library's (thnn._thnn.c, 1.7 MB, 745 functions): 10.6 s at -O1,
#   5.4 s at -O0; an ordinary kernel call goes through thnn/_call.c, which
#   calls the kernels (compiled at -O3) through their trampolines.  The
#   emulator's (thnn._thcunn_emu.cpp, about 680 functions): 12 s at -O1,
#   7 s at -O0; a call into the emulator spends its time in Python and in
#   the emulated kernel, not in the conversion of its arguments.
# - the rest of the CUDA emulator, its base (THCUNN_base.cpp, the device
#   tensor and the tensor math of every type) and the parts of the twins,
#   at -O1: 35 + 4 x 6.3 s at -O3 (with -g), 5.4 + 4 x 4.5 s at -O1.  The
#   emulator runs the CUDA tests on small tensors: the test files of the
#   twins took 53.5 s of CPU against 55.0 s at -O1.  The CPU kernels the
#   emulator links are the CPU library's own objects, still at -O3.
LOWER_OPTIMISATION = {"thnn._thnn.c": "-O0", "thnn._thcunn_emu.cpp": "-O0",
                      "THCUNN_base.cpp": "-O1", "THCUNN_part*.cpp": "-O1"}

# No debug information: Python's own CFLAGS have -g, which changes no
# instruction but took 13 to 20 % of each unit's compile (the emulator's
# -O1 C++ above all) and made the objects three to four times larger.  It
# comes before the extension's flags, so THNN_CFLAGS=-g brings it back (make
# asan does, for line numbers in its reports).
DEBUG_INFO = "-g0"


def _optimisation(src):
    """The -O flag that replaces the extension's own for src, or None."""
    name = os.path.basename(src)
    return next((flag for pattern, flag in LOWER_OPTIMISATION.items() if fnmatch.fnmatchcase(name, pattern)), None)


def unit_flags(src, extra_postargs):
    """The flags after src on its compile command: DEBUG_INFO, the
    extension's own (extra_compile_args) and a lowered -O level."""
    lower = _optimisation(src)
    return [DEBUG_INFO] + list(extra_postargs or []) + ([lower] if lower else [])


class Slots:
    """At most n compiler processes at once, the costliest waiting job first
    (so that the long units do not start last and leave one core idle at the
    end of a build)."""

    def __init__(self, n):
        self.n = self.free = n
        self.waiting, self.order = [], itertools.count()
        self.cv = threading.Condition()

    def run(self, cost, fn):
        with self.cv:
            ticket = (-cost, next(self.order))
            heapq.heappush(self.waiting, ticket)
            while not (self.free and self.waiting[0] == ticket):
                self.cv.wait()
            heapq.heappop(self.waiting)
            self.free -= 1
        try:
            return fn()
        finally:
            with self.cv:
                self.free += 1
                self.cv.notify_all()


class ObjectCache:
    """Compiles objects through one pool, finding repeated ones in a cache."""

    def __init__(self, jobs, directory):
        # threads only wait for a slot: Slots bounds the processes
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=64)
        self.slots = Slots(jobs)
        self.directory = directory
        self.lock = threading.Lock()
        self.inflight = {}          # key -> Future of the cached object's path
        self.versions = {}          # compiler -> its --version text
        self.hits = self.misses = 0
        self.timings = None         # a Timings, to time the preprocessing too

    def _version(self, cc):
        with self.lock:
            if cc not in self.versions:
                self.versions[cc] = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
            return self.versions[cc]

    def key(self, command, src):
        """(a hash of the compiler, the code-deciding flags and src
        preprocessed, the preprocessed size: the compile's cost), or None."""
        pre = self.slots.run(float("inf"), lambda: self._preprocess(command + ["-E", "-P", src]))
        if pre.returncode != 0:
            return None
        h = hashlib.sha256()
        for part in (self._version(command[0]), "\0".join(_key_args(command))):
            h.update(part.encode())
            h.update(b"\0")
        h.update(pre.stdout)
        return h.hexdigest(), len(pre.stdout)

    def _preprocess(self, cmd):
        if not self.timings:
            return subprocess.run(cmd, capture_output=True)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            code = self.timings.run(cmd, "preprocess", stdout=out, stderr=err)
            out.seek(0)
            err.seek(0)
            return subprocess.CompletedProcess(cmd, code, out.read(), err.read())

    def _store(self, key, obj):
        path = os.path.join(self.directory, key[:2], key + ".o")
        _place(obj, path)
        return path

    def object(self, compile_one, command, src, obj):
        """Makes obj from src: from the cache, from a compile of the same key
        in this run (running now or done), or by compile_one() (then stored).
        A unit that cannot be keyed (its preprocessing failed) is keyed by its
        object's path, so that it too is compiled once."""
        keyed = self.key(command, src)
        key, cost = keyed if keyed else ("object:" + os.path.abspath(obj), 0)
        path = self.directory and keyed and os.path.join(self.directory, key[:2], key + ".o")
        with self.lock:
            future = self.inflight.get(key)
            mine = future is None
            if mine:
                future = self.inflight[key] = concurrent.futures.Future()
        if not mine:
            _place(future.result(), obj)
            return
        try:
            if path and os.path.exists(path):
                os.utime(path)              # recently used: kept by prune()
                _place(path, obj)
                self.hits += 1
            else:
                self.slots.run(cost, compile_one)
                if path:
                    self._store(key, obj)
                    self.misses += 1
            future.set_result(obj)
        except BaseException as e:
            future.set_exception(e)
            raise

    def prune(self, limit_mb):
        if not self.directory or not os.path.isdir(self.directory):
            return
        entries = []
        for folder, _, files in os.walk(self.directory):
            for name in files:
                p = os.path.join(folder, name)
                st = os.stat(p)
                entries.append((st.st_mtime, st.st_size, p))
        total = sum(e[1] for e in entries)
        for _, size, p in sorted(entries):
            if total <= limit_mb * 2 ** 20:
                break
            os.remove(p)
            total -= size


def _place(src, dst):
    """dst becomes a copy of src: written beside it and renamed into place,
    so that a process reading dst (a linker) sees the old file or the new
    one, never a part; nothing is done when dst is src."""
    if os.path.exists(dst) and os.path.samefile(src, dst):
        return
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    tmp = f"{dst}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def parallel_compile(compiler, cache):
    """compiler.compile replaced by one that compiles its files in cache's
    pool; None when compiler lacks the distutils internals it uses."""
    needed = ("_setup_compile", "_get_cc_args", "_compile", "compiler_so")
    if not all(hasattr(compiler, n) for n in needed):
        return None
    serial = compiler.compile

    def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
                extra_postargs=None, depends=None):
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        work = []
        for obj in objects:
            if obj not in build:
                continue
            src, ext = build[obj]
            postargs = unit_flags(src, extra_postargs)
            # newer distutils compile C++ with compiler_so_cxx
            cxx = ext in getattr(compiler, "_cpp_extensions", ()) and getattr(compiler, "compiler_so_cxx", None)
            command = list(cxx or compiler.compiler_so) + cc_args + postargs

            def one(obj=obj, src=src, ext=ext, postargs=postargs):
                compiler._compile(obj, src, ext, cc_args, postargs, pp_opts)
            work.append(cache.pool.submit(cache.object, one, command, src, obj))
        for w in work:
            w.result()
        return objects

    compile.serial = serial
    return compile


class Timings:
    """The time of every compiler process of a build (THNN_BUILD_TIMES=1):
    each command is run here and waited for with os.wait4, which gives that
    process's own CPU time (user + system), whatever else the machine runs.
    The compile of a unit, its preprocessing for the cache key and each link
    are listed apart, with when each started (seconds into the build)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.start = time.monotonic()
        self.rows = []              # (what, file name, start s, wall s, CPU s)

    def run(self, cmd, what=None, **popen):
        """Runs cmd; returns its exit status."""
        start = time.monotonic()
        p = subprocess.Popen(cmd, **popen)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        out = cmd[cmd.index("-o") + 1] if "-o" in cmd else cmd[-1]     # the object, or the preprocessed file
        what = what or ("link" if "-shared" in cmd else "compile")
        with self.lock:
            self.rows.append((what, os.path.basename(str(out)), start - self.start, wall,
                              usage.ru_utime + usage.ru_stime))
        return p.returncode

    def call(self, cmd, **kwargs):
        """CCompiler.call (newer distutils) that times its command."""
        print(subprocess.list2cmdline([str(c) for c in cmd]), flush=True)
        code = self.run([str(c) for c in cmd], **kwargs)
        if code:
            raise subprocess.CalledProcessError(code, cmd)

    def spawn(self, cmd, **kwargs):
        """CCompiler.spawn (older distutils) that times its command."""
        print(subprocess.list2cmdline([str(c) for c in cmd]), flush=True)
        code = self.run([str(c) for c in cmd], **kwargs)
        if code:
            raise ExecError(f"command {cmd[0]!r} failed with exit code {code}")

    def patch(self, compiler):
        """Times compiler's processes; returns the undo."""
        names = [n for n in ("call", "spawn") if hasattr(compiler, n)]
        for n in names:
            setattr(compiler, n, getattr(self, n))

        def undo():
            for n in names:
                delattr(compiler, n)
        return undo

    def report(self):
        lines = [f"thnn: {'what':10} {'start s':>7} {'wall s':>7} {'CPU s':>7}  file"]
        for what, name, start, wall, cpu in sorted(self.rows, key=lambda r: (r[0] == "preprocess", r[2])):
            lines.append(f"thnn: {what:10} {start:7.2f} {wall:7.2f} {cpu:7.2f}  {name}")
        for what in ("compile", "preprocess", "link"):
            cpu = sum(r[4] for r in self.rows if r[0] == what)
            lines.append(f"thnn: {what:10} total CPU {cpu:.1f} s")
        return "\n".join(lines)


class build_ext(_build_ext):
    """build_ext with the extensions built in threads and their files
    compiled side by side through the object cache (module docstring)."""

    def build_extensions(self):
        self.check_extensions_list(self.extensions)
        cache = ObjectCache(_jobs(self.parallel), _cache_dir())
        patched = parallel_compile(self.compiler, cache)
        if patched is None:
            return super().build_extensions()
        start, children = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        timings = Timings() if os.environ.get("THNN_BUILD_TIMES", "0") != "0" else None
        undo = None
        if timings:
            cache.timings = timings
            undo = timings.patch(self.compiler)
        self.compiler.compile = patched
        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=len(self.extensions) or 1) as exts:
                for f in [exts.submit(self._build_one, ext) for ext in self.extensions]:
                    f.result()
        finally:
            self.compiler.compile = patched.serial
            if undo:
                undo()
            cache.pool.shutdown()
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = now.ru_utime + now.ru_stime - children.ru_utime - children.ru_stime
        print(f"thnn: the extensions took {time.monotonic() - start:.1f} s, {cpu:.1f} s of compiler CPU time "
              f"({cache.slots.n} jobs)")
        if timings:
            print(timings.report())
        if cache.directory:
            print(f"thnn: {cache.hits} objects from the cache ({cache.directory}), {cache.misses} compiled")
            cache.prune(float(os.environ.get("THNN_BUILD_CACHE_MB", "400")))

    def _build_one(self, ext):
        with self._filter_build_errors(ext):
            self.build_extension(ext)
