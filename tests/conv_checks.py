"""Shared by the spatial convolution tests, on top of layer_checks:

- reference results by explicit loops over every output pixel and tap
  (tiny sizes only), written from the formulas in the class docstrings and
  independent of the kernels' im2col + GEMM;
- the same through torch (conv2d / conv_transpose2d), when installed;
- the property checks every convolution layer runs (``check_properties``);
- a minimal Torch7 file writer for one nn object with number and tensor
  fields (``t7_object``), to test loading with Torch7's field names.
"""
import struct

import numpy as np

import thnn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_noncontiguous,
                          check_pickle, torch_or_skip)


# ---------------------------------------------------------------- loops
def conv_loops(x, w, b, g, dW, dH, padW, padH, dilationW=1, dilationH=1):
    """(output, gradInput, gradWeight, gradBias) of a convolution of the 4D
    x [N, C, H, W] by w [O, C, kH, kW] (+ b [O] or None), g being dL/doutput,
    one tap at a time."""
    N, C, H, W = x.shape
    O, _, kH, kW = w.shape
    oH = (H + 2 * padH - (kH - 1) * dilationH - 1) // dH + 1
    oW = (W + 2 * padW - (kW - 1) * dilationW - 1) // dW + 1
    out = np.zeros((N, O, oH, oW))
    gx, gw = np.zeros(x.shape), np.zeros(w.shape)
    for n, o, y, xo in np.ndindex(N, O, oH, oW):
        acc = 0.0 if b is None else b[o]
        for c, i, j in np.ndindex(C, kH, kW):
            iy, ix = y * dH - padH + i * dilationH, xo * dW - padW + j * dilationW
            if 0 <= iy < H and 0 <= ix < W:
                acc += w[o, c, i, j] * x[n, c, iy, ix]
                if g is not None:
                    gx[n, c, iy, ix] += w[o, c, i, j] * g[n, o, y, xo]
                    gw[o, c, i, j] += g[n, o, y, xo] * x[n, c, iy, ix]
        out[n, o, y, xo] = acc
    gb = None if g is None or b is None else g.sum(axis=(0, 2, 3))
    return out, gx, gw, gb


def full_conv_loops(x, w, b, g, dW, dH, padW, padH, adjW, adjH, dilationW=1, dilationH=1):
    """(output, gradInput, gradWeight, gradBias) of a full (transposed)
    convolution of x [N, C, H, W] by w [C, O, kH, kW]: every input pixel
    scattered through every tap."""
    N, C, H, W = x.shape
    _, O, kH, kW = w.shape
    oH = (H - 1) * dH - 2 * padH + (kH - 1) * dilationH + 1 + adjH
    oW = (W - 1) * dW - 2 * padW + (kW - 1) * dilationW + 1 + adjW
    out = np.zeros((N, O, oH, oW)) + (0.0 if b is None else b.reshape(1, O, 1, 1))
    gx, gw = np.zeros(x.shape), np.zeros(w.shape)
    for n, c, y, xi, o, i, j in np.ndindex(N, C, H, W, O, kH, kW):
        oy, ox = y * dH - padH + i * dilationH, xi * dW - padW + j * dilationW
        if 0 <= oy < oH and 0 <= ox < oW:
            out[n, o, oy, ox] += w[c, o, i, j] * x[n, c, y, xi]
            if g is not None:
                gx[n, c, y, xi] += w[c, o, i, j] * g[n, o, oy, ox]
                gw[c, o, i, j] += x[n, c, y, xi] * g[n, o, oy, ox]
    gb = None if g is None or b is None else g.sum(axis=(0, 2, 3))
    return out, gx, gw, gb


def as_batch(a):
    """A 3D sample as a batch of one (4D arrays unchanged)."""
    return a if a is None or a.ndim == 4 else a[None]


# ---------------------------------------------------------------- torch
def torch_reference(fn, x, params, g):
    """(fn(x, *params), dL/dx, [dL/dparam]) by torch autograd in float64,
    as numpy; None params stay None (and get None gradients)."""
    torch = torch_or_skip()
    tx = torch.from_numpy(np.array(x, dtype=np.float64)).requires_grad_(True)
    tp = [None if p is None else torch.from_numpy(np.array(p, dtype=np.float64)).requires_grad_(True)
          for p in params]
    ty = fn(tx, *tp)
    ty.backward(torch.from_numpy(np.array(g, dtype=np.float64)))
    return (ty.detach().numpy(), tx.grad.numpy(),
            [None if p is None else p.grad.numpy() for p in tp])


