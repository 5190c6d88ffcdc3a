"""The hand-kept lists and the project's structure, checked against the files.

- thnn_c/init.c includes every layer file of thnn_c/generic once, and
  thcunn_cu/init.cu every .cu file of thcunn_cu/generic once: a new layer
  file left out of the list fails here, not as a missing symbol at load time.
- Every layer file compiles on its own (the helpers it shares with others are
  generic headers it includes), so the order of init.c does not matter.
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

import nn_legacy as nn
import thnn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDED = re.compile(r'#define TH_GENERIC_FILE "(generic/[^"]+)"')


def _included(path):
    with open(path, encoding="ascii") as f:
        return INCLUDED.findall(f.read())


def _layer_files(folder, ext, top_level):
    """generic/<file> of folder, less those the top-level sources include themselves."""
    files = {f"generic/{os.path.basename(p)}" for p in glob.glob(os.path.join(ROOT, folder, "generic", f"*.{ext}"))}
    for source in glob.glob(os.path.join(ROOT, folder, f"*.{top_level}")):
        if os.path.basename(source) not in ("init.c", "init.cu"):
            files -= set(_included(source))
    return files


@pytest.mark.parametrize("init, folder, ext, top_level", [("thnn_c/init.c", "thnn_c", "c", "c"),
                                                          ("thcunn_cu/init.cu", "thcunn_cu", "cu", "cu")])
def test_init_includes_every_layer_file_once(init, folder, ext, top_level):
    listed = [f for f in _included(os.path.join(ROOT, init)) if f.endswith(f".{ext}")]
    assert len(listed) == len(set(listed)), f"{init} includes twice: {sorted({f for f in listed if listed.count(f) > 1})}"
    files = _layer_files(folder, ext, top_level)
    assert set(listed) == files, (f"{init} misses {sorted(files - set(listed))}, "
                                  f"names files that are not there: {sorted(set(listed) - files)}")


def test_every_layer_file_compiles_on_its_own():
    """Each file alone (both element types), as if it came first in init.c."""
    compiler = sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc"
    import scipy_openblas32
    failures = []
    for name in sorted(_layer_files("thnn_c", "c", "c")):
        source = ('#include "THNN.h"\n#include <math.h>\n#include <string.h>\n'
                  f'#define TH_GENERIC_FILE "{name}"\n#include "THGenerateFloatTypes.h"\n')
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
