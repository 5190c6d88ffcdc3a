"""The machinery of .ci/run's step "tests without the optional packages":
tests/without_optional/sitecustomize.py hides the packages THNN_HIDE_MODULES
names from every process started with that folder on PYTHONPATH, and
tools/optional_dep_tests.py lists the test files that use them."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.source_tree     # CI's machinery: tools/ and tests/without_optional of the checkout


@pytest.fixture
def optional_dep_tests():
    """tools/optional_dep_tests.py (imported here, so that a copy of tests/ without the checkout still collects)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import optional_dep_tests
    finally:
        sys.path.remove(os.path.join(ROOT, "tools"))
    return optional_dep_tests

PROBE = """
import importlib.util, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        __import__(name)
        out[name] = "imported"
    except ImportError:
        # a package's availability is asked with find_spec(top-level name)
        top = name.split(".")[0]
        out[name] = "ImportError" if importlib.util.find_spec(top) is None else "found by find_spec"
print(json.dumps(out))
"""


def probe(hidden, names):
    env = dict(os.environ, THNN_HIDE_MODULES=hidden,
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "tests", "without_optional"),
                                           os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", PROBE, *names], env=env, capture_output=True, text=True,
                         check=True).stdout
    import json
    return json.loads(out)


def test_hidden_packages_do_not_import_and_are_not_found():
    # csv and xml stand in for torch and onnx (present on every machine)
    assert probe("csv,xml", ["csv", "xml.dom", "pickle"]) == {
        "csv": "ImportError", "xml.dom": "ImportError", "pickle": "imported"}


def test_a_hidden_package_is_not_in_sys_modules():
    """Libraries ask sys.modules whether a package is in use (scipy's
    array-api-compat does for torch): a hidden one is not there at all."""
    env = dict(os.environ, THNN_HIDE_MODULES="csv",
               PYTHONPATH=os.path.join(ROOT, "tests", "without_optional"))
    code = "import sys\ntry:\n    import csv\nexcept ImportError as e:\n    print(e)\nprint('csv' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["No module named 'csv'", "False"]


def test_the_other_installed_distributions_stay_visible():
    """importlib.metadata goes through the same finder: setuptools' commands
    (entry points) must still be found, a hidden distribution must not."""
    env = dict(os.environ, THNN_HIDE_MODULES="pytest",
               PYTHONPATH=os.path.join(ROOT, "tests", "without_optional"))
    code = ("import importlib.metadata as m\n"
            "names = {(d.metadata['Name'] or '').lower() for d in m.distributions()}\n"
            "print('setuptools' in names, 'pytest' in names, bool(m.entry_points(group='distutils.commands')))\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "True"]


def test_nothing_is_hidden_without_the_variable():
    assert probe("", ["csv"]) == {"csv": "imported"}


def test_the_list_holds_direct_and_indirect_users(tmp_path, optional_dep_tests):
    (tmp_path / "helper.py").write_text(
        "def ref():\n    import torch\n    return torch\n\n"
        "def via():\n    return ref()\n\n"
        "def plain():\n    return 1\n")
    (tmp_path / "test_direct.py").write_text("import pytest\nonnx = pytest.importorskip('onnx')\n")
    (tmp_path / "test_indirect.py").write_text("import helper\n\ndef test_x():\n    helper.via()\n")
    (tmp_path / "test_none.py").write_text("import helper\n\ndef test_x():\n    helper.plain()\n")
    (tmp_path / "test_mpi.py").write_text("def test_x():\n    run(['mpiexec', '-n', '2'])\n")
    listed = [os.path.basename(p) for p in optional_dep_tests.optional_tests(str(tmp_path))]
    assert listed == ["test_direct.py", "test_indirect.py", "test_mpi.py"]


def test_the_real_list_holds_the_known_users(optional_dep_tests):
    listed = {os.path.basename(p) for p in optional_dep_tests.optional_tests(os.path.join(ROOT, "tests"))}
    assert {"test_onnx.py", "test_distributed.py", "test_SeqLSTM.py", "test_Linear.py"} <= listed
