"""The lists the build derives from the files, and the project's structure.

- Every generic file is a layer file (named after a layer of THNN.h; the
  build compiles it from the generated list, thnn/_layers.py) or a helper
  that a top-level source includes by hand, never both, never neither: a new
  file that is neither fails here, not as a missing symbol at load time.
- Every layer of THNN.h has a CUDA twin, and the libraries were built with
  the twins the files say.
- A layer file that misses a kernel of its layer stops the build, naming it.
- Every layer file compiles on its own (the helpers it shares with others are
  generic headers it includes), so the order of the generated list does not
  matter.
- nn_legacy's classes are its capitalised files, one class each, and a
  capitalised file without its class fails the import.
- nn_legacy's Module and Criterion do not import each other.
- Every class that runs THNN kernels names them once, in ``_kernel``.
"""
import glob
import os
import re
import subprocess
import sys
import sysconfig

import pytest

pytestmark = pytest.mark.source_tree   # reads the layout of the checkout (tests/source_tree_guard.py)

import nn_legacy as nn
import thnn
from thnn import _header, _layers

from cuda_devices import any_device

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDED = re.compile(r'#define TH_GENERIC_FILE "(generic/[^"]+)"')
with open(os.path.join(ROOT, "thnn_c", "generic", "THNN.h"), encoding="ascii") as _f:
    FUNCTIONS = _header.parse(_f.read())


def _included(path):
    with open(path, encoding="ascii") as f:
        return INCLUDED.findall(f.read())


@pytest.mark.parametrize("kind", [_layers.CPU, _layers.CUDA], ids=["thnn_c", "thcunn_cu"])
def test_every_generic_file_is_a_layer_or_an_included_helper(kind):
    folder, ext, _, _ = kind
    files = {f"generic/{os.path.basename(p)}" for p in glob.glob(os.path.join(folder, "generic", f"*.{ext}"))}
    layer_files = {f"generic/{name}.{ext}" for name in _layers.layer_files(FUNCTIONS, kind)}
    helpers = [f for source in sorted(glob.glob(os.path.join(folder, f"*.{ext}")))
               for f in _included(source) if f.endswith(f".{ext}")]
    name = os.path.basename(folder)
    assert len(helpers) == len(set(helpers)), f"{name}: helpers included twice: " \
        f"{sorted({f for f in helpers if helpers.count(f) > 1})}"
    assert not layer_files & set(helpers), (f"{name}: layer files are compiled from the generated list, "
                                            f"not included by hand: {sorted(layer_files & set(helpers))}")
    neither = files - layer_files - set(helpers)
    assert not neither, (f"{name}: {sorted(neither)} are not named after a layer THNN.h declares and no "
                         f"top-level source includes them")
    assert set(helpers) <= files, f"{name}: included but not there: {sorted(set(helpers) - files)}"


def test_every_layer_has_a_cuda_twin():
    assert _layers.layer_files(FUNCTIONS, _layers.CUDA) == _layers.layers(FUNCTIONS), \
        f"layers without a thcunn_cu/generic/<Layer>.cu: " \
        f"{sorted(set(_layers.layers(FUNCTIONS)) - set(_layers.layer_files(FUNCTIONS, _layers.CUDA)))}"


def test_the_libraries_have_the_twins_of_the_files():
    """The twins the CUDA library binds are those the files give (a stale
    build, or a list read wrongly, shows here)."""
    assert any_device().layers == tuple(_layers.layer_files(FUNCTIONS, _layers.CUDA))
    assert {f.name for f in any_device().functions} == {f.name for f in FUNCTIONS}


def _texts(kind, edit=None):
    folder, ext, _, _ = kind
    texts = {}
    for path in glob.glob(os.path.join(folder, "generic", f"*.{ext}")):
        with open(path, encoding="ascii") as f:
            texts[os.path.basename(path)] = f.read()
    if edit:
        edit(texts)
    return texts


