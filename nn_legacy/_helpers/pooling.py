"""What the pooling modules share: integer arguments and the repair of
fields read from Torch7 files (not a layer itself)."""
import math
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
        offsets = np.arange(int(math.prod(planes))).reshape(planes + (1,) * n) * int(math.prod(space))
        indices, size = g.const(local + offsets, "indices"), g.ints(planes + space)
    if x.ndim == len(kernel) + 1:   # one sample: the pooling's indices and size given a batch of one
        indices = g.op("Unsqueeze", [indices, g.ints([0])])
        size = g.op("Concat", [g.ints([1]), size], axis=0)
    return g.with_batch(x, len(kernel) + 2, lambda v: g.op("MaxUnpool", [v, indices, size], kernel_shape=kernel,
                                                           strides=kernel))


def plane_indices_to_t7(fields):
    """save_lua: a spatial max pooling's indices (flat within the plane,
    0-based) as Torch7's THNN kept them: a LongTensor of the same flat
    indices counted from 1 (what its SpatialMaxUnpooling reads)."""
    from .arrays import to_host
    indices = fields.get("indices")
    if indices is not None:
        fields["indices"] = np.asarray(to_host(indices)).astype(np.int64) + 1


def plane_indices_from_t7(module, raw):
    """load_lua: a spatial max pooling's indices as Torch7's THNN left them
    (the same shape as the output, flat within the plane, counted from 1,
    beside the input size ``iheight, iwidth`` that a SpatialMaxUnpooling
    made it record), 0-based; None for anything else (the two-plane
    window offsets of nn before 2016, a damaged or hostile file): only
    indices that each point into their own window are kept, so that an
    unpooling never reads or writes outside the plane."""
    fields = vars(module)
    ih, iw = fields.get("iheight"), fields.get("iwidth")
    if not isinstance(raw, np.ndarray) or raw.ndim not in (3, 4) or raw.size == 0 or raw.dtype.kind not in "iuf":
        return None
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) and v == int(v) and v >= 1 for v in (ih, iw)):
        return None
    ih, iw = int(ih), int(iw)
    if raw.dtype.kind == "f" and not (np.all(np.isfinite(raw)) and np.all(raw == np.floor(raw))):
        return None
    if np.min(raw) < 1 or np.max(raw) > ih * iw:
        return None
    idx = raw.astype(np.int64) - 1
    dil_h, dil_w = int(fields.get("dilationH", 1)), int(fields.get("dilationW", 1))
    return _checked_windows(idx, iw, module, dil_h, dil_w)


def _checked_windows(idx, iw, module, dil_h, dil_w):
    """idx if every index lies in its own window (with the dilation's gaps), else None."""
    oh, ow = idx.shape[-2:]
    y, x = idx // iw, idx % iw
    dy = y - (np.arange(oh) * module.dH - module.padH)[:, None]
    dx = x - (np.arange(ow) * module.dW - module.padW)[None, :]
    ok = ((dy >= 0) & (dy <= (module.kH - 1) * dil_h) & (dy % dil_h == 0)
          & (dx >= 0) & (dx <= (module.kW - 1) * dil_w) & (dx % dil_w == 0))
    return idx if bool(np.all(ok)) else None


def _window_starts(module, shape):
    """The first input position of each output position's window along
    time, height and width (broadcastable over indices of this shape)."""
    ot, oh, ow = shape[-3:]
    return ((np.arange(ot) * module.dT - module.padT)[:, None, None],
            (np.arange(oh) * module.dH - module.padH)[None, :, None],
            (np.arange(ow) * module.dW - module.padW)[None, None, :])


def _dilations(module):
    fields = vars(module)
    return tuple(int(fields.get(n, 1)) for n in ("dilationT", "dilationH", "dilationW"))


def volume_indices_to_t7(module, fields):
    """save_lua: a volumetric max pooling's indices (flat within the
    volume, 0-based) as Torch7's THNN kept them: the offsets (t, y, x) of
    the maximum within its window, counted in dilation steps, in bytes 0, 1
    and 2 of each element of a LongTensor (what its VolumetricMaxUnpooling
    reads)."""
    from .arrays import to_host
    indices = fields.get("indices")
    if indices is None:
        return
    idx = np.asarray(to_host(indices)).astype(np.int64)
    ih, iw = int(module.iheight), int(module.iwidth)
    starts = _window_starts(module, idx.shape)
    offsets = [(pos - start) // dil for pos, start, dil in
               zip((idx // (ih * iw), idx // iw % ih, idx % iw), starts, _dilations(module))]
    fields["indices"] = offsets[0] | offsets[1] << 8 | offsets[2] << 16


def volume_indices_from_t7(module, raw):
    """load_lua: Torch7's packed window offsets (see volume_indices_to_t7;
    the low three bytes of each element, of whatever element type: before
    2016 the indices were a float tensor) as flat 0-based indices; None for
    anything else (no input size recorded, an offset outside its window or
    a position outside the volume: a damaged or hostile file)."""
    fields = vars(module)
    sizes = [fields.get(n) for n in ("itime", "iheight", "iwidth")]
    if not isinstance(raw, np.ndarray) or raw.ndim not in (4, 5) or raw.size == 0 or raw.dtype.itemsize < 4:
        return None
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) and v == int(v) and v >= 1 for v in sizes):
        return None
    it, ih, iw = (int(v) for v in sizes)
    packed = np.ascontiguousarray(raw).view(np.uint8).reshape(raw.shape + (raw.dtype.itemsize,))
    positions = []
    for b, start, dil, k, n in zip(range(3), _window_starts(module, raw.shape), _dilations(module),
                                   (module.kT, module.kH, module.kW), (it, ih, iw)):
        offset = packed[..., b].astype(np.int64)
        pos = start + offset * dil
        if np.any(offset >= k) or np.any(pos < 0) or np.any(pos >= n):
            return None
        positions.append(pos)
    return (positions[0] * ih + positions[1]) * iw + positions[2]
