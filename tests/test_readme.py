"""README.md and the docs pages stay true about what the library has.

They keep no per-layer list: the catalogue (``python -m nn_legacy
--layers``, nn_legacy/demos/catalogue.py), the ONNX forms
(``nn_legacy.onnx.support_table()``) and the twins (thnn/_layers.py) are
derived from the code.  These tests check what the README and the pages under
docs/ say about them, and that the catalogue is complete."""
import fcntl
import glob
import os
import re
import subprocess
import sys

import pytest

import nn_legacy as nn
from nn_legacy.demos import catalogue as _catalogue
from thnn import _header, _layers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def _section(title, page):
    """The text under the heading ``title`` of ``page`` (README.md or a docs page), to the next heading."""
    m = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", _read(page), re.S | re.M)
    assert m, f"{page} has no section {title!r}"
    return m.group(1)


def _classes():
    return sorted(n for n in nn.__all__ if isinstance(getattr(nn, n), type)
                  and issubclass(getattr(nn, n), (nn.Module, nn.Criterion)))


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_layers_section_names_only_classes_that_exist():
    section = _section("The layers", "docs/guides/layers.md")
    named = {n for n in re.findall(r"`(\w+)`", section) if n[:1].isupper()}
    assert len(named) > 40, "the Layers section should name the families' classes"
    missing = sorted(named - set(nn.__all__))
    assert not missing, f"docs/guides/layers.md names classes nn_legacy does not have: {missing}"
    assert "python -m nn_legacy --layers" in section


def test_catalogue_lists_every_class_once_with_its_summary():
    rows = _catalogue.rows()
    names = [r[0] for r in rows]
    assert names == sorted(set(_classes()) - {"Module", "Criterion"}), "the catalogue is not nn_legacy.__all__"
    for name, kind, kernel, cuda, onnx, summary in rows:
        cls = getattr(nn, name)
        assert summary and len(summary) <= _catalogue.SUMMARY_WIDTH, f"{name}: summary {summary!r}"
        assert kernel == (cls._kernel or "-")
        assert kind == ("criterion" if issubclass(cls, nn.Criterion) else
                        "container" if issubclass(cls, nn.Container) else "module"), name
        assert cuda == ("no" if cls._cuda_unsupported else "yes"), name
        assert onnx in (("-",) if kind == "criterion" else ("yes", "no")), name
    assert dict((r[0], r[5]) for r in rows)["Sigmoid"].startswith("Elementwise logistic function")


def test_catalogue_command_prints_it():
    out = subprocess.run([sys.executable, "-m", "nn_legacy", "--layers"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].split() == list(_catalogue.COLUMNS)
    assert [line.split()[0] for line in lines[1:]] == [r[0] for r in _catalogue.rows()]
    assert out.rstrip("\n") == _catalogue.text()


def test_catalogue_command_stops_quietly_when_the_reader_does():
    """``python -m nn_legacy --layers | head``: a closed pipe is no error."""
    read, write = os.pipe()
    fcntl.fcntl(read, 1031, 4096)   # F_SETPIPE_SZ: the catalogue (~40 KB) must not fit, so the writer meets the close
    proc = subprocess.Popen([sys.executable, "-m", "nn_legacy", "--layers"], cwd=ROOT, stdout=write,
                            stderr=subprocess.PIPE)
    os.close(write)
    with os.fdopen(read, "rb") as out:
        out.readline()
    err = proc.stderr.read().decode()
    assert proc.wait() == 0 and err == "", err


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_every_class_runs_on_cuda_as_the_readme_says():
    """"Every module and criterion class runs on the device" (docs/guides/cuda.md): no class says
    it cannot (``_cuda_unsupported``)."""
    claim = "Every module and criterion class runs on the device"
    assert claim in " ".join(_section("Modules on the device", "docs/guides/cuda.md").split())
    cannot = [n for n in _classes() if getattr(nn, n)._cuda_unsupported]
    assert not cannot, f"docs/guides/cuda.md says every class runs on the device, but {cannot} cannot: say which do not"


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_every_layer_has_a_twin_as_the_readme_says():
    assert "Every layer of `thnn_c/generic/THNN.h` has a twin" in " ".join(_section("The kernel twins", "docs/guides/cuda.md").split())
    with open(os.path.join(ROOT, "thnn_c", "generic", "THNN.h"), encoding="ascii") as f:
        functions = _header.parse(f.read())
    import thnn.cuda
    assert list(thnn.cuda.default().layers) == _layers.layers(functions)


def _pages():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(
        os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_readme_quotes_no_count_of_layers():
    """Counts of classes, layers or kernels would need a hand edit per layer:
    the README and the docs quote none (the catalogue counts nothing it does
    not list)."""
    for page in _pages():
        text = _read(page)
        counts = re.findall(r"\b\d+ (?:of \d+ )?(?:module|criterion|layer|kernel|function|class)\w*\b", text)
        counts += re.findall(r"^(?:Containers|Modules|Criterions|Recurrent modules) \(\d+", text, re.M)
        assert not counts, f"{page} quotes counts that a new layer would make false: {counts}"


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_adding_a_layer_says_the_five_places():
    section = " ".join(_section("Adding a layer", "docs/contributing/adding-a-layer.md").split())
    for place in ("thnn_c/generic/<Layer>.c", "thnn_c/generic/THNN.h", "thcunn_cu/generic/<Layer>.cu",
                  "nn_legacy/<Layer>.py", "tests/module_table.py"):
        assert place in section, f"docs/contributing/adding-a-layer.md does not name {place}"
    for hand_list in ("THCUNN.h", "one include line", "one import line"):
        assert hand_list not in section, f"docs/contributing/adding-a-layer.md still asks for {hand_list!r}"
