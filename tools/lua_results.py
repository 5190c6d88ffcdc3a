"""What the real-Lua checks (tools/nngraph_lua_check.py, tools/bisequencer_lua_check.py) share: Lua's
results, read back with load_lua, compared with nn_legacy's."""
import numpy as np


def as_list(v):
    """A Lua table read back (a dict keyed 1, 2, ... or a list), nested, as Python lists in key order."""
    if isinstance(v, dict):
        return [as_list(v[k]) for k in sorted(v)]
    return [as_list(x) for x in v] if isinstance(v, list) else v


def relative_error(a, b):
    """The largest difference relative to max(1, |b|), nested; inf when the layouts differ."""
    a, b = as_list(a), as_list(b)
    if isinstance(b, list):
        if not isinstance(a, list) or len(a) != len(b):
            return float("inf")
        return max([relative_error(x, y) for x, y in zip(a, b)], default=0.0)
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(a - b).max(initial=0)) / max(1.0, float(np.abs(b).max(initial=0)))
