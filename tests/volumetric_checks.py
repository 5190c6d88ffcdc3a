"""Shared by the tests of the volumetric convolutions, SpatialConvolutionLocal
and the connection-table maps, on top of layer_checks:

- reference results by explicit loops over every output element and tap
  (tiny sizes only), written from the formulas in the class docstrings and
  independent of the kernels;
- (torch_reference, assert_module_matches and check_properties, the
  layer_checks properties every such layer runs, are the spatial
  convolutions', in tests/conv_checks.py);
- an empty batch of any number of dims (``check_empty_batch``);
- Torch7 files of one object (``save_and_load``).

Sizes are given in memory order, (T, H, W); the layers take Torch7's order
(T, W, H), so a test that swaps two of them somewhere fails.
"""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from t7_writer import T7Object, t7_bytes

# (kT, kW, kH, dT, dW, dH, padT, padW, padH) with all three kernel sizes different, and the
# steps and pads of each axis different from the others' where they are not 1 or 0
VOLUMETRIC_SETTINGS = [
    (2, 3, 1, 1, 1, 1, 0, 0, 0),    # no step, no padding
    (3, 1, 2, 2, 1, 3, 1, 0, 1),    # steps and pads in T and H only
    (1, 2, 3, 1, 2, 1, 0, 1, 2),    # in W and H only
    (2, 2, 2, 2, 3, 1, 1, 0, 0),    # a cube kernel with unequal steps
    (1, 1, 1, 1, 1, 1, 0, 0, 0),    # 1x1x1: a per-voxel linear map
]
SETTING_IDS = ["k231", "k312-d213-p101", "k123-d121-p012", "k222-d231-p100", "k111"]


# the settings after (nInputPlane, nOutputPlane) of the dilated and full convolutions, and their ids
# (kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH)
DILATED_SETTINGS = [
    (2, 3, 2, 1, 1, 1, 0, 0, 0, 2, 1, 3),
    (2, 2, 3, 2, 1, 2, 1, 2, 0, 1, 3, 2),
    (3, 1, 2, 1, 2, 1, 2, 0, 1, 2, 2, 1),
    (1, 2, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1),   # dilation 1: VolumetricConvolution
]
DILATED_IDS = ["k232-dil213", "k223-d212-p120-dil132", "k312-d121-p201-dil221", "dil111"]

# (kT, kW, kH, dT, dW, dH, padT, padW, padH, adjT, adjW, adjH)
FULL_SETTINGS = [
    (2, 3, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0),
    (3, 1, 2, 2, 1, 3, 1, 0, 1, 1, 0, 2),
    (1, 2, 3, 1, 2, 2, 0, 1, 2, 0, 1, 0),
    (2, 2, 2, 3, 2, 1, 1, 0, 0, 2, 1, 0),
]
FULL_IDS = ["k231", "k312-d213-p101-a102", "k123-d122-p012-a010", "k222-d321-p100-a210"]

# (kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH, adjT, adjW, adjH)
FULL_DILATED_SETTINGS = [
    (2, 3, 2, 1, 1, 1, 0, 0, 0, 2, 1, 3, 0, 0, 2),    # adjH = 2 >= dH: allowed below dilationH
    (2, 2, 3, 2, 1, 2, 1, 2, 0, 1, 3, 2, 1, 0, 1),
    (3, 1, 2, 1, 2, 3, 2, 0, 1, 2, 2, 1, 0, 1, 2),
    (1, 2, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0),    # dilation 1: VolumetricFullConvolution
]
FULL_DILATED_IDS = ["k232-dil213-a002", "k223-d212-p120-dil132-a101", "k312-d123-p201-dil221-a012", "dil111"]


def memory_order(kT, kW, kH, dT, dW, dH, padT, padW, padH):
    """The settings as ((kT, kH, kW), (dT, dH, dW), (padT, padH, padW)): the order of the axes in memory."""
    return (kT, kH, kW), (dT, dH, dW), (padT, padH, padW)


