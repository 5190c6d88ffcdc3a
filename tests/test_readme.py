"""README.md stays true about what the library has."""
import os
import re

import nn_legacy as nn

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


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
