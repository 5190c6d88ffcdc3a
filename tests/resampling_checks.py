"""Plain-Python references for the padding and resampling layers, written
from their definitions (per element, in loops, on tiny sizes), and the
checks every one of those layers runs.

Each reference maps one plane (the last 2 or 3 dims) and is applied to
every plane of the input.  All of these layers are linear in their input,
so a reference also gives the exact gradient: its matrix M (built by
applying it to unit vectors) maps input to output, and M^T maps gradOutput
to gradInput."""
import itertools

import numpy as np

from layer_checks import (assert_input_jacobian, check_bad_arrays, check_batch_equals_samples,
                          check_buffer_reuse, check_float32, check_noncontiguous, check_pickle)


# ---------------------------------------------------------------- references
def source_index(u, n, mode):
    """Where output position u (in input coordinates) reads along a dim of n."""
    if mode == "reflect":
        return -u if u < 0 else (2 * (n - 1) - u if u >= n else u)
    return min(max(u, 0), n - 1)


def pad_plane(plane, pads, mode):
    """pads = [(before, after)] per dim of plane, in the plane's dim order."""
    out_shape = tuple(n + a + b for n, (a, b) in zip(plane.shape, pads))
    out = np.empty(out_shape)
    for o in itertools.product(*map(range, out_shape)):
        out[o] = plane[tuple(source_index(i - a, n, mode) for i, n, (a, _) in zip(o, plane.shape, pads))]
    return out


def nearest_plane(plane, scale):
    out_shape = tuple(n * scale for n in plane.shape)
    out = np.empty(out_shape)
    for o in itertools.product(*map(range, out_shape)):
        out[o] = plane[tuple(i // scale for i in o)]
    return out


def linear_weights(n_out, n_in):
    """[n_out, n_in]: the weight of input position k in output position i,
    corners aligned: max(0, 1 - |i (n_in - 1) / (n_out - 1) - k|)."""
    pos = np.arange(n_out) * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    return np.maximum(0.0, 1 - np.abs(pos[:, None] - np.arange(n_in)[None, :]))


def linear_plane(plane, out_shape):
    out = np.zeros(out_shape)
    weights = [linear_weights(o, n) for o, n in zip(out_shape, plane.shape)]
    for o in itertools.product(*map(range, out_shape)):
        for i in itertools.product(*map(range, plane.shape)):
            w = np.prod([wd[od, idx] for wd, od, idx in zip(weights, o, i)])
            if w:
                out[o] += w * plane[i]
    return out


def grid_sample_sample(image, grid, mode):
    """One sample: image [nPlane, h, w], grid [oh, ow, 2] -> [nPlane, oh, ow]."""
    planes, h, w = image.shape
    out = np.zeros((planes,) + grid.shape[:2])
    for i, j in itertools.product(range(grid.shape[0]), range(grid.shape[1])):
        px, py = (grid[i, j, 0] + 1) / 2 * (w - 1), (grid[i, j, 1] + 1) / 2 * (h - 1)
        if mode == "border":
            px, py = min(max(px, 0), w - 1), min(max(py, 0), h - 1)
        for r, k in itertools.product(range(h), range(w)):
            weight = max(0.0, 1 - abs(py - r)) * max(0.0, 1 - abs(px - k))
            out[:, i, j] += weight * image[:, r, k]
    return out


def per_plane(fn, x, spatial):
    """fn applied to every plane (the last `spatial` dims) of x."""
    lead = x.shape[:-spatial]
    planes = [fn(p) for p in x.reshape((-1,) + x.shape[-spatial:])]
    return np.stack(planes).reshape(lead + planes[0].shape)


def linear_matrix(fn, shape):
    """The matrix of the linear map fn on arrays of this shape (columns: fn
    of each unit vector), and fn's output shape."""
    columns = []
    for k in range(int(np.prod(shape))):
        unit = np.zeros(int(np.prod(shape)))
        unit[k] = 1
        columns.append(np.ravel(fn(unit.reshape(shape))))
    return np.stack(columns, axis=1), np.shape(fn(np.zeros(shape)))


def check_linear_reference(module, reference, x, g, exact=False):
    """forward equals reference(x) (bit for bit when exact: a pure copy);
    backward equals M^T gradOutput for the reference's matrix M, up to the
    rounding of sums taken in another order."""
    matrix, out_shape = linear_matrix(reference, x.shape)
    out = module.forward(x)
    assert out.shape == out_shape, (out.shape, out_shape)
    tol = 0 if exact else 1e-13
    np.testing.assert_allclose(out, (matrix @ x.ravel()).reshape(out_shape), rtol=tol, atol=tol)
    assert g.shape == out_shape
    np.testing.assert_allclose(module.backward(x, g), (matrix.T @ g.ravel()).reshape(x.shape), rtol=1e-13,
                               atol=1e-13)


# ---------------------------------------------------------------- the common battery
def check_common(make, x, kernel, spatial):
    """What every one of these layers must do, on a batched input x: the
    input Jacobian, float32 against float64, strided inputs, a batch against
    its samples one by one (unbatched), buffer reuse across two batch sizes,
    pickling, and the refusal of bad array types."""
    rng = np.random.default_rng(5)
    out_shape = make().forward(x).shape
    g = rng.uniform(-1, 1, out_shape)
    assert_input_jacobian(make(), x)
    check_float32(make(), x, g)
    check_noncontiguous(make(), x, g)
    check_batch_equals_samples(make(), x, g)
    assert x.ndim == spatial + 2 and x.shape[0] >= 2
    half = x.shape[0] // 2
    check_buffer_reuse(make(), x, g, x[:half].copy(), g[:half].copy())
    check_pickle(make(), x, g)
    check_bad_arrays(make(), x, g, kernel)


# ---------------------------------------------------------------- nearest up-sampling, bit for bit
def check_nearest_bits(module, x, scale, spatial, threads):
    """Nearest up-sampling on x (any dtype, layout, values) with this many
    threads: the output is np.repeat along each of the last `spatial` dims,
    bit for bit, and gradInput is each block's sum taken in the kernel's
    order (t, then h, then w, from 0), bit for bit too."""
    import thnn
    rng = np.random.default_rng(x.size + scale)
    want = x
    for d in range(x.ndim - spatial, x.ndim):
        want = want.repeat(scale, axis=d)
    g = rng.standard_normal(want.shape).astype(x.dtype)
    g.flat[::53] = -0.0
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        out = module.forward(x).copy()
        gin = module.backward(x, g).copy()
    finally:
        thnn.set_num_threads(before)
    assert out.dtype == x.dtype and gin.dtype == x.dtype
    np.testing.assert_array_equal(out, want)
    assert (out.view(np.uint8) == np.ascontiguousarray(want).view(np.uint8)).all()   # NaN payloads, -0.0
    lead = (slice(None),) * (x.ndim - spatial)
    total = np.zeros(x.shape, x.dtype)
    for offsets in itertools.product(range(scale), repeat=spatial):
        total = total + g[lead + tuple(slice(o, None, scale) for o in offsets)]
    assert (gin.view(np.uint8) == total.view(np.uint8)).all()
