"""Every Python code block of README.md and of the pages under docs/ runs.

The blocks of one page run in order in one namespace (fresh per page), in a
temporary directory holding ``model.t7``, ``input.t7`` and ``expected.t7``
(tests/data/t7/cpptorch/: a network written by Torch7, its input and its
recorded output), so that the Torch7 examples open a real file.  A class a
block registers with ``nn.register_class`` is unregistered after the block.  Each block
is one test, named after its page and line.  An HTML comment on the line
before a block says what it needs (docs/contributing/docs.md):

    <!-- doctest: requires onnx onnxruntime -->   skipped, naming the package, when one is missing
    <!-- doctest: skip REASON -->                  never run here; REASON is shown

In CI a skip counts only for what tests/skip_guard.py accepts (an optional
package, a GPU): a REASON must name one of those.
"""
import glob
import importlib.util
import os
import re
import shutil
import sys

import pytest

pytestmark = pytest.mark.source_tree   # reads the docs pages and README.md (tests/source_tree_guard.py)

import nn_legacy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T7_FIXTURES = {"model.t7": "net.t7", "input.t7": "x.t7", "expected.t7": "y.t7"}

_FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
_DIRECTIVE = re.compile(r"<!--\s*doctest:\s*(requires|skip)\s*(.*?)\s*-->\s*$")


def pages():
    found = [os.path.join(ROOT, "README.md")]
    found += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return [os.path.relpath(p, ROOT) for p in found]


def blocks(text):
    """(line, code, directive, argument) of each ```python block of a page."""
    found = []
    for m in _FENCE.finditer(text):
        if m.group(1) != "python":
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        d = _DIRECTIVE.search(before)
        found.append((line, m.group(2), d.group(1) if d else None, d.group(2) if d else ""))
    return found


def _cases():
    cases = []
    for page in pages():
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = f.read()
        for line, code, directive, argument in blocks(text):
            cases.append(pytest.param(page, line, code, directive, argument, id=f"{page}:{line}"))
    return cases


class _Page:
    def __init__(self, tmp):
        self.namespace = {"__name__": "__docs__"}
        self.ran = set()     # the lines of the examples run
        self.dir = tmp
        self.failed = None
        for name, source in T7_FIXTURES.items():
            shutil.copy(os.path.join(ROOT, "tests", "data", "t7", "cpptorch", source), os.path.join(tmp, name))


_PAGES = {}


def test_the_collector_finds_the_examples():
    found = {case.values[0] for case in _cases()}
    assert "README.md" in found and "docs/guides/torch7-migration.md" in found, sorted(found)
    directives = [case.values[3] for case in _cases()]
    assert directives.count(None) > len(directives) // 2, "most examples must run everywhere"


def test_the_directive_is_read_from_the_line_before():
    text = "x\n<!-- doctest: requires onnx -->\n```python\nimport onnx\n```\n```sh\nls\n```\n```python\n1\n```\n"
    assert [(b[0], b[2], b[3]) for b in blocks(text)] == [(3, "requires", "onnx"), (9, None, "")]


_REFERENCE_LINK = re.compile(r"\]\[([^\]\n]+)\]")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[([^\]\n]+)\]:", re.M)


@pytest.mark.parametrize("page", pages() + ["benchmarks/README.md", "benchmarks/inference-log.md", "SECURITY.md"])
def test_no_stray_reference_link(page):
    """`[a][b]` outside code is a reference-style link: mkdocs --strict fails
    the build when nothing defines [b] (CI did, on a layout written in prose)."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    prose = re.sub(r"`[^`\n]*`", "", _FENCE.sub("", text))
    defined = {d.lower() for d in _LINK_DEFINITION.findall(text)}
    stray = [m for m in _REFERENCE_LINK.findall(prose) if m.lower() not in defined]
    assert not stray, f"{page}: [..][x] with no [x]: definition (put it in backticks): {stray}"


def test_the_reference_documents_every_public_name():
    """The layer pages are generated from nn_legacy.__all__ (docs/hooks/pages.py);
    the other public names each have a ``:::`` entry or a page of their own."""
    import importlib.util as iu
    nn = nn_legacy
    spec = iu.spec_from_file_location("docs_pages", os.path.join(ROOT, "docs", "hooks", "pages.py"))
    pages_hook = iu.module_from_spec(spec)
    spec.loader.exec_module(pages_hook)
    generated = pages_hook.layer_pages()
    documented = {m for text in generated.values() for m in re.findall(r'heading: "nn_legacy\.(\w+)"', text)}
    for path in glob.glob(os.path.join(ROOT, "docs", "reference", "*.md")):
        with open(path, encoding="utf-8") as f:
            documented |= set(re.findall(r"^::: nn_legacy\.(\w+)\s*$", f.read(), re.M))
    documented |= {"optim", "jacobian", "__version__"}   # reference/optim.md (generated), reference/jacobian.md
    missing = sorted(set(nn.__all__) - documented)
    assert not missing, f"the API reference leaves out {missing}"
    assert "::: nn_legacy.optim.sgd." in pages_hook.optim_page()


def _missing(directive, argument):
    """The modules a `requires` example needs that are not installed."""
    if directive != "requires":
        return []
    return [name for name in argument.split() if importlib.util.find_spec(name) is None]


def _run_block(state, page, line, code, monkeypatch):
    monkeypatch.chdir(state.dir)
    registry = sys.modules[nn_legacy.register_class.__module__]
    registered = set(registry.registered_classes())
    try:
        exec(compile(code, f"{page}:{line}", "exec"), state.namespace)
    except BaseException:
        state.failed = line
        raise
    finally:   # a class an example registers (nn.register_class) must not reach the other tests
        for name in set(registry.registered_classes()) - registered:
            registry.unregister_class(name)
    state.ran.add(line)


@pytest.mark.parametrize("page,line,code,directive,argument", _cases())
def test_example(page, line, code, directive, argument, tmp_path_factory, monkeypatch):
    state = _PAGES.get(page)
    if state is None:
        state = _PAGES[page] = _Page(str(tmp_path_factory.mktemp("docs")))
    if directive == "skip":
        assert argument, f"{page}:{line}: a skipped example must say why"
        pytest.skip(f"{page}:{line}: {argument}")
    missing = _missing(directive, argument)
    if missing:   # worded as pytest.importorskip words it, which tests/skip_guard.py accepts in CI
        pytest.skip(f"could not import {', '.join(repr(m) for m in missing)}: {page}:{line} needs it")
    # A page's examples build on each other.  Under pytest-xdist (or -k) this
    # process may not have run the ones above: run them first, in order.
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        earlier = [b for b in blocks(f.read()) if b[0] < line and b[0] not in state.ran]
    for before, before_code, before_directive, before_argument in earlier:
        if state.failed:
            break
        if before_directive != "skip" and not _missing(before_directive, before_argument):
            try:
                _run_block(state, page, before, before_code, monkeypatch)
            except BaseException:
                pass   # reported below, as the example that failed first
    if state.failed:
        pytest.fail(f"{page}:{line}: not run, the example at line {state.failed} of the page failed")
    _run_block(state, page, line, code, monkeypatch)
