"""Argument checks shared by module constructors and table-input modules."""
import numpy as np


def check_positive(layer, **sizes):
    """ValueError naming the layer and every size unless all are positive integers."""
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v > 0 for v in sizes.values()):
        raise ValueError(f"{layer}: {', '.join(sizes)} must be positive integers, got "
                         + ", ".join(f"{k}={v!r}" for k, v in sizes.items()))


def check_table(layer, what, value, names):
    """value as a list of len(names) entries, or a TypeError naming the layer and the layout."""
    if isinstance(value, (list, tuple)) and len(value) == len(names):
        return list(value)
    got = f"a {type(value).__name__} of {len(value)}" if isinstance(value, (list, tuple)) else type(value).__name__
    raise TypeError(f"{layer}: {what} must be a list [{', '.join(names)}], got {got}")
