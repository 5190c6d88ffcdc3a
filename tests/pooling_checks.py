"""What the pooling tests share, on top of layer_checks:

- inputs without ties (``distinct``), so max pooling has a derivative
  everywhere and one right answer for its indices;
- plain-Python reference implementations on tiny sizes: every window
  written out tap by tap, the output size by its formula, indices as
  offsets within a plane (T x H x W, T = 1 for spatial layers).  They follow
  the documented rules independently of the C loops;
- the torch calls the layers are compared with.

Spatial inputs are ``[..., H, W]`` and volumetric ones ``[..., T, H, W]``;
the reference functions take the pooled axes in memory order (T, H, W or
H, W) and treat every leading index as a separate plane."""
import itertools
import math

import numpy as np


def distinct(shape, seed=0, low=-3.0, spacing=0.125):
    """Distinct values (a shuffled ramp low, low + spacing, ...), so no two
    elements tie and a step of 1e-6 changes no window's maximum."""
    n = int(np.prod(shape))
    return low + spacing * np.random.default_rng(seed).permutation(n).reshape(shape).astype(np.float64)


# ---------------------------------------------------------------- geometry
def output_size(n, k, d, pad, dil=1, ceil=False):
    """PyTorch's pooling output size along one axis."""
    span = n + 2 * pad - dil * (k - 1) - 1
    out = (-(-span // d) if ceil else span // d) + 1
    if ceil and (out - 1) * d >= n + pad:
        out -= 1
    return out


def fixed_windows(n, k, d, pad, dil=1, ceil=False):
    """Per output along one axis: (taps inside the input, taps inside input
    or padding up to the padded border)."""
    result = []
    for o in range(output_size(n, k, d, pad, dil, ceil)):
        start = o * d - pad
        taps = [start + j * dil for j in range(k)]
        result.append(([t for t in taps if 0 <= t < n], min(start + k, n + pad) - start))
    return result


def adaptive_windows(n, out):
    return [(list(range((o * n) // out, -(-((o + 1) * n) // out))), None) for o in range(out)]


def fractional_windows(n, out, pool, u, dtype):
    """Window taps along one axis for sample u, in dtype arithmetic."""
    real = np.dtype(dtype).type
    starts = []
    if out > 1:
        alpha = real(n - pool) / real(out - 1)
        starts = [int(real(real(i) + real(u)) * alpha) - int(real(u) * alpha) for i in range(out - 1)]
    starts.append(n - pool)
    return [(list(range(s, s + pool)), None) for s in starts]


# ---------------------------------------------------------------- references
def _planes(x, nd):
    return x.reshape((-1,) + x.shape[x.ndim - nd:])


def _offset(taps, sizes):
    return int(np.ravel_multi_index(taps, sizes))


def ref_max(x, axes):
    """Max pooling of x (pooled axes last) over the windows axes[a] (one
    fixed list per axis, or a function of the plane number for fractional
    pooling): (output, indices).  NaN wins (the last NaN), ties keep the
    first tap."""
    nd = len(axes) if isinstance(axes, (list, tuple)) else None
    planes = _planes(x, nd or len(axes(0)))
    sizes = planes.shape[1:]
    outs, inds = [], []
    for p, plane in enumerate(planes):
        windows = axes if nd else axes(p)
        out = np.zeros([len(w) for w in windows])
        ind = np.zeros(out.shape, dtype=np.int64)
        for o in itertools.product(*[range(len(w)) for w in windows]):
            best, at = None, None
            for taps in itertools.product(*[windows[a][o[a]][0] for a in range(len(o))]):
                v = plane[taps]
                if best is None or v > best or np.isnan(v):
                    best, at = v, _offset(taps, sizes)
            out[o], ind[o] = best, at
        outs.append(out)
        inds.append(ind)
    shape = x.shape[:x.ndim - len(sizes)] + outs[0].shape
    return np.array(outs).reshape(shape), np.array(inds).reshape(shape)


def bits(a):
    """The bits of a float array (to compare -0.0 with 0.0 and NaN payloads)."""
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def hostile_values(shape, dtype, seed):
    """Small integers (many ties), 0.0 and -0.0 side by side, -inf, and NaNs
    of distinct payloads: which tap wins shows in the bits of the output."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=shape).astype(dtype)
    x[rng.random(shape) < 0.1] = -0.0
    x[rng.random(shape) < 0.02] = -np.inf
    raw = bits(x)
    nan = np.uint32(0x7FC00000) if dtype == np.float32 else np.uint64(0x7FF8000000000000)
    where = rng.random(shape) < 0.02
    raw[where] = nan + rng.integers(1, 1000, size=int(where.sum())).astype(raw.dtype)
    return x


def ref_index_grad(x_shape, nd, indices, gradOutput):
    """gradInput of a pooling whose output o came from indices[o]: the sum of
    the gradOutput elements pointing at each input element, in output order
    and in gradOutput's precision."""
    gi = np.zeros((int(np.prod(x_shape[:len(x_shape) - nd])), int(np.prod(x_shape[len(x_shape) - nd:]))),
                  dtype=gradOutput.dtype)
    flat_ind = indices.reshape(gi.shape[0], -1)
    flat_g = gradOutput.reshape(gi.shape[0], -1)
    for p in range(gi.shape[0]):
        for o in range(flat_ind.shape[1]):
            gi[p, flat_ind[p, o]] += flat_g[p, o]
    return gi.reshape(x_shape)


def _divisor(windows, o, mode):
    counts = [len(windows[a][o[a]][0]) for a in range(len(o))]
    if mode == "include":
        return [math.prod(windows[a][o[a]][1] for a in range(len(o)))]
    if mode == "exclude":
        return [math.prod(counts)]
    return counts  # adaptive: one division per axis, in order


def ref_avg(x, windows, mode):
    """Average pooling of x over fixed windows; mode "include" (padding
    counted), "exclude" or "adaptive".  Taps summed in row-major order."""
    nd = len(windows)
    planes = _planes(x, nd)
    out_shape = [len(w) for w in windows]
    outs = []
    for plane in planes:
        out = np.zeros(out_shape)
        for o in itertools.product(*[range(n) for n in out_shape]):
            total = 0.0
            for taps in itertools.product(*[windows[a][o[a]][0] for a in range(nd)]):
                total += plane[taps]
            for div in _divisor(windows, o, mode):
                total /= div
            out[o] = total
        outs.append(out)
    return np.array(outs).reshape(x.shape[:x.ndim - nd] + tuple(out_shape))


def ref_avg_grad(x_shape, windows, mode, gradOutput):
    nd = len(windows)
    lead = int(np.prod(x_shape[:len(x_shape) - nd]))
    gi = np.zeros((lead,) + tuple(x_shape[len(x_shape) - nd:]))
    g = gradOutput.reshape((lead,) + gradOutput.shape[gradOutput.ndim - nd:])
    for p in range(lead):
        for o in itertools.product(*[range(len(w)) for w in windows]):
            share = g[p][o]
            for div in _divisor(windows, o, mode):
                share /= div
            for taps in itertools.product(*[windows[a][o[a]][0] for a in range(nd)]):
                gi[p][taps] += share
    return gi.reshape(x_shape)


def ref_unpool(x, indices, out_sizes):
    nd = len(out_sizes)
    planes, ind = _planes(x, nd), _planes(indices, nd)
    out = np.zeros((planes.shape[0], int(np.prod(out_sizes))))
    for p in range(planes.shape[0]):
        for v, i in zip(planes[p].ravel(), ind[p].ravel()):
            out[p, i] = v
    return out.reshape(x.shape[:x.ndim - nd] + tuple(out_sizes))


def ref_unpool_grad(indices, gradOutput, nd):
    g = _planes(gradOutput, nd).reshape(-1, int(np.prod(gradOutput.shape[gradOutput.ndim - nd:])))
    ind = _planes(indices, nd).reshape(g.shape[0], -1)
    return np.array([g[p][ind[p]] for p in range(g.shape[0])]).reshape(indices.shape)


# ---------------------------------------------------------------- torch
def torch_module_grad(torch, fn, x, gradOutput):
    """(fn(x), d<fn(x), gradOutput>/dx), fn returning a tensor or a tuple
    whose first element is the output; float64 unless x is float32."""
    tx = torch.from_numpy(np.array(x)).requires_grad_(True)
    y = fn(tx)
    y = y[0] if isinstance(y, tuple) else y
    y.backward(torch.from_numpy(np.array(gradOutput, dtype=x.dtype)))
    return y.detach().numpy(), tx.grad.numpy()


# ---------------------------------------------------------------- evaluation mode and unpooling
def check_unpooling_keeps_its_poolings_indices(pair, x, out_sizes):
    """pair() -> (pooling, unpooling reading it), fresh each call.  In
    evaluation mode a pooling skips its indices, but not one an unpooling
    reads: a model built so, one whose mark of the pairing was lost (saved
    before poolings skipped them: evaluate() marks it through the
    unpooling), and a pooling paired after an evaluation forward (a clear
    error, then its next forward makes them)."""
    from layer_checks import raises_exactly
    import nn_legacy as nn
    pool, unpool = pair()
    m = nn.Sequential().add(pool).add(unpool)
    want = m.forward(x).copy()
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), want)
    assert pool.indices is not None
    pool, unpool = pair()
    m = nn.Sequential().add(pool).add(unpool)
    del pool._unpooled
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), want)
    _, unpool = pair()
    free, _ = pair()
    del free._unpooled          # as a pooling no unpooling reads
    free.evaluate()
    y = free.forward(x).copy()
    assert free.indices is None
    unpool.pooling = free
    name = type(unpool).__name__
    with raises_exactly(ValueError, f"{name}: its pooling module ran its last forward in evaluation mode without "
                                    "indices (it was paired with this unpooling after that forward); run the "
                                    "pooling's forward again"):
        unpool.forward(y)
    free.forward(x)
    np.testing.assert_array_equal(unpool.forward(y), ref_unpool(y, free.indices, out_sizes))


def check_values_without_indices(m, x, nd, want, want_ind, threads):
    """A max pooling m in evaluation mode computes its output alone: bit for
    bit want (a reference's, with its rule: ties keep the first tap, -0.0
    and 0.0 included; the last NaN of a window, its payload too) and the
    indexed forward's, on a non-contiguous copy of x (nd pooled axes), with `threads`
    threads sharing the planes; indices None; a backward pass after it
    finds the indices (want_ind) again from its input."""
    import thnn
    from layer_checks import uniform
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        trained = m.forward(x).copy()
        m.evaluate()
        out = m.forward(np.asfortranarray(x)).copy()
        assert m.indices is None
        g = uniform(out.shape, 3).astype(x.dtype)
        gi = m.backward(x, g)
    finally:
        thnn.set_num_threads(before)
    np.testing.assert_array_equal(bits(out), bits(want.astype(x.dtype)))
    np.testing.assert_array_equal(bits(out), bits(trained))
    np.testing.assert_array_equal(m.indices, want_ind)
    np.testing.assert_array_equal(gi, ref_index_grad(x.shape, nd, want_ind, g).astype(x.dtype))