@pytest.mark.parametrize("kind", [_layers.CPU, _layers.CUDA], ids=["thnn_c", "thcunn_cu"])
def test_a_layer_file_missing_a_kernel_stops_the_build(kind):
    ext = kind[1]
    assert _layers.layer_files(FUNCTIONS, kind, _texts(kind)) == _layers.layer_files(FUNCTIONS, kind)

    def drop(texts):   # PReLU's file without its accGradParameters
        texts[f"PReLU.{ext}"] = texts[f"PReLU.{ext}"].replace("THNN_(PReLU_accGradParameters)",
                                                              "THNN_(PReLU_accGradParametersGone)")
    with pytest.raises(ValueError, match=rf"generic/PReLU\.{ext} does not define PReLU_accGradParameters"):
        _layers.layer_files(FUNCTIONS, kind, _texts(kind, drop))


def test_a_layer_without_its_c_file_stops_the_build():
    with pytest.raises(ValueError, match=r"declares the layer Sqrt, but thnn_c/generic/Sqrt\.c does not exist"):
        _layers.layer_files(FUNCTIONS, _layers.CPU, _texts(_layers.CPU, lambda texts: texts.pop("Sqrt.c")))
    # a layer without a twin file simply has no twin
    assert "Sqrt" not in _layers.layer_files(FUNCTIONS, _layers.CUDA,
                                             _texts(_layers.CUDA, lambda texts: texts.pop("Sqrt.cu")))


def test_the_generated_lists_are_sorted_and_included():
    for kind in (_layers.CPU, _layers.CUDA):
        names = _layers.layer_files(FUNCTIONS, kind)
        assert names == sorted(names)
        text = _layers.includes_text(names, kind)
        assert [f for f in INCLUDED.findall(text)] == [f"generic/{n}.{kind[1]}" for n in names]
    with open(os.path.join(ROOT, "thnn_c", "init.c"), encoding="ascii") as f:
        assert '#include "THNN_layers.h"' in f.read()
    with open(os.path.join(ROOT, "thcunn_cu", "init.cu"), encoding="ascii") as f:
        assert '#include "THCUNN_layers.h"' in f.read()


def test_every_layer_file_compiles_on_its_own():
    """Each file alone (both element types), as if it came first in the generated list."""
    compiler = sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc"
    import scipy_openblas32
    failures = []
    for name in _layers.layer_files(FUNCTIONS, _layers.CPU):
        source = ('#include "THNN.h"\n#include <math.h>\n#include <string.h>\n'
                  f'#define TH_GENERIC_FILE "generic/{name}.c"\n#include "THGenerateFloatTypes.h"\n')
        result = subprocess.run([compiler, "-std=gnu11", "-fsyntax-only", "-fopenmp", "-Werror", "-Wall",
                                 "-Wno-unused-function", "-I", os.path.join(ROOT, "thnn_c"),
                                 "-I", scipy_openblas32.get_include_dir(), "-x", "c", "-"],
                                input=source, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"{name}:\n{result.stderr[:600]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("first, second", [("Criterion", "Module"), ("Module", "Criterion")])
def test_module_and_criterion_do_not_import_each_other(first, second):
    # importing the package imports both: import the one file under an empty package
    code = (f"import sys, types; sys.path.insert(0, {ROOT!r}); pkg = types.ModuleType('nn_legacy'); "
            f"pkg.__path__ = [{os.path.join(ROOT, 'nn_legacy')!r}]; sys.modules['nn_legacy'] = pkg; "
            f"import nn_legacy.{first}; sys.exit(int('nn_legacy.{second}' in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0, \
        f"importing nn_legacy.{first} imports nn_legacy.{second}"


def _classes():
    return [getattr(nn, name) for name in nn.__all__
            if isinstance(getattr(nn, name), type) and issubclass(getattr(nn, name), (nn.Module, nn.Criterion))]


@pytest.mark.parametrize("cls", _classes(), ids=lambda c: c.__name__)
def test_kernel_names_are_declared_once(cls):
    """A class that calls THNN kernels names them in _kernel (inherited by its
    subclasses) and calls no kernel of another name; _kernel names kernels that exist."""
    import inspect
    functions = {f.name for f in thnn.FUNCTIONS}
    if cls._kernel is not None:
        assert f"{cls._kernel}_updateOutput" in functions, f"{cls.__name__}._kernel = {cls._kernel!r}: no such kernel"
    own = inspect.getsource(inspect.getmodule(cls))
    called = set(re.findall(r"\.([A-Z]\w*?)_(?:updateOutput|updateGradInput|accGradParameters|accUpdateGradParameters)\(",
                            own))
    called = {name for name in called if f"{name}_updateOutput" in functions}
    assert called <= {cls._kernel}, f"{cls.__name__} calls the kernels of {sorted(called)} but names {cls._kernel!r}"


def test_the_classes_are_the_capitalised_files():
    """nn_legacy.<Name> is the class of nn_legacy/<Name>.py, for every
    capitalised file, and the package exports no other class."""
    files = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "nn_legacy", "[A-Z]*.py")))
    files = sorted(files + ["gModule"])     # nngraph's class keeps its lower-case Torch7 name
    for name in files:
        cls = getattr(nn, name)
        assert isinstance(cls, type) and cls.__module__ == f"nn_legacy.{name}", f"nn_legacy.{name} is {cls!r}"
    exported = sorted(n for n in nn.__all__ if isinstance(getattr(nn, n), type)
                      and not issubclass(getattr(nn, n), Warning) and n != "FormatError")
    assert exported == files


