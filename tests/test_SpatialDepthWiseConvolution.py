"""nn_legacy.SpatialDepthWiseConvolution and its kernels: each input plane c
convolved alone by depthwiseMultiplier kernels into output planes
c*M .. c*M + M - 1, Torch7's layout (weight [M, nInputPlane*kH*kW], bias
[M, nInputPlane])."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import (as_batch, assert_module_matches, check_empty_batch, check_properties, check_threads,
                         conv_loops, conv_taps, t7_object, torch_reference)
from layer_checks import raises_exactly, uniform

N_IN, M = 3, 2
# (kW, kH, dW, dH, padW, padH), input [batch, 3, 6, 5]
SETTINGS = [(3, 2, 1, 2, 1, 1), (2, 3, 2, 1, 0, 2), (3, 2, 1, 1, 1, 0)]   # the last: step 1 (gradInput by blocks)
SETTING_IDS = ["k3x2-s1,2-p1,1", "k2x3-s2,1-p0,2", "k3x2-s1-p1,0"]
X_SHAPE = (2, N_IN, 6, 5)


def make(setting=SETTINGS[0], multiplier=M):
    return nn.SpatialDepthWiseConvolution(N_IN, multiplier, *setting)


def output_shape(setting, x_shape, multiplier=M):
    kW, kH, dW, dH, padW, padH = setting
    return x_shape[:-3] + (N_IN * multiplier, (x_shape[-2] + 2 * padH - kH) // dH + 1,
                           (x_shape[-1] + 2 * padW - kW) // dW + 1)


def data(setting=SETTINGS[0], x_shape=X_SHAPE, seed=1):
    return uniform(x_shape, seed), uniform(output_shape(setting, x_shape), seed + 1)


def per_plane_weight(m):
    """weight as [M, nInputPlane, kH, kW]: kernel m of plane c."""
    return m.weight.reshape(m.depthwiseMultiplier, m.nInputPlane, m.kH, m.kW)


def loops(m, x, g):
    """Each plane by itself through conv_loops (a convolution of 1 plane into M)."""
    w = per_plane_weight(m)
    dW, dH, padW, padH = m.dW, m.dH, m.padW, m.padH
    parts = []
    for c in range(m.nInputPlane):
        b = None if m.bias is None else m.bias[:, c]
        parts.append(conv_loops(x[:, c:c + 1], w[:, c:c + 1], b, g[:, c * M:(c + 1) * M], dW, dH, padW, padH))
    out = np.concatenate([p[0] for p in parts], axis=1)
    gin = np.concatenate([p[1] for p in parts], axis=1)
    gw = np.stack([p[2][:, 0] for p in parts], axis=1)   # [M, nIn, kH, kW]
    gb = None if m.bias is None else np.stack([p[3] for p in parts], axis=1)
    return out, gin, gw, gb


def test_output_shapes():
    assert output_shape(SETTINGS[0], X_SHAPE) == (2, 6, 4, 5)
    assert make().forward(data()[0]).shape == (2, 6, 4, 5)
    assert output_shape(SETTINGS[1], X_SHAPE) == (2, 6, 8, 2)


def test_parameter_shapes_are_torch7s():
    m = make()
    assert m.weight.shape == (M, N_IN * 3 * 2) and m.bias.shape == (M, N_IN) and m.nOutputPlane == N_IN * M


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("x_shape", [X_SHAPE, X_SHAPE[1:]], ids=["4D", "3D"])
@pytest.mark.parametrize("bias", [True, False])
def test_matches_loops(setting, x_shape, bias):
    m = make(setting) if bias else make(setting).noBias()
    x, g = data(setting, x_shape)
    out, gin, gw, gb = loops(m, as_batch(x), as_batch(g))
    assert_module_matches(m, x, g, out.reshape(output_shape(setting, x_shape)), gin.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_matches_torch_groups(setting):
    """PyTorch's depth-wise convolution: conv2d with groups = nInputPlane and
    weight [c*M + m, 0] = weight[m, c] (bias likewise)."""
    torch = pytest.importorskip("torch")
    m = make(setting)
    x, g = data(setting)
    kW, kH, dW, dH, padW, padH = setting
    w = per_plane_weight(m).transpose(1, 0, 2, 3).reshape(N_IN * M, 1, kH, kW)
    b = m.bias.T.reshape(-1)
    out, gin, (gw, gb) = torch_reference(
        lambda t, w_, b_: torch.nn.functional.conv2d(t, w_, b_, stride=(dH, dW), padding=(padH, padW), groups=N_IN),
        x, [w, b], g)
    gw = gw.reshape(N_IN, M, kH, kW).transpose(1, 0, 2, 3)
    assert_module_matches(m, x, g, out, gin, gw, gb.reshape(N_IN, M).T)


# The forward (and, at step 1, gradInput) sums blocks of 4 output rows x 16
# (float) or 8 (double) pixels over a zero-padded copy split into dW phases:
# shapes whose output crosses and ends inside blocks, every step 1-3 on both
# axes, kernels wider than the step, padding up to the kernel's span less
# one, and a multiplier of 3 (gradInput sums 3 planes); the last four have
# planes at most half a block wide (the narrow blocks: 8 floats or 4
# doubles), MobileNet's 7x7 among them, by step 1 and 2.
# (kW, kH, dW, dH, padW, padH), input [H, W]
BLOCK_CASES = [((3, 3, 1, 1, 1, 1), (23, 37)), ((3, 3, 2, 2, 1, 1), (35, 70)), ((5, 3, 3, 2, 2, 0), (17, 53)),
               ((1, 7, 1, 3, 0, 3), (30, 9)), ((4, 2, 2, 1, 3, 1), (5, 33)), ((3, 5, 1, 1, 0, 0), (8, 16)),
               ((2, 4, 1, 1, 1, 3), (9, 20)), ((5, 5, 1, 1, 4, 2), (13, 18)),
               ((3, 3, 1, 1, 1, 1), (7, 7)), ((3, 3, 2, 2, 1, 1), (14, 14)), ((3, 3, 1, 1, 1, 1), (19, 3)),
               ((5, 3, 1, 2, 2, 1), (21, 6))]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("setting, size", BLOCK_CASES, ids=[f"{s}-{h}x{w}" for s, (h, w) in BLOCK_CASES])
def test_blocks_match_the_taps(setting, size, dtype):
    m = nn.SpatialDepthWiseConvolution(N_IN, 3, *setting)
    m = m.float() if dtype == np.float32 else m
    x = uniform((2, N_IN) + size, 7).astype(dtype)
    kW, kH, dW, dH, padW, padH = setting
    w = m.weight.reshape(3, N_IN, kH, kW).astype(np.float64)
    g = uniform((2, 3 * N_IN, (size[0] + 2 * padH - kH) // dH + 1, (size[1] + 2 * padW - kW) // dW + 1), 8)
    parts = [conv_taps(x[:, c:c + 1].astype(np.float64), w[:, c:c + 1], m.bias[:, c], g[:, 3 * c:3 * c + 3],
                       dW, dH, padW, padH) for c in range(N_IN)]
    out, gin = (np.concatenate([p[k] for p in parts], axis=1) for k in (0, 1))
    tight = dict(rtol=1e-13, atol=1e-14) if dtype == np.float64 else dict(rtol=2e-6, atol=2e-6)
    y = m.forward(x[:, :, ::-1][:, :, ::-1])   # a non-contiguous view of the same values
    assert y.dtype == dtype and y.shape == out.shape
    np.testing.assert_allclose(y, out, **tight)
    gi = m.updateGradInput(x, g.astype(dtype)[..., ::-1][..., ::-1])
    assert gi.dtype == dtype and gi.shape == x.shape
    np.testing.assert_allclose(gi, gin, **tight)


def test_multiplier_one_is_a_per_plane_convolution():
    m = nn.SpatialDepthWiseConvolution(2, 1, 3, 2)
    x = uniform((2, 5, 6))
    out = m.forward(x)
    for c in range(2):
        conv = nn.SpatialConvolution(1, 1, 3, 2)
        conv.weight[...] = m.weight.reshape(1, 2, 2, 3)[:, c:c + 1]
        conv.bias[...] = m.bias[:, c]
        np.testing.assert_allclose(out[c:c + 1], conv.forward(x[c:c + 1]), rtol=1e-13, atol=1e-14)


def test_empty_batch():
    assert check_empty_batch(make(), X_SHAPE[1:]) == (0, 6, 4, 5)


@pytest.mark.parametrize("setting", SETTINGS, ids=SETTING_IDS)
def test_layer_properties(setting):
    check_properties(lambda: make(setting), *data(setting), *data(setting, (1,) + X_SHAPE[1:], seed=5))


def test_4d_weight_is_accepted_by_the_kernels():
    m = make()
    x, g = data()
    out = m.forward(x).copy()
    m.weight = per_plane_weight(m).copy()
    np.testing.assert_array_equal(m.forward(x), out)


def test_reset_draws_from_the_torch7_range():
    m = nn.SpatialDepthWiseConvolution(4, 50, 3, 2)
    bound = 1 / np.sqrt(3 * 2 * 4)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4


def test_repr():
    assert repr(make()) == "nn.SpatialDepthWiseConvolution(3 -> 2, 3x2, 1,2, 1,1)"
    assert repr(nn.SpatialDepthWiseConvolution(3, 2, 3, 3).noBias()) == \
        "nn.SpatialDepthWiseConvolution(3 -> 2, 3x3) without bias"


@pytest.mark.parametrize("version, multiplier_field", [(2, "depthwiseMultiplier"), (1, "nOutputPlane")])
def test_loads_torch7_files_of_both_versions(tmp_path, version, multiplier_field):
    """Version 1 files stored the multiplier as nOutputPlane."""
    weight, bias = uniform((M, N_IN * 6), 7), uniform((M, N_IN), 8)
    fields = {"nInputPlane": 3.0, multiplier_field: 2.0, "kW": 3.0, "kH": 2.0, "dW": 1.0, "dH": 2.0,
              "padW": 1.0, "padH": 1.0, "weight": weight, "bias": bias, "finput": np.zeros(3)}
    if version == 2:
        fields["nOutputPlane"] = 6.0
    m = nn.load_lua(t7_object(tmp_path / "dw.t7", "nn.SpatialDepthWiseConvolution", fields, version=version))
    assert (m.depthwiseMultiplier, m.nOutputPlane) == (M, N_IN * M) and repr(m) == repr(make())
    assert not hasattr(m, "finput")
    want = make()
    want.weight[...], want.bias[...] = weight, bias
    x = data()[0]
    np.testing.assert_array_equal(m.forward(x), want.forward(x))


# ---------------------------------------------------------------- bad input
def test_wrong_planes():
    with raises_exactly(thnn.THNNError, "SpatialDepthWiseConvolution_updateOutput: input must be 3D or 4D with 3 "
                                        "planes, got 4D of size [2, 6, 6, 5]"):
        make().forward(np.zeros((2, 6, 6, 5)))


def test_bias_in_the_wrong_layout():
    m = make()
    m.bias = m.bias.T.copy()
    with raises_exactly(thnn.THNNError, "SpatialDepthWiseConvolution_updateOutput: bias must be 2D of size [2, 3], "
                                        "got 2D of size [3, 2]"):
        m.forward(data()[0])


def test_mismatched_gradOutput():
    m = make()
    x, g = data()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "SpatialDepthWiseConvolution_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 6, 4, 5], got 4D of size [2, 3, 4, 5]"):
        m.updateGradInput(x, np.zeros((2, 3, 4, 5)))
    with raises_exactly(thnn.THNNError, "SpatialDepthWiseConvolution_accGradParameters: gradOutput must be 4D of "
                                        "size [2, 6, 4, 5], got 4D of size [2, 6, 5, 4]"):
        m.accGradParameters(x, np.zeros((2, 6, 5, 4)))


def test_input_smaller_than_the_kernel():
    m = nn.SpatialDepthWiseConvolution(1, 1, 5, 4)
    with raises_exactly(thnn.THNNError, "SpatialDepthWiseConvolution_updateOutput: input must be at least 4 high and "
                                        "5 wide for this kernel and padding, got 3D of size [1, 5, 4]"):
        m.forward(np.zeros((1, 5, 4)))


@pytest.mark.parametrize("settings, message", [
    ((3, 0, 1, 1, 0, 0), "kernel size must be positive, got kW=3, kH=0"),
    ((3, 2, 1, 0, 0, 0), "stride must be positive, got dW=1, dH=0"),
    ((3, 2, 1, 1, 0, 2), "padding must be at least 0 and less than the kernel span (3 wide, 2 high), "
                         "got padW=0, padH=2"),
])
def test_kernel_refuses_bad_settings(settings, message):
    with raises_exactly(thnn.THNNError, f"SpatialDepthWiseConvolution_updateGradInput: {message}"):
        thnn.Double.SpatialDepthWiseConvolution_updateGradInput(np.zeros((3, 6, 5)), np.zeros((6, 5, 3)), None,
                                                                np.zeros((2, 18)), *settings)


def test_constructor_refuses_bad_settings():
    with raises_exactly(ValueError, "SpatialDepthWiseConvolution: nInputPlane and depthwiseMultiplier must be at "
                                    "least 0, got nInputPlane=3, depthwiseMultiplier=-1"):
        nn.SpatialDepthWiseConvolution(3, -1, 3, 3)
    with raises_exactly(ValueError, "SpatialDepthWiseConvolution: padW and padH must be at least 0 and less than the "
                                    "kernel span (3 wide, 2 high), got padW=2, padH=2"):
        nn.SpatialDepthWiseConvolution(3, 2, 3, 2, 1, 1, 2)


def test_threads_split_the_planes_without_changing_results():
    """8 samples x 16 planes x 2 kernels x 2048 pixels x 9 taps: 4.7M multiply-adds per verb."""
    check_threads(lambda: nn.SpatialDepthWiseConvolution(16, 2, 3, 3, 1, 1, 1, 1), uniform((8, 16, 32, 64), 1),
                  uniform((8, 32, 32, 64), 2))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("setting", [(3, 3, 1, 1, 1, 1), (3, 3, 2, 2, 1, 1), (5, 2, 3, 1, 2, 0), (1, 1, 2, 1, 0, 0)],
                         ids=["3x3", "3x3/2", "5x2/3,1", "1x1/2,1"])
def test_vector_rows_of_every_step(setting, dtype, threads):
    # the forward's rows of taps (vectorized; steps 1 and 2 specialised, 3
    # general) on rows longer than a vector with a tail, one sample and a
    # non-contiguous input, against a numpy reference of each plane alone
    kW, kH, dW, dH, padW, padH = setting
    m = nn.SpatialDepthWiseConvolution(4, 2, *setting)
    if dtype == np.float32:
        m.float()
    x = uniform((1, 4, 19, 203), 3).astype(dtype)
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        out = m.forward(np.asfortranarray(x)).copy()
    finally:
        thnn.set_num_threads(before)
    w = per_plane_weight(m).astype(np.float64)
    want = np.concatenate([conv_taps(x[:, c:c + 1].astype(np.float64), w[:, c:c + 1], m.bias[:, c],
                                     np.zeros((1, 2) + out.shape[2:]), dW, dH, padW, padH)[0] for c in range(4)],
                          axis=1)
    assert out.dtype == dtype
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, want, rtol=rtol, atol=rtol)
