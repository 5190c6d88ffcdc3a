"""nn_legacy.PReLU and the PReLU_* kernels: y = x if x > 0 else w[c] * x, with
one learned slope (nOutputPlane = 0) or one per channel (dim 0 of 1D/3D
input, dim 1 of 2D/4D input, Torch7's layout)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_nan_at, noncontiguous_views,
                          raises_exactly, torch_forward_backward, torch_or_skip, uniform, with_zeros)

C = 3
# (input shape, nOutputPlane): shared slope on any shape, then one per channel
LAYOUTS = [((7,), 0), ((2, 3, 2), 0), ((C,), C), ((4, C), C), ((C, 2, 3), C), ((2, C, 2, 2), C)]
LAYOUT_IDS = ["shared-1D", "shared-3D", "1D", "2D", "3D", "4D"]


def make(n=C):
    m = nn.PReLU(n)
    m.weight[...] = np.linspace(0.1, 0.6, m.weight.size)  # distinct slopes, so a wrong channel shows
    return m


def channel_slopes(m, shape):
    """weight broadcast against an input of this shape."""
    if m.nOutputPlane == 0:
        return m.weight[0]
    dim = 1 if len(shape) in (2, 4) else 0
    return m.weight.reshape((C,) + (1,) * (len(shape) - dim - 1))


@pytest.mark.parametrize("shape, n", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_numpy(shape, n):
    m = make(n)
    x, g = with_zeros(shape), uniform(shape, 2)
    w = channel_slopes(m, shape)
    np.testing.assert_array_equal(m.forward(x), np.where(x > 0, x, w * x))
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), np.where(x > 0, g, w * g))
    per_element = np.where(x > 0, 0, x * g)
    if n == 0:
        want = [per_element.sum()]
    else:
        axis = 1 if len(shape) in (2, 4) else 0
        want = np.moveaxis(per_element, axis, 0).reshape(C, -1).sum(axis=1)
    np.testing.assert_allclose(m.gradWeight, 0.5 * np.asarray(want), rtol=1e-14, atol=1e-16)


@pytest.mark.parametrize("shape, n", [((7,), 0), ((2, 3, 2), 0), ((4, C), C), ((2, C, 2, 2), C)],
                         ids=["shared-1D", "shared-3D", "2D", "4D"])
def test_matches_torch(shape, n):
    torch = torch_or_skip()
    m = make(n)
    x, g = uniform(shape, 1), uniform(shape, 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.prelu(t, w), x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-16)


def test_3d_input_is_one_unbatched_sample_as_in_torch7():
    """Torch7 reads [n, h, w] as channels first; PyTorch would read it as
    [batch, n, length], so compare with PyTorch on [1, n, h, w]."""
    torch = torch_or_skip()
    m = make()
    x, g = uniform((C, 2, 4), 1), uniform((C, 2, 4), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.prelu(t, w), x[None], g[None])
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out[0])
    np.testing.assert_array_equal(m.backward(x, g), gin[0])
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-16)


def test_defaults_are_torch7s():
    shared, per_channel = nn.PReLU(), nn.PReLU(5)
    assert shared.nOutputPlane == 0
    np.testing.assert_array_equal(shared.weight, [0.25])
    np.testing.assert_array_equal(per_channel.weight, np.full(5, 0.25))
    assert shared.weight.dtype == np.float64 and shared.gradWeight.shape == (1,)
    per_channel.weight[:] = 1
    np.testing.assert_array_equal(per_channel.reset().weight, np.full(5, 0.25))


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("shape, n", LAYOUTS, ids=LAYOUT_IDS)
def test_jacobians(shape, n):
    m = make(n)
    x = with_zeros(shape, 3)
    report = assert_input_jacobian(m, x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0
    assert_parameter_jacobians(m, x)


def test_gradients_accumulate_with_scale():
    m = make()
    x, g = uniform((4, C), 1), uniform((4, C), 2)
    m.zeroGradParameters()
    m.backward(x, g)
    once = m.gradWeight.copy()
    m.backward(x, g, 2.0)
    np.testing.assert_allclose(m.gradWeight, 3 * once, rtol=1e-15, atol=0)


# ---------------------------------------------------------------- generic properties
def test_has_one_parameter():
    m = make()
    params, grads = m.parameters()
    assert len(params) == 1 and params[0] is m.weight and grads[0] is m.gradWeight


def test_noncontiguous_weight():
    m = make()
    x, g = uniform((4, C), 1), uniform((4, C), 2)
    m.zeroGradParameters()
    out, gin = m.forward(x).copy(), m.backward(x, g).copy()
    gw = m.gradWeight.copy()
    _, m.weight = noncontiguous_views(m.weight)[1]
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_array_equal(m.gradWeight, gw)


def test_nan_propagates():
    check_nan_at(make(), uniform((3, C), 1), (2, 1), uniform((3, C), 2))


@pytest.mark.slow
def test_shared_slope_on_any_shape_and_layout():
    check_any_layout(lambda: make(0))


def test_empty_batch():
    m = make()
    assert m.forward(np.zeros((0, C))).shape == (0, C)
    m.zeroGradParameters()
    assert m.backward(np.zeros((0, C)), np.zeros((0, C))).shape == (0, C)
    assert not m.gradWeight.any()


def test_repr():
    assert repr(nn.PReLU()) == "nn.PReLU"
    assert repr(nn.PReLU(4)) == "nn.PReLU(4)"


# ---------------------------------------------------------------- bad input
def test_negative_nOutputPlane_is_refused():
    with raises_exactly(ValueError, "PReLU: nOutputPlane must be >= 0, got -1"):
        nn.PReLU(-1)
    with raises_exactly(thnn.THNNError, "PReLU_updateOutput: nOutputPlane must be >= 0, got -1"):
        thnn.Double.PReLU_updateOutput(uniform((3,)), None, np.ones(1), -1)


@pytest.mark.parametrize("shape, described", [
    ((4, 5), "2D of size [4, 5]"), ((5,), "1D of size [5]"), ((C + 1, 2, 2), "3D of size [4, 2, 2]"),
    ((2, C, 1, 1, 1), "5D of size [2, 3, 1, 1, 1]"),
])
def test_wrong_number_of_channels(shape, described):
    with raises_exactly(thnn.THNNError, "PReLU_updateOutput: input must be 1D [3], 2D [batch, 3], "
                                        "3D [3, h, w] or 4D [batch, 3, h, w] (nOutputPlane channels), "
                                        f"got {described}"):
        make().forward(np.zeros(shape))


def test_weight_of_the_wrong_size():
    m = make()
    m.weight = np.ones(C + 1)
    with raises_exactly(thnn.THNNError, "PReLU_updateOutput: weight must be 1D of size [3], got 1D of size [4]"):
        m.forward(uniform((2, C)))
    shared = nn.PReLU()
    shared.weight = np.ones(2)
    with raises_exactly(thnn.THNNError, "PReLU_updateOutput: weight must be of 1 element (one shared slope, "
                                        "nOutputPlane = 0), got 1D of size [2]"):
        shared.forward(uniform((2, C)))


def test_gradWeight_of_the_wrong_size_or_strided():
    x, g = uniform((2, C), 1), uniform((2, C), 2)
    w = np.ones(C)
    with raises_exactly(thnn.THNNError, "PReLU_accGradParameters: gradWeight must be shaped as weight "
                                        "(1D of size [3]), got 1D of size [2]"):
        thnn.Double.PReLU_accGradParameters(x, g, w, np.zeros(2), C, 1.0)
    gw = np.zeros(2 * C)[::2]
    with raises_exactly(thnn.THNNError, "PReLU_accGradParameters: gradWeight must be contiguous "
                                        "(it is written in place)"):
        thnn.Double.PReLU_accGradParameters(x, g, w, gw, C, 1.0)
    assert not gw.any()


def test_float32_input_to_float64_module():
    with raises_exactly(TypeError, "PReLU: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward(uniform((4, C)).astype(np.float32))


def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, C)))
    with raises_exactly(thnn.THNNError, "PReLU_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 2]"):
        m.backward(uniform((2, C)), uniform((C, 2)))
    with raises_exactly(thnn.THNNError, "PReLU_accGradParameters: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 2]"):
        m.accGradParameters(uniform((2, C)), uniform((C, 2)))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, n", [((2, C, 37, 181), C), ((C, 37, 181), C), ((3, 70001), 0), ((9000, C), C)],
                         ids=["4D", "3D", "shared", "2D"])
def test_large_inputs_split_between_threads(shape, n, dtype, threads):
    # enough elements for two threads, whose shares start and end inside a
    # channel's plane (the slope changes mid-share); odd sizes (a vector
    # loop's tail), NaN, -0.0 and infinities, a non-contiguous input
    rng = np.random.default_rng(len(shape) + n)
    x = rng.standard_normal(shape).astype(dtype)
    x.flat[::97] = np.nan
    x.flat[1::89] = -0.0
    x.flat[2::83] = -np.inf
    x.flat[3::79] = np.inf
    g = rng.standard_normal(shape).astype(dtype)
    m = make(n)
    if dtype == np.float32:
        m.float()
    w = np.asarray(channel_slopes(m, shape), dtype=dtype)
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        out = m.forward(np.asfortranarray(x)).copy()
        gin = m.backward(x, g).copy()
    finally:
        thnn.set_num_threads(before)
    want = np.where(x > 0, x, w * x)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(want))   # -0.0 * w stays -0.0
    np.testing.assert_array_equal(gin, np.where(x > 0, g, w * g))