def assert_module_matches(m, x, g, want_out, want_gin, want_gw, want_gb, rtol=1e-12, atol=1e-13):
    """forward and backward (scale 0.5, accumulated twice) of module m give
    these values; gradWeight compared through m.gradWeight's own shape."""
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), want_out, rtol=rtol, atol=atol, err_msg="output")
    np.testing.assert_allclose(m.backward(x, g, 0.5), want_gin, rtol=rtol, atol=atol, err_msg="gradInput")
    m.backward(x, g, 1.5)
    np.testing.assert_allclose(m.gradWeight, 2 * np.reshape(want_gw, m.gradWeight.shape), rtol=rtol, atol=atol,
                               err_msg="gradWeight")
    if want_gb is not None:
        np.testing.assert_allclose(m.gradBias, 2 * np.reshape(want_gb, m.gradBias.shape), rtol=rtol, atol=atol,
                                   err_msg="gradBias")
    else:
        assert m.gradBias is None


def assert_module_matches_torch(m, fn, x, g, rtol=1e-12, atol=1e-13):
    """assert_module_matches against torch autograd of fn(input, weight, bias)
    (bias None for a module without one)."""
    out, gin, (gw, gb) = torch_reference(fn, x, [m.weight, m.bias], g)
    assert_module_matches(m, x, g, out, gin, gw, gb, rtol, atol)


# ---------------------------------------------------------------- properties
def check_properties(make, x, g, x_small, g_small):
    """Jacobians (input and every parameter, with and without bias), the
    accUpdateGradParameters step, float32, strided input, batch = samples
    one by one, buffer reuse across batch sizes, pickling: the checks of
    layer_checks, on the 4D x / g (and x_small / g_small, a smaller batch)."""
    m = make()
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)
    if hasattr(m, "noBias"):
        nobias = make().noBias()
        assert_input_jacobian(nobias, x)
        assert_parameter_jacobians(nobias, x)
    check_acc_update(make(), x, g)
    check_float32(make(), x, g)
    check_noncontiguous(make(), x, g)
    check_batch_equals_samples(make(), x, g)
    check_buffer_reuse(make(), x, g, x_small, g_small)
    check_pickle(make(), x, g)


def check_empty_batch(m, sample_shape):
    """A batch of 0 samples of this [planes, H, W]: empty output and gradInput,
    parameter gradients untouched (zero), no column buffer handed back with
    memory nothing wrote."""
    x = np.zeros((0,) + tuple(sample_shape))
    out = m.forward(x)
    assert out.shape[0] == 0 and out.ndim == 4
    m.zeroGradParameters()
    assert m.backward(x, np.zeros(out.shape)).shape == x.shape
    assert not any(g.any() for g in m.parameters()[1])
    for name in getattr(m, "_buffer_names", ()):
        assert getattr(m, name).size == 0, name
    return out.shape


def _on_1_and_2_threads(base, x, g, gradients):
    """[(output, gradInput, gradients(m))] of a fresh clone m of base after
    forward and backward of (x, g), on 1 thread and then on 2."""
    results = []
    before = thnn.get_num_threads()
    try:
        for threads in (1, 2):
            thnn.set_num_threads(threads)
            m = base.clone()
            m.zeroGradParameters()
            results.append((m.forward(x).copy(), m.backward(x, g).copy(), gradients(m)))
    finally:
        thnn.set_num_threads(before)
    return results


def check_threads(make, x, g):
    """With the library at 2 threads, a call big enough to be split between
    threads (over 2^22 multiply-adds; in an OpenMP build) gives the output
    and gradInput of 1 thread exactly, and parameter gradients within
    rounding (their per-thread sums are added in another order)."""
    (out1, gin1, grads1), (out2, gin2, grads2) = _on_1_and_2_threads(
        make(), x, g, lambda m: [a.copy() for a in m.parameters()[1]])
    np.testing.assert_array_equal(out2, out1)
    np.testing.assert_array_equal(gin2, gin1)
    for a, b in zip(grads2, grads1):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(b).max())


