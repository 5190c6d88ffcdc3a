"""nn_legacy.SpatialLPPooling: the p-norm of each window, Power -> SpatialAveragePooling -> MulConstant -> root."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip,
                          uniform)
from numpy_checks import from_torch7

# (pnorm, kW, kH, dW, dH, input shape): non-square windows, strides and planes
CASES = {
    "p=2, 3x2 windows side by side": (2, 3, 2, None, None, (2, 3, 6, 9)),
    "p=3, 2x3 stride 1,2": (3, 2, 3, 1, 2, (3, 7, 5)),
    "p=1.5, 2x2 stride 2,1": (1.5, 2, 2, 2, 1, (2, 2, 5, 6)),
    "p=1": (1, 3, 1, 2, 1, (2, 4, 3)),
}


def lp_pool(x, p, kW, kH, dW, dH):
    """The definition, window by window."""
    h, w = x.shape[-2:]
    out_h, out_w = (h - kH) // dH + 1, (w - kW) // dW + 1
    out = np.empty(x.shape[:-2] + (out_h, out_w))
    for y, col in np.ndindex(out_h, out_w):
        window = x[..., y * dH:y * dH + kH, col * dW:col * dW + kW]
        out[..., y, col] = (window ** p).sum(axis=(-2, -1)) ** (1 / p)
    return out


def make(p, kW, kH, dW, dH, shape):
    return nn.SpatialLPPooling(shape[-3], p, kW, kH, dW, dH)


def out_shape(p, kW, kH, dW, dH, shape):
    dW, dH = dW or kW, dH or kH
    return shape[:-2] + ((shape[-2] - kH) // dH + 1, (shape[-1] - kW) // dW + 1)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_matches_the_definition(case):
    p, kW, kH, dW, dH, shape = case
    x = uniform(shape, 1, 0.1, 2)
    np.testing.assert_allclose(make(*case).forward(x), lp_pool(x, p, kW, kH, dW or kW, dH or kH),
                               rtol=1e-14, atol=0)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_matches_torch_lp_pool2d(case):
    """torch's lp_pool2d takes kernel and stride as (height, width)."""
    torch = torch_or_skip()
    p, kW, kH, dW, dH, shape = case
    x, g = uniform(shape, 1, 0.1, 2), uniform(out_shape(*case), 2)
    stride = None if dW is None else (dH, dW)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.lp_pool2d(t, p, (kH, kW), stride), x, g)
    m = make(*case)
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-13, atol=1e-15)


def test_p2_takes_signed_inputs():
    x = uniform((2, 4, 6), 1)
    np.testing.assert_allclose(nn.SpatialLPPooling(2, 2, 3, 2).forward(x), lp_pool(x, 2, 3, 2, 3, 2), rtol=1e-14)


def test_is_a_sequential_of_power_pooling_scaling_and_root():
    m = nn.SpatialLPPooling(3, 3, 2, 4, 1, 2)
    assert [type(c).__name__ for c in m.modules] == ["Power", "SpatialAveragePooling", "MulConstant", "Power"]
    assert (m.modules[0].pow, m.modules[2].constant_scalar, m.modules[3].pow) == (3, 8, 1 / 3)
    assert [type(c).__name__ for c in nn.SpatialLPPooling(3, 2, 2, 2).modules] == \
        ["Square", "SpatialAveragePooling", "MulConstant", "Sqrt"]
    assert m.parameters() == ([], [])


def test_windows_side_by_side_by_default():
    m = nn.SpatialLPPooling(1, 2, 3, 2)
    assert (m.dW, m.dH) == (3, 2)


# ---------------------------------------------------------------- bad input
def test_bad_input():
    m = nn.SpatialLPPooling(3, 2, 2, 2)
    with raises_exactly(ValueError, "SpatialLPPooling: input must have nInputPlane = 3 planes (dim 1), "
                                    "got 4D of size [2, 2, 4, 4]"):
        m.forward(uniform((2, 2, 4, 4)))
    with raises_exactly(ValueError, "SpatialLPPooling: input must be 3D [planes, height, width] or "
                                    "4D [batch, planes, height, width], got 2D of size [4, 4]"):
        m.forward(uniform((4, 4)))
    with raises_exactly(TypeError, "SpatialLPPooling: input must be float32 or float64, got int64"):
        m.forward(np.ones((3, 4, 4), dtype=np.int64))
    with raises_exactly(ValueError, "SpatialLPPooling: input must have nInputPlane = 3 planes (dim 0), "
                                    "got 3D of size [1, 4, 4]"):
        m.backward(uniform((1, 4, 4)), uniform((1, 2, 2)))


def test_bad_arguments():
    with raises_exactly(ValueError, "SpatialLPPooling: pnorm must be a positive number, got 0"):
        nn.SpatialLPPooling(1, 0, 2, 2)
    with raises_exactly(ValueError, "SpatialLPPooling: pnorm must be a positive number, got '2'"):
        nn.SpatialLPPooling(1, "2", 2, 2)
    with raises_exactly(ValueError, "SpatialLPPooling: kH must be at least 1, got 0"):
        nn.SpatialLPPooling(1, 2, 2, 0)
    with raises_exactly(TypeError, "SpatialLPPooling: dW must be an integer, got 1.5"):
        nn.SpatialLPPooling(1, 2, 2, 2, 1.5)


def test_from_torch7_fields():
    """Torch7 kept kW..dH and the four modules, not nInputPlane or pnorm."""
    inner = nn.SpatialLPPooling(2, 3, 2, 3, 1, 2).modules
    m = from_torch7("nn.SpatialLPPooling", kW=2.0, kH=3.0, dW=1.0, dH=2.0, modules=inner)
    assert (m.nInputPlane, m.pnorm, m.kW, m.kH, m.dW, m.dH) == (None, 3.0, 2, 3, 1, 2)
    x = uniform((4, 7, 5), 1, 0.1, 2)
    np.testing.assert_allclose(m.forward(x), lp_pool(x, 3, 2, 3, 1, 2), rtol=1e-14)
    assert repr(m) == "nn.SpatialLPPooling(p=3, 2x3, 1,2)"


def test_repr():
    assert repr(nn.SpatialLPPooling(4, 2, 3, 2)) == "nn.SpatialLPPooling(4, p=2, 3x2, 3,2)"
