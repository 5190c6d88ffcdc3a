"""Argument checks shared by the padding and resampling modules."""
import numpy as np

from .arrays import is_array, name_of

INT_MAX = 2**31 - 1      # the kernels take C ints


def integer(module, name, value, low=-INT_MAX):
    """value as an int in [low, INT_MAX]: an integer, or a float holding one
    (Torch7 files store every number as a double); ValueError otherwise."""
    whole = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if isinstance(value, (float, np.floating)) and np.isfinite(value) and value == int(value):
        whole = True
    if not whole or not low <= value <= INT_MAX:
        limit = f">= {low}" if low > -INT_MAX else f"within +-{INT_MAX}"
        raise ValueError(f"{name_of(module)}: {name} must be an integer {limit}, got {value!r}")
    return int(value)


def table_of_two(module, value, names, what):
    """value must be a list or tuple of two arrays (``names`` says what
    they are, e.g. "[input, grid]"); returns them."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_array(v) for v in value):
        got = f"a {type(value).__name__}" if not isinstance(value, (list, tuple)) else \
            f"a table of {len(value)}: " + ", ".join(type(v).__name__ for v in value)
        raise TypeError(f"{name_of(module)}: {what} must be a table {names} of two arrays, got {got}")
    return value[0], value[1]
