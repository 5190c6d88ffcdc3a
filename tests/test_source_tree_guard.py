"""The source_tree marker's guards (tests/source_tree_guard.py): what counts
as the checkout outside tests/, and that the files read while collected are
marked as a whole."""
import os
import re
import sys

import pytest

import source_tree_guard as guard
from source_tree_guard import ROOT, outside_tests


@pytest.mark.parametrize("path, outside", [
    ("docs/index.md", True), ("thnn_c/THVector.c", True), ("tools/wheel_check.sh", True), ("README.md", True),
    ("benchmarks", True), (".ci/run", True),
    ("tests/data/t7", False), ("tests/conftest.py", False), ("tests", False), ("nn_legacy/Linear.py", False),
    ("thnn/_call.c", False), ("pyproject.toml", False), ("", False), ("thnn.egg-info/entry_points.txt", False),
])
def test_what_is_outside_tests(path, outside):
    assert outside_tests(os.path.join(ROOT, path)) is outside


def test_paths_beside_the_checkout_are_not_its_files():
    assert not outside_tests(os.path.join(os.path.dirname(ROOT), "shared", "t7data"))
    assert not outside_tests(ROOT + "-other/docs/index.md")


def test_the_hook_records_opens_listings_and_commands_of_a_watched_test():
    reads = guard.SourceTreeReads()
    docs = os.path.join(ROOT, "docs", "index.md")
    reads("open", (docs, "r", 0))                                # not watching: nothing
    assert reads.touched == []
    reads.watching = True
    reads("open", (os.path.join(ROOT, "tests", "conftest.py"), "r", 0))
    reads("open", (3, "r", 0))                                   # a file descriptor
    reads("compile", (b"", docs))                                # not an event it watches
    reads("open", (os.path.join(ROOT, "<unknown>"), "r", 0))     # no such file: nothing read
    assert reads.touched == []
    reads("open", (docs, "r", 0))
    reads("os.listdir", (os.path.join(ROOT, "tools"),))
    reads("subprocess.Popen", ("bash", ["bash", "-n", os.path.join(ROOT, "tools", "gpu_check.sh")], ROOT, None))
    reads("subprocess.Popen", ("python", ["python", "-m", "nn_legacy"], ROOT, None))   # cwd=ROOT alone is fine
    reads("subprocess.Popen", ("python", ["python", "tests/checkpoint_kill.py", "a/b"], ROOT + "/tests/..", None))
    # (opens and listings count where the path exists: in the checkout; a command's arguments always)
    assert reads.touched == ["open docs/index.md", "os.listdir tools"] * guard.PRESENT + [
        "subprocess.Popen tools/gpu_check.sh", "subprocess.Popen a/b"]


@pytest.mark.source_tree
@pytest.mark.parametrize("name", guard.READ_WHEN_COLLECTED)
def test_files_read_when_collected_are_marked_as_a_whole(name):
    with open(os.path.join(ROOT, "tests", name), encoding="utf-8") as f:
        assert re.search(r"^pytestmark = pytest\.mark\.source_tree\b", f.read(), re.M), name


def test_reading_the_source_of_a_module_already_imported_is_not_a_read():
    """A traceback or warning (through linecache), or hypothesis looking for
    constants, reads the source of modules already imported (a module of
    tools/ an earlier test in the worker imported): not this test's use of
    the tree.  The open of a file of the tree no module came from is.
    (Shell scripts stand in for the sources: no other test in the worker
    can have imported them for real, as test_THVector imports fit_expf.)"""
    import types
    path = os.path.join(ROOT, "tools", "wheel_check.sh")
    other = os.path.join(ROOT, "tools", "gpu_check.sh")
    reads = guard.SourceTreeReads()
    reads.watching = True
    module = types.ModuleType("_imported_from_tools")
    module.__file__ = path
    sys.modules[module.__name__] = module
    try:
        reads("open", (path, "r", 0))
        assert reads.touched == []
    finally:
        del sys.modules[module.__name__]
    reads("open", (path, "r", 0))
    reads("open", (other, "r", 0))
    want = ["open tools/wheel_check.sh", "open tools/gpu_check.sh"]
    assert reads.touched == (want if guard.PRESENT else [])


def test_the_import_system_listing_a_folder_of_sys_path_is_not_a_read():
    """test_bench_inference.py puts benchmarks/ on sys.path; the import
    system lists it again at the first import after it changed (a
    __pycache__ written there), in whichever test runs then: not that
    test's read.  A folder of the tree that is not on sys.path still is,
    and so is the open of a module's file there."""
    folder, other = os.path.join(ROOT, "tools"), os.path.join(ROOT, "docs")
    reads = guard.SourceTreeReads()
    reads.watching = True
    sys.path.append(folder)
    try:
        reads("os.listdir", (folder,))
        reads("os.scandir", (folder,))
        assert reads.touched == []
        reads("open", (os.path.join(folder, "wheel_check.sh"), "r", 0))
    finally:
        sys.path.remove(folder)
    reads("os.listdir", (folder,))
    reads("os.listdir", (other,))
    want = ["open tools/wheel_check.sh", "os.listdir tools", "os.listdir docs"]
    assert reads.touched == (want if guard.PRESENT else [])