def conv_taps(x, w, b, g, dW, dH, padW, padH):
    """(output, gradInput, gradWeight, gradBias) of a convolution of x
    [N, C, H, W] by w [O, C, kH, kW] (+ b [O] or None), g being dL/doutput:
    as conv_loops, but a tap at a time over whole planes (numpy slices and
    einsum), for sizes the loops would take minutes on."""
    N, C, H, W = x.shape
    O, _, kH, kW = w.shape
    oH, oW = (H + 2 * padH - kH) // dH + 1, (W + 2 * padW - kW) // dW + 1
    xp = np.pad(x, ((0, 0), (0, 0), (padH, padH), (padW, padW)))
    out = np.zeros((N, O, oH, oW)) + (0.0 if b is None else np.reshape(b, (1, O, 1, 1)))
    gxp, gw = np.zeros(xp.shape), np.zeros(w.shape)
    for i, j in np.ndindex(kH, kW):
        at = (slice(None), slice(None), slice(i, i + dH * (oH - 1) + 1, dH), slice(j, j + dW * (oW - 1) + 1, dW))
        out += np.einsum("oc,ncyx->noyx", w[:, :, i, j], xp[at])
        gxp[at] += np.einsum("oc,noyx->ncyx", w[:, :, i, j], g)
        gw[:, :, i, j] = np.einsum("noyx,ncyx->oc", g, xp[at])
    return out, gxp[:, :, padH:padH + H, padW:padW + W], gw, None if b is None else g.sum(axis=(0, 2, 3))


def full_conv_taps(x, w, b, g, dW, dH, padW, padH):
    """The same for a full (transposed) convolution of x [N, C, H, W] by w
    [C, O, kH, kW] to an output the size of g: the adjoint of conv_taps
    (its output is the convolution's gradInput, and the other way round)."""
    zero = np.zeros((x.shape[0], w.shape[1]) + g.shape[2:])
    out = conv_taps(zero, w, None, x, dW, dH, padW, padH)[1]
    if b is not None:
        out = out + np.reshape(b, (1, -1, 1, 1))
    gin, _, gw, _ = conv_taps(g, w, None, x, dW, dH, padW, padH)
    return out, gin, gw, None if b is None else g.sum(axis=(0, 2, 3))


def check_threads_share_a_sample(make, reference, x, g):
    """With fewer samples than threads (a batch of 1 at 2 threads; in an
    OpenMP build on 2 CPUs) the threads share each sample (unfold.h: bands
    of output rows, the folding by planes, the weight gradient by column
    rows): output, gradInput and the parameter gradients on 1 and 2 threads
    both match reference(weight, bias) = (output, gradInput, gradWeight,
    gradBias) in float64, and each other within rounding."""
    base = make()
    want = reference(base.weight, base.bias)
    results = [(out, gin, *grads) for out, gin, grads in _on_1_and_2_threads(
        base, x, g, lambda m: (m.gradWeight.copy(), m.gradBias.copy()))]
    for got in results:
        for a, b, what in zip(got, want, ("output", "gradInput", "gradWeight", "gradBias")):
            b = np.reshape(b, a.shape)
            np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-11 * np.abs(b).max(), err_msg=what)
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(b).max())


# ---------------------------------------------------------------- Torch7 files
def t7_object(path, class_name, fields, version=1):
    """Write a binary Torch7 file holding one object of class_name whose
    fields are numbers, booleans, strings and float64 numpy arrays (saved as
    torch.DoubleTensor), as torch.save would; return the path."""
    index = [0]

    def i32(v):
        return struct.pack("<i", v)

    def i64(v):
        return struct.pack("<q", v)

    def string(text):
        return i32(len(text)) + text.encode()

    def torch_header(cls, ver=1):
        index[0] += 1
        return i32(4) + i32(index[0]) + string(f"V {ver}") + string(cls)

    def value(v):
        if isinstance(v, bool):
            return i32(5) + i32(int(v))
        if isinstance(v, (int, float)):
            return i32(1) + struct.pack("<d", v)
        if isinstance(v, str):
            return i32(2) + string(v)
        a = np.ascontiguousarray(v, dtype=np.float64)
        strides = [s // 8 for s in a.strides]
        body = torch_header("torch.DoubleTensor") + i32(a.ndim)
        body += b"".join(map(i64, a.shape)) + b"".join(map(i64, strides)) + i64(1)
        return body + torch_header("torch.DoubleStorage") + i64(a.size) + a.tobytes()

    head = torch_header(class_name, version)
    index[0] += 1
    table = i32(3) + i32(index[0]) + i32(len(fields))
    table += b"".join(value(k) + value(v) for k, v in fields.items())
    with open(path, "wb") as f:
        f.write(head + table)
    return path
