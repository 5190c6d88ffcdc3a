"""What the pooling modules share: integer arguments and the repair of
fields read from Torch7 files (not a layer itself)."""
import numbers

import numpy as np


def integer(layer, name, value):
    """value as an int; TypeError naming the layer and argument for anything
    that is not a whole number (Torch7 files hold sizes as Lua floats, 2.0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != int(value):
        raise TypeError(f"{layer}: {name} must be an integer, got {value!r}")
    return int(value)


def t7_fields(module, ints=(), defaults=None):
    """Torch7 fields as this module keeps them: the named sizes as ints, the
    fields older Torch7 versions did not have set to their defaults (those
    of the Lua constructor) and the flags as bools.  Indices Torch7 left
    behind are dropped (they counted from 1, in formats that changed between
    versions; the next forward recomputes them)."""
    layer = type(module).__name__
    for name, value in (defaults or {}).items():
        if getattr(module, name, None) is None:
            setattr(module, name, value)
    for name in ints:
        setattr(module, name, integer(layer, name, getattr(module, name)))
    for name in ("ceil_mode", "count_include_pad", "divide", "newRandomPool", "batch_mode"):
        if hasattr(module, name):
            setattr(module, name, bool(getattr(module, name)))
    if "indices" in vars(module):
        module.indices = None


def onnx_unpool(module, g, x):
    """The ONNX mapping of SpatialMaxUnpooling and VolumetricMaxUnpooling:
    MaxUnpool with the indices its pooling module's MaxPool gave (that
    module's mapping leaves them in g.memo), to the pooling's input size.
    A pooling that is not part of the graph ran before, elsewhere: the
    indices of that run are constants (and fix the batch)."""
    pooling = module.pooling
    kernel = ([pooling.kT] if hasattr(pooling, "kT") else []) + [pooling.kH, pooling.kW]
    if id(pooling) in g.memo:
        indices, pooled = g.memo[id(pooling)]
        size = g.op("Shape", [pooled])
    else:
        # offsets within each plane, as the forward used them: made global as MaxPool gives them
        local, n = module.indices, len(kernel)
        space = tuple(int(getattr(module, f"o{s}")) for s in ("time", "height", "width")[3 - n:])
        planes = local.shape[:-n]
        offsets = np.arange(int(np.prod(planes))).reshape(planes + (1,) * n) * int(np.prod(space))
        indices, size = g.const(local + offsets, "indices"), g.ints(planes + space)
    if x.ndim == len(kernel) + 1:   # one sample: the pooling's indices and size given a batch of one
        indices = g.op("Unsqueeze", [indices, g.ints([0])])
        size = g.op("Concat", [g.ints([1]), size], axis=0)
    return g.with_batch(x, len(kernel) + 2, lambda v: g.op("MaxUnpool", [v, indices, size], kernel_shape=kernel,
                                                           strides=kernel))