# beside the layers, nn_legacy/ holds only these (docs/contributing/architecture.md says what each is)
TOOL_FILES = {"__init__.py", "__main__.py", "jacobian.py", "fold.py"}
SUBPACKAGES = {"_helpers", "_bases", "serialization", "onnx", "optim", "distributed", "demos", "sample"}


def _tracked(folder=""):
    """The project's files under folder: git's list, or, in a copy of the
    tree that git does not track (make asan's build/asan), the files on
    disk less what Python and the build leave there."""
    out = subprocess.run(["git", "ls-files", "-z", "--", *([folder] if folder else [])], cwd=ROOT,
                         capture_output=True)
    paths = [p for p in out.stdout.decode().split("\0") if p] if out.returncode == 0 else []
    if paths:
        return paths
    found = []
    for where, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "build", ".venv")]
        found += [os.path.relpath(os.path.join(where, f), ROOT) for f in files if not f.endswith((".pyc", ".so"))]
    return found


def test_nn_legacy_is_the_layers_and_named_subpackages():
    """Every file of nn_legacy/ is a layer (capitalised) or one of the four
    tool files; every folder is a subpackage of the architecture (and has an
    __init__.py, so that a non-editable install ships it)."""
    top = {p.split("/", 2)[1] for p in _tracked("nn_legacy")}
    folders = {name for name in top if os.path.isdir(os.path.join(ROOT, "nn_legacy", name))}
    files = top - folders
    assert folders == SUBPACKAGES, f"folders of nn_legacy/: {sorted(folders)}, expected {sorted(SUBPACKAGES)}"
    stray = sorted(f for f in files if f not in TOOL_FILES and f != "gModule.py"    # (nngraph's lower-case name)
                   and not (f[:1].isupper() and f.endswith(".py")))
    assert not stray, f"nn_legacy/{stray[0]}: a file beside the layers is a layer (Name.py) or goes in a subpackage"
    for name in folders:
        assert os.path.isfile(os.path.join(ROOT, "nn_legacy", name, "__init__.py")), f"nn_legacy/{name}/__init__.py"


def _case_collisions(paths):
    """Pairs of paths (or of their folders: a/B and a/b collide too) that differ only by case."""
    seen, pairs = {}, []
    for path in paths:
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            other = seen.setdefault(prefix.lower(), prefix)
            if other != prefix:
                pairs.append((other, prefix))
    return pairs


def test_no_two_tracked_paths_differ_only_by_case():
    """On a case-insensitive file system (macOS, Windows) such paths are one
    file: a checkout would lose one (nn_legacy/convert.py and Convert.py were)."""
    assert _case_collisions(["nn_legacy/Convert.py", "nn_legacy/convert.py", "a/B/x", "a/b/y", "a/c"]) == [
        ("nn_legacy/Convert.py", "nn_legacy/convert.py"), ("a/B", "a/b")]
    assert not _case_collisions(_tracked())
