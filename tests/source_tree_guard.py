"""The source_tree marker: which tests read the checkout beside tests/.

tools/wheel_check.sh runs the suite against the installed wheel on a copy of
tests/ alone (and pyproject.toml, for pytest's settings), with
`-m "not source_tree"`.  A test that reads anything else of the checkout (the
docs pages, the C sources, tools/, benchmarks/, README.md, .ci/, the build)
must carry the marker, set per file (`pytestmark = pytest.mark.source_tree`)
or per test.  Two guards keep the marker list right:

- in the checkout, an audit hook (sys.addaudithook) sees every file a test
  opens or lists and every command it starts; an unmarked test that touches a
  path of the checkout outside tests/ and the packages' Python and compiled
  files fails, naming the path.  (Reads by the subprocesses a test starts are
  not seen, their command lines are: an argument with a "/" is taken for a
  path, from the command's working directory.)
- on a copy of tests/ alone, a marked test that runs anyway fails (it must
  not pass, or skip, for want of the tree), and an unmarked test that reads
  the tree fails on the missing file.

conftest.py wires both in."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the checkout is here, not only a copy of tests/ (the wheel check)
PRESENT = os.path.isdir(os.path.join(ROOT, "thnn_c")) and os.path.isdir(os.path.join(ROOT, "docs"))

# what a test of the installed package may touch under ROOT: tests/ itself,
# the two packages (the checkout's editable install imports them from here;
# the wheel carries their modules and data), hypothesis' example database in
# the working directory, and the virtual environment (.ci/run's is .venv in
# the clone); pyproject.toml (pytest's settings) travels with the copy
_ALLOWED_DIRS = tuple(os.path.join(ROOT, d) + os.sep
                      for d in ("tests", "thnn", "nn_legacy", ".hypothesis", ".pytest_cache", ".venv")) + tuple(
    {os.path.join(p, "") for p in (sys.prefix, os.path.realpath(sys.prefix))})
_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "subprocess.Popen"})


def outside_tests(path):
    """True when path (absolute) is part of the checkout that the wheel check lacks."""
    path = os.path.normpath(path)
    path += os.sep if os.path.isdir(path) else ""
    if not path.startswith(ROOT + os.sep) or path in (ROOT + os.sep, os.path.join(ROOT, "pyproject.toml")):
        return False
    top = path[len(ROOT) + 1:].split(os.sep, 1)[0]
    # the editable install's metadata (importlib.metadata: the entry points)
    return not (path.startswith(_ALLOWED_DIRS) or top.endswith((".egg-info", ".dist-info")))


class SourceTreeReads:
    """An audit hook that records what the running unmarked test touches."""

    def __init__(self):
        self.watching = False
        self.touched = []

    def __call__(self, event, args):
        if not self.watching or event not in _EVENTS:
            return
        if event == "subprocess.Popen":      # (executable, args, cwd, env)
            cwd = os.fsdecode(args[2]) if isinstance(args[2], (str, bytes, os.PathLike)) else os.getcwd()
            command = [args[1]] if isinstance(args[1], (str, bytes, os.PathLike)) else list(args[1] or ())
            candidates = [os.path.join(cwd, os.fsdecode(a)) for a in command
                          if isinstance(a, (str, bytes, os.PathLike)) and os.sep in os.fsdecode(a)]
        else:
            candidates = [args[0]] if args and isinstance(args[0], (str, bytes, os.PathLike)) else []
        for candidate in candidates:
            try:
                path = os.fsdecode(candidate)
            except (TypeError, ValueError):
                continue
            path = os.path.abspath(path)
            # an open or a listing of a path that does not exist reads nothing ("<unknown>": the file name
            # linecache tries, relative to the working directory, for code compiled from a string); a
            # command's arguments count as they are
            if event in ("os.listdir", "os.scandir") and _on_import_path(path):
                continue
            if outside_tests(path) and (event == "subprocess.Popen" or os.path.exists(path) and not _imported(path)):
                self.watching = False     # (the lines below open nothing, but stay safe)
                self.touched.append(f"{event} {os.path.relpath(path, ROOT)}")
                self.watching = True


def _on_import_path(path):
    """Whether path is a folder of sys.path (test_bench_inference.py puts
    benchmarks/ there): the import system lists such a folder at the next
    first import of any module after it changed (a __pycache__ written
    there), in whichever test runs then.  A test's own import of a module
    of that folder still opens the module's file, which is seen."""
    return any(os.path.abspath(entry or os.curdir) == path for entry in list(sys.path) if isinstance(entry, str))


def _imported(path):
    """Whether path is the source of a module already imported.  Tracebacks
    and warnings (through linecache) and hypothesis (looking for constants
    to try) read the sources of loaded modules, whichever test imported
    them: not this test's use of the tree.  (A test's own import of a module
    of the tree is still seen where the import system lists the folder, and
    fails in the wheel check, where the folder is absent.)"""
    return any(isinstance(getattr(m, "__file__", None), str) and os.path.abspath(m.__file__) == path
               for m in list(sys.modules.values()))


READS = SourceTreeReads()

# the test files that read the checkout while they are collected (marked
# source_tree as a whole): without the checkout, a run that deselects
# source_tree does not collect them (conftest.py's pytest_ignore_collect)
READ_WHEN_COLLECTED = ("test_architecture.py", "test_bench_gpu.py", "test_bench_inference.py", "test_build_ext.py",
                       "test_docs.py", "test_layout.py")


def ignore_collect(collection_path, config):
    """True for a file of READ_WHEN_COLLECTED when the checkout is absent and
    the run deselects source_tree (-m "not source_tree"); None (pytest
    decides) otherwise, so that a run without the marker fails on them."""
    if (not PRESENT and collection_path.name in READ_WHEN_COLLECTED
            and "not source_tree" in (config.getoption("markexpr") or "")):
        return True
    return None


def install():
    if PRESENT:
        sys.addaudithook(READS)


@pytest.fixture(autouse=True)
def _source_tree_guard(request):
    marked = request.node.get_closest_marker("source_tree") is not None
    if marked and not PRESENT:
        pytest.fail(f"{request.node.nodeid} is marked source_tree, and the checkout is not beside {ROOT}/tests "
                    "(run the suite there, or deselect it with -m 'not source_tree')", pytrace=False)
    if marked or not PRESENT:
        yield
        return
    READS.touched.clear()
    READS.watching = True
    try:
        yield
    finally:
        READS.watching = False
    if READS.touched:
        shown = sorted(set(READS.touched))
        pytest.fail(f"{request.node.nodeid} touches the checkout outside tests/ ({', '.join(shown[:5])}"
                    f"{' ...' if len(shown) > 5 else ''}): mark it source_tree (tests/source_tree_guard.py), "
                    "or use a file of tests/data", pytrace=False)
