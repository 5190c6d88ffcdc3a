"""Argument checks and Torch7-file fixups shared by the volumetric
convolutions and the spatial convolutions with untied weights or connection
tables (the math is in each class's docstring)."""
import operator

import numpy as np

from .checks import check_positive
from . import spatial as _spatial


def non_negative(layer, **values):
    """The values as ints; ValueError naming the layer and every value unless
    all are integers >= 0 (bools are not integers here)."""
    ok = True
    for value in values.values():
        try:
            ok = ok and not isinstance(value, bool) and operator.index(value) >= 0
        except TypeError:
            ok = False
    if not ok:
        raise ValueError(f"{layer}: {', '.join(values)} must be non-negative integers, got "
                         + ", ".join(f"{k}={v!r}" for k, v in values.items()))
    return tuple(int(v) for v in values.values())


def positive(layer, **values):
    """check_positive, returning the values as a tuple of ints."""
    check_positive(layer, **values)
    return tuple(int(v) for v in values.values())


def check_adj(layer, adj, steps, dilations=None):
    """Output paddings (adjT, adjW, adjH) must be smaller than the steps (dT,
    dW, dH), or than the dilations when given (the rule of the dilated full
    convolutions)."""
    names = ", ".join(adj)
    bound = "the stride or the dilation" if dilations else "the stride"
    limits = [(a, s, d) for a, s, d in zip(adj.values(), steps.values(), (dilations or steps).values())]
    if not all(a < s or a < d for a, s, d in limits):
        shown = list(adj.items()) + list(steps.items()) + list((dilations or {}).items())
        got = ", ".join(f"{k}={v}" for k, v in shown)
        raise ValueError(f"{layer}: {names} must be smaller than {bound}, got {got}")


def output_size(size, k, step, pad, dilation=1):
    """Positions of a kernel of k taps, dilation apart, along an axis of
    `size` voxels padded by `pad` at both ends (< 1 when it does not fit)."""
    room = size + 2 * pad - (k - 1) * dilation - 1
    return room // step + 1 if room >= 0 else 0


t7_ints = _spatial.t7_ints    # Lua numbers -> ints, as the spatial convolutions do


def t7_defaults(module, **defaults):
    """Fields that older Torch7 files do not have."""
    for name, value in defaults.items():
        if getattr(module, name, None) is None:
            setattr(module, name, value)


def t7_drop_buffers(module, *names):
    """Torch7's work buffers (finput, fgradInput, _input, ...) are not ours:
    set the module's own to None and drop the others."""
    for name in ("finput", "fgradInput", "_input", "_gradOutput", "ones", "columns"):
        module.__dict__.pop(name, None)
    for name in names:
        setattr(module, name, None)


def t7_weight(module, shape):
    """Torch7 may save the weight in a 2D or 3D view of its memory: give it
    (and a zero gradient) the module's layout."""
    module.weight = np.ascontiguousarray(module.weight).reshape(shape)
    module.gradWeight = np.zeros_like(module.weight)
