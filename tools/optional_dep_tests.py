"""Lists the test files that use an optional package (torch, onnx,
onnxruntime, mpi4py): those that import one themselves, and those that call
a helper of tests/ that does (found by name, to a fixed point: a helper that
calls such a helper counts too).  .ci/run runs these files a second time
with the packages hidden (tests/without_optional/sitecustomize.py), which
proves the README's promise that the suite passes without them.

    python tools/optional_dep_tests.py [TESTS_DIR]   # one path a line"""
import ast
import os
import re
import sys

OPTIONAL = re.compile(r"""\b(import|from)\s+(torch|onnx|onnxruntime|mpi4py)\b|importorskip\(\s*["'](torch|onnx|onnxruntime|mpi4py)\b|\bmpiexec\b""")


def _functions(tree):
    """{name: source-level nodes} of a helper module's functions (top level and methods)."""
    return {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _names(node):
    """Every bare name and attribute name used under node."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


def optional_tests(tests_dir):
    files = sorted(f for f in os.listdir(tests_dir) if f.endswith(".py"))
    source = {f: open(os.path.join(tests_dir, f), encoding="utf-8").read() for f in files}
    trees = {f: ast.parse(text) for f, text in source.items()}
    # helpers' functions that use an optional package, then those that call them
    users = set()
    helpers = {f: _functions(trees[f]) for f in files if not f.startswith("test_")}
    changed = True
    while changed:
        changed = False
        for f, funcs in helpers.items():
            for name, node in funcs.items():
                if name in users:
                    continue
                if OPTIONAL.search(ast.get_source_segment(source[f], node) or "") or _names(node) & users:
                    users.add(name)
                    changed = True
    return [os.path.join(tests_dir, f) for f in files if f.startswith("test_")
            and (OPTIONAL.search(source[f]) or _names(trees[f]) & users)]


if __name__ == "__main__":
    print("\n".join(optional_tests(sys.argv[1] if len(sys.argv) > 1 else "tests")))
