"""The layering of docs/contributing/architecture.md, as import-linter checks
it (the contracts are in pyproject.toml, [tool.importlinter]; CI runs
``lint-imports``): the tree keeps them, and each kind of violation they
exist for, planted in a copy of the tree, breaks the contract that names it.

Also: the old module paths the move left behind (nn_legacy.t7,
nn_legacy.registry, nn_legacy.convert) still import, and a moved private
helper's old path says where it went."""
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.source_tree   # the import contracts of the checkout's sources (tests/source_tree_guard.py)

pytest.importorskip("importlinter", reason='import-linter is in the test extra: pip install -e ".[test]"')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; "
                              "sys.exit(c.main(sys.argv[1:], standalone_mode=False))", "--no-cache"]


def lint(where):
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.run(LINT, cwd=where, env=env, capture_output=True, text=True, timeout=300)


def test_the_tree_keeps_every_contract():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout and "BROKEN" not in run.stdout


# (file to change, line to add, the contract that must break, the import it must name)
PLANTED = [
    ("thnn/_header.py", "import nn_legacy", "the binding (thnn) never imports the layers",
     "thnn._header -> nn_legacy"),
    ("nn_legacy/_helpers/checks.py", "from ..Linear import Linear",
     "the private helpers (nn_legacy._helpers) sit below Module and Criterion", "nn_legacy._helpers.checks"),
    ("nn_legacy/Linear.py", "from .serialization import load", "a layer imports no subsystem",
     "nn_legacy.Linear -> nn_legacy.serialization"),
    ("nn_legacy/Tanh.py", "from .onnx import export", "a layer imports no subsystem",
     "nn_legacy.Tanh -> nn_legacy.onnx"),
    ("nn_legacy/onnx/exporter.py", "from ..serialization import t7", "a layer imports no subsystem",
     "nn_legacy.onnx.exporter -> nn_legacy.serialization"),
    ("nn_legacy/distributed/data_parallel.py", "from ..demos import catalogue", "a layer imports no subsystem",
     "nn_legacy.distributed.data_parallel -> nn_legacy.demos"),
    ("nn_legacy/serialization/registry.py", "from . import native", "no import circle",
     "No cycles are allowed in nn_legacy.serialization."),
    ("thnn/_cuda_tensor.py", "from . import cuda", "no import circle", "No cycles are allowed in thnn."),
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the sources and of pyproject.toml (the contracts), without the compiled libraries: import-linter
    reads the files, it imports nothing."""
    where = tmp_path_factory.mktemp("tree")
    for package in ("thnn", "nn_legacy"):
        shutil.copytree(os.path.join(ROOT, package), where / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "data"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), where / "pyproject.toml")
    run = lint(where)
    assert run.returncode == 0, "the copy must keep the contracts before a change: " + run.stdout[-3000:]
    return where


@pytest.mark.parametrize("path, line, contract, names", PLANTED, ids=[p[0] + ": " + p[1] for p in PLANTED])
def test_a_planted_violation_breaks_its_contract(tree, path, line, contract, names):
    target = tree / path
    original = target.read_text()
    target.write_text(original + f"\n{line}  # planted\n")
    try:
        run = lint(tree)
    finally:
        target.write_text(original)
    assert run.returncode != 0, run.stdout[-3000:]
    broken = run.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and names in broken, run.stdout[-3000:]


def test_old_module_paths_still_import_or_name_the_new_place():
    script = """
import sys, nn_legacy
import nn_legacy.t7, nn_legacy.registry, nn_legacy.convert
from nn_legacy.serialization import t7, registry
from nn_legacy.onnx import __main__ as cli
assert nn_legacy.t7 is t7 and nn_legacy.registry is registry and nn_legacy.convert is cli
assert t7.__spec__.name == "nn_legacy.serialization.t7"          # the shared module keeps its own spec
from nn_legacy.t7 import T7Error, load_lua, read_t7
assert T7Error is nn_legacy.serialization.T7Error and load_lua is nn_legacy.load_lua
assert nn_legacy.Convert.__module__ == "nn_legacy.Convert"     # the layer, not the command line
try:
    import nn_legacy._arrays
except ImportError as e:
    assert "nn_legacy._helpers.arrays" in str(e), e
else:
    raise AssertionError("nn_legacy._arrays imported")
"""
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]


@pytest.mark.parametrize("command", ["nn_legacy.onnx", "nn_legacy.convert"])
def test_the_onnx_command_line_runs_under_its_new_and_its_old_name(command):
    run = subprocess.run([sys.executable, "-m", command, "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("usage: python -m nn_legacy.onnx ") and "--input-shape" in run.stdout
