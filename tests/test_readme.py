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
