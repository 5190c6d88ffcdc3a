"""README.md stays true about what the library has.

``python tests/test_readme.py`` prints the CUDA module table to paste."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":   # (run as a script: the package is found next to tests/)
    sys.path.insert(0, ROOT)

import nn_legacy as nn  # noqa: E402

README = os.path.join(ROOT, "README.md")


def test_layer_list_names_every_module_and_criterion():
    with open(README, encoding="utf-8") as f:
        listed = set(re.findall(r"`(\w+)`", f.read()))
    classes = [n for n in nn.__all__ if isinstance(getattr(nn, n), type) and n != "FormatError"]
    missing = sorted(set(classes) - listed - {"Module", "Criterion", "Container"})
    assert not missing, f"README.md's Layers section does not name {missing}"


def test_cuda_table_is_current():
    import thnn.cuda
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- cuda-table-begin -->\n(.*?)\n<!-- cuda-table-end -->", text, re.S)
    assert m, "README.md has no CUDA table between <!-- cuda-table-begin --> and <!-- cuda-table-end -->"
    assert m.group(1) == thnn.cuda.status_table(), (
        "README.md's CUDA table is out of date: paste the output of "
        "python -c 'import thnn.cuda; print(thnn.cuda.status_table())'")


def cuda_modules_table():
    """README's table of the module classes on a CUDA device, from the code:
    every concrete class and its ``_cuda_unsupported`` (tests/test_cuda_modules.py
    runs each class on the device against the host)."""
    classes = sorted((n, getattr(nn, n)) for n in nn.__all__
                     if isinstance(getattr(nn, n), type) and issubclass(getattr(nn, n), (nn.Module, nn.Criterion))
                     and n not in ("Module", "Criterion", "Container"))
    cells = [(f"`{n}`", "yes" if not cls._cuda_unsupported else f"no: {cls._cuda_unsupported}") for n, cls in classes]
    per_row = 4
    rows = ["| " + " | ".join(["module | CUDA"] * per_row) + " |", "|" + "---|" * (2 * per_row)]
    for i in range(0, len(cells), per_row):
        chunk = cells[i:i + per_row] + [("", "")] * (per_row - len(cells[i:i + per_row]))
        rows.append("| " + " | ".join(f"{a} | {b}" for a, b in chunk) + " |")
    unsupported = [n for n, cls in classes if cls._cuda_unsupported]
    rows.append(f"\n{len(classes) - len(unsupported)} of {len(classes)} module and criterion classes run on a "
                f"CUDA device" + (f"; {', '.join(unsupported)} cannot (the reason is in the table)."
                                  if unsupported else "."))
    return "\n".join(rows)


def test_cuda_modules_table_is_current():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- cuda-modules-begin -->\n(.*?)\n<!-- cuda-modules-end -->", text, re.S)
    assert m, "README.md has no module table between <!-- cuda-modules-begin --> and <!-- cuda-modules-end -->"
    assert m.group(1) == cuda_modules_table(), (
        "README.md's CUDA module table is out of date: paste the output of python tests/test_readme.py")


if __name__ == "__main__":
    print(cuda_modules_table())
