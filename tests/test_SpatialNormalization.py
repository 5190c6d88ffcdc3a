"""nn_legacy.SpatialNormalization: nnx's contrast normalizer (local mean over
all planes removed, divided by the thresholded local deviation)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, uniform)
from t7_writer import T7Object, t7_bytes

GAUSS = np.exp(-((np.arange(5) - 2.0) ** 2) / 4)[:, None] * np.exp(-((np.arange(5) - 2.0) ** 2) / 4)[None, :]


def window_sum(v, k):
    """C(v): each plane filtered by k (k's centre at floor(k/2), zeros
    outside), summed over the planes, repeated on every plane."""
    kh, kw = k.shape
    planes, h, w = v.shape
    total = np.zeros((h, w))
    for y, x, i, j in np.ndindex(h, w, kh, kw):
        yy, xx = y + i - kh // 2, x + j - kw // 2
        if 0 <= yy < h and 0 <= xx < w:
            total[y, x] += k[i, j] * v[:, yy, xx].sum()
    return np.repeat(total[None], planes, axis=0)


def reference(x, kernels, threshold=None):
    """nnx SpatialNormalization.lua's updateOutput on one sample, step by step."""
    kernels = [k / k.sum() for k in kernels]

    def c(v):
        for k in kernels:
            v = window_sum(v, k)
        return v
    coef = c(np.ones_like(x))
    zm = x - c(x) / coef
    std = np.sqrt(c(zm * zm)) / coef
    t = threshold if threshold is not None else max(std.mean(), 1e-3)
    return zm / np.where(std > t, std, t)


CASES = {"gaussian 5x5": ([GAUSS], None), "even 4x2, fixed threshold": ([np.arange(1.0, 9).reshape(4, 2)], 0.05),
         "two 1D kernels": ([np.ones((1, 3)), np.array([[1.0], [2.0], [1.0]])], None)}


@pytest.mark.parametrize("kernels, threshold", CASES.values(), ids=CASES.keys())
def test_matches_the_lua_steps(kernels, threshold):
    m = nn.SpatialNormalization(3, kernels if len(kernels) == 2 else kernels[0], threshold)
    x = uniform((2, 3, 6, 5), 1)
    out = m.forward(x)
    for i in range(2):
        np.testing.assert_allclose(out[i], reference(x[i], kernels, threshold), rtol=1e-12, atol=1e-13)


def test_an_adaptive_threshold_is_held_fixed_on_the_way_back():
    """(As nnx: its backward does not follow the threshold's dependence on
    the input.)  The gradient equals that of the same module with the
    threshold fixed at the value this input gives."""
    m = nn.SpatialNormalization(2, GAUSS)
    x, g = uniform((2, 5, 6), 4), uniform((2, 5, 6), 5)
    m.forward(x)
    grad = m.backward(x, g).copy()
    kernels = [GAUSS / GAUSS.sum()]
    coef = window_sum(np.ones_like(x), kernels[0])
    zm = x - window_sum(x, kernels[0]) / coef
    t = max((np.sqrt(window_sum(zm * zm, kernels[0])) / coef).mean(), 1e-3)
    fixed = nn.SpatialNormalization(2, GAUSS, t)
    np.testing.assert_allclose(fixed.forward(x), m.forward(x), rtol=1e-14)
    np.testing.assert_allclose(fixed.backward(x, g), grad, rtol=1e-12, atol=1e-14)


def test_a_2d_input_is_one_plane():
    m = nn.SpatialNormalization(1, GAUSS)
    x = uniform((6, 5), 1)
    np.testing.assert_allclose(m.forward(x), reference(x[None], [GAUSS])[0], rtol=1e-12)


def test_bad_input():
    with raises_exactly(ValueError, "SpatialNormalization: kernel must be a 2D array, or a pair of 2D arrays, with "
                                    "a nonzero sum"):
        nn.SpatialNormalization(2, np.ones(3))
    with raises_exactly(TypeError, "SpatialNormalization: threshold must be a number or None, got '1'"):
        nn.SpatialNormalization(2, GAUSS, "1")
    m = nn.SpatialNormalization(2, GAUSS)
    with raises_exactly(ValueError, "SpatialNormalization: input must be 3D [2, height, width] or 4D [batch, 2, "
                                    "height, width] (or 2D for one plane), got 3D of size [3, 5, 5]"):
        m.forward(uniform((3, 5, 5)))
    with raises_exactly(TypeError, "SpatialNormalization: input is float32 but the module is float64; convert the "
                                   "input or call module.float()"):
        m.forward(uniform((2, 5, 5)).astype(np.float32))


def _nnx_filter(k, nf):
    """One of nnx's filter pipelines as its constructor built it."""
    kh, kw = k.shape
    pad = T7Object("nn.SpatialPadding", {"pad_l": kw // 2, "pad_r": kw // 2 - (1 - kw % 2), "pad_t": kh // 2,
                                         "pad_b": kh // 2 - (1 - kh % 2)})
    table = np.repeat(np.arange(1.0, nf + 1)[:, None], 2, axis=1)
    conv = T7Object("nn.SpatialConvolutionMap", {
        "connTable": table, "nInputPlane": nf, "nOutputPlane": nf, "kW": kw, "kH": kh, "dW": 1, "dH": 1,
        "weight": np.repeat(k[None], nf, axis=0), "bias": np.zeros(nf), "gradWeight": np.zeros((nf, kh, kw)),
        "gradBias": np.zeros(nf)})
    return T7Object("nn.Sequential", {"modules": {1: pad, 2: conv, 3: T7Object("nn.Sum", {"dimension": 1}),
                                                  4: T7Object("nn.Replicate", {"nfeatures": nf})}})


def test_loads_an_nnx_file(tmp_path):
    k = GAUSS / GAUSS.sum()
    fields = {"kernel": k, "nfeatures": 2, "padW": 2, "padH": 2, "kerWisPair": 0, "kerHisPair": 0, "pad2W": 0,
              "pad2H": 0, "convo": _nnx_filter(k, 2), "convostd": _nnx_filter(k, 2),
              "squareMod": T7Object("nn.Square", {}), "sqrtMod": T7Object("nn.Sqrt", {"eps": 0}),
              "subtractMod": T7Object("nn.CSubTable", {}), "meanDiviseMod": T7Object("nn.CDivTable", {}),
              "stdDiviseMod": T7Object("nn.CDivTable", {}), "diviseMod": T7Object("nn.CDivTable", {}),
              "thresMod": T7Object("nn.Threshold", {"threshold": 1e-6, "val": 0}), "coef": np.ones((1, 1)),
              "inConvo": np.zeros(0), "output": np.zeros(0), "gradInput": np.zeros(0)}
    f = tmp_path / "n.t7"
    f.write_bytes(t7_bytes(T7Object("nn.SpatialNormalization", fields)))
    m = nn.load_lua(str(f))
    assert m.fixedThres is None and m.nfeatures == 2 and "thresMod" not in vars(m)
    x = uniform((2, 6, 5), 1)
    np.testing.assert_allclose(m.forward(x), reference(x, [GAUSS]), rtol=1e-12, atol=1e-13)


def test_repr():
    assert repr(nn.SpatialNormalization(3, GAUSS)) == "nn.SpatialNormalization(3, kernel 5x5, threshold adaptive)"
    assert repr(nn.SpatialNormalization(3, [np.ones((1, 3)), np.ones((3, 1))], 0.5)) == \
        "nn.SpatialNormalization(3, kernel 1x3 then 3x1, threshold 0.5)"