def geometry(name, settings):
    """(step, pad, dilation, adj) in memory order (T, H, W) of the settings
    after the planes of the volumetric convolution `name`: Torch7's kT, kW,
    kH, dT, dW, dH, padT, padW, padH, then dilationT, W, H (Dilated,
    FullDilated) and adjT, W, H (Full, FullDilated)."""
    _, step, pad = memory_order(*settings[:9])
    dilated, full = "Dilated" in name, "Full" in name
    dilation = (settings[9], settings[11], settings[10]) if dilated else (1, 1, 1)
    a = 12 if dilated else 9
    adj = (settings[a], settings[a + 2], settings[a + 1]) if full else (0, 0, 0)
    return step, pad, dilation, adj


def volume_data(m, n_in, size, batch=2, seed=1):
    """(input, gradOutput) for module m: input [batch, n_in, *size] (batch
    None: one 4D sample), gradOutput of the output's shape."""
    shape = ((batch,) if batch is not None else ()) + (n_in,) + size
    x = uniform(shape, seed)
    return x, uniform(m.forward(x).shape, seed + 1)


def as_batch(a):
    """A 4D sample as a batch of one (5D arrays unchanged)."""
    return a if a is None or a.ndim == 5 else a[None]


# ---------------------------------------------------------------- loops
def conv3d_loops(x, w, b, g, step, pad, dilation=(1, 1, 1)):
    """(output, gradInput, gradWeight, gradBias) of the convolution of the
    5D x [N, C, T, H, W] by w [O, C, kT, kH, kW] (+ b [O] or None), g being
    dL/doutput (or None); step, pad, dilation in (T, H, W) order."""
    N, C = x.shape[:2]
    O, _, *k = w.shape
    size = x.shape[2:]
    out_size = [(size[a] + 2 * pad[a] - (k[a] - 1) * dilation[a] - 1) // step[a] + 1 for a in range(3)]
    out = np.zeros((N, O, *out_size))
    gx, gw = np.zeros(x.shape), np.zeros(w.shape)
    for n, o, *pos in np.ndindex(N, O, *out_size):
        acc = 0.0 if b is None else b[o]
        for c, *tap in np.ndindex(C, *k):
            at = [pos[a] * step[a] - pad[a] + tap[a] * dilation[a] for a in range(3)]
            if all(0 <= at[a] < size[a] for a in range(3)):
                acc += w[(o, c, *tap)] * x[(n, c, *at)]
                if g is not None:
                    gx[(n, c, *at)] += w[(o, c, *tap)] * g[(n, o, *pos)]
                    gw[(o, c, *tap)] += g[(n, o, *pos)] * x[(n, c, *at)]
        out[(n, o, *pos)] = acc
    gb = None if g is None or b is None else g.sum(axis=(0, 2, 3, 4))
    return out, gx, gw, gb


def full_conv3d_loops(x, w, b, g, step, pad, adj, dilation=(1, 1, 1)):
    """(output, gradInput, gradWeight, gradBias) of the full (transposed)
    convolution of x [N, C, T, H, W] by w [C, O, kT, kH, kW]: every input
    voxel scattered through every tap; step, pad, adj, dilation in (T, H, W)."""
    N, C = x.shape[:2]
    _, O, *k = w.shape
    size = x.shape[2:]
    out_size = [(size[a] - 1) * step[a] - 2 * pad[a] + (k[a] - 1) * dilation[a] + 1 + adj[a] for a in range(3)]
    out = np.zeros((N, O, *out_size)) + (0.0 if b is None else b.reshape(1, O, 1, 1, 1))
    gx, gw = np.zeros(x.shape), np.zeros(w.shape)
    for n, c, *pos in np.ndindex(N, C, *size):
        for o, *tap in np.ndindex(O, *k):
            at = [pos[a] * step[a] - pad[a] + tap[a] * dilation[a] for a in range(3)]
            if all(0 <= at[a] < out_size[a] for a in range(3)):
                out[(n, o, *at)] += w[(c, o, *tap)] * x[(n, c, *pos)]
                if g is not None:
                    gx[(n, c, *pos)] += w[(c, o, *tap)] * g[(n, o, *at)]
                    gw[(c, o, *tap)] += x[(n, c, *pos)] * g[(n, o, *at)]
    gb = None if g is None or b is None else g.sum(axis=(0, 2, 3, 4))
    return out, gx, gw, gb


def local_loops(x, w, b, g, dW, dH, padW, padH):
    """(output, gradInput, gradWeight, gradBias) of SpatialConvolutionLocal on
    x [N, C, H, W] with w [oH, oW, O, C, kH, kW] and b [O, oH, oW]: every
    output pixel with its own kernel."""
    N, C, H, W = x.shape
    oH, oW, O, _, kH, kW = w.shape
    out = np.zeros((N, O, oH, oW))
    gx, gw, gb = np.zeros(x.shape), np.zeros(w.shape), np.zeros(b.shape)
    for n, o, y, xo in np.ndindex(N, O, oH, oW):
        acc = b[o, y, xo]
        for c, i, j in np.ndindex(C, kH, kW):
            iy, ix = y * dH - padH + i, xo * dW - padW + j
            if 0 <= iy < H and 0 <= ix < W:
                acc += w[y, xo, o, c, i, j] * x[n, c, iy, ix]
                if g is not None:
                    gx[n, c, iy, ix] += w[y, xo, o, c, i, j] * g[n, o, y, xo]
                    gw[y, xo, o, c, i, j] += g[n, o, y, xo] * x[n, c, iy, ix]
        out[n, o, y, xo] = acc
        if g is not None:
            gb[o, y, xo] += g[n, o, y, xo]
    return out, gx, gw, gb


def map_loops(x, table, w, b, g, dW, dH, full=False):
    """(output, gradInput, gradWeight, gradBias) of SpatialConvolutionMap (or,
    full=True, SpatialFullConvolutionMap) on x [N, planes, H, W] with the
    0-based table [nConnections, 2], w [nConnections, kH, kW], b [nOutputPlane]:
    one connection, output pixel and tap at a time."""
    N, _, H, W = x.shape
    _, kH, kW = w.shape
    O = len(b)
    oH, oW = ((H - 1) * dH + kH, (W - 1) * dW + kW) if full else ((H - kH) // dH + 1, (W - kW) // dW + 1)
    out = np.zeros((N, O, oH, oW)) + b.reshape(1, O, 1, 1)
    gx, gw = np.zeros(x.shape), np.zeros(w.shape)
    small = (H, W) if full else (oH, oW)       # the side each tap reads (or writes) one pixel of per position
    for n in range(N):
        for k, (i, o) in enumerate(table):
            for y, xo, a, c in np.ndindex(*small, kH, kW):
                big = (y * dH + a, xo * dW + c)
                if full:    # input pixel (y, xo) spreads to output pixel big
                    out[(n, o) + big] += w[k, a, c] * x[n, i, y, xo]
                    if g is not None:
                        gx[n, i, y, xo] += w[k, a, c] * g[(n, o) + big]
                        gw[k, a, c] += x[n, i, y, xo] * g[(n, o) + big]
                else:       # output pixel (y, xo) reads input pixel big
                    out[n, o, y, xo] += w[k, a, c] * x[(n, i) + big]
                    if g is not None:
                        gx[(n, i) + big] += w[k, a, c] * g[n, o, y, xo]
                        gw[k, a, c] += g[n, o, y, xo] * x[(n, i) + big]
    gb = None if g is None else g.sum(axis=(0, 2, 3))
    return out, gx, gw, gb


def as_image_batch(a):
    """A 3D sample as a batch of one (4D arrays unchanged)."""
    return a if a is None or a.ndim == 4 else a[None]


# ---------------------------------------------------------------- properties
def check_empty_batch(m, sample_shape):
    """A batch of 0 samples: empty output and gradInput, parameter gradients
    untouched, buffers holding no memory nothing wrote (zeros)."""
    x = np.zeros((0,) + tuple(sample_shape))
    out = m.forward(x)
    assert out.shape[0] == 0 and out.ndim == x.ndim
    m.zeroGradParameters()
    assert m.backward(x, np.zeros(out.shape)).shape == x.shape
    assert not any(g.any() for g in m.parameters()[1])
    for name in getattr(m, "_buffer_names", ()):
        assert not getattr(m, name).any(), name
    return out.shape


# ---------------------------------------------------------------- Torch7 files
def torch7(class_name, **fields):
    """A Torch7 nn object as torch.save writes it (empty output and gradInput)."""
    return T7Object(class_name, {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True, **fields})


def save_and_load(tmp_path, obj):
    path = tmp_path / "model.t7"
    path.write_bytes(t7_bytes(obj))
    return nn.load_lua(str(path))
