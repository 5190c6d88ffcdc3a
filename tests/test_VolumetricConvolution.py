"""nn_legacy.VolumetricConvolution and the VolumetricConvolution_* kernels
(the direct 3D convolution):
output[o, t, y, x] = bias[o] + sum weight[o, c, a, b, e] *
                                   input[c, t*dT - padT + a, y*dH - padH + b, x*dW - padW + e]."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import assert_module_matches, assert_module_matches_torch, check_properties, torch_reference
from layer_checks import check_bad_arrays, noncontiguous_views, raises_exactly, uniform
from volumetric_checks import (DILATED_IDS, DILATED_SETTINGS, FULL_DILATED_IDS, FULL_DILATED_SETTINGS, FULL_IDS,
                               FULL_SETTINGS, SETTING_IDS, VOLUMETRIC_SETTINGS, as_batch, check_empty_batch,
                               conv3d_loops, full_conv3d_loops, geometry, save_and_load, torch7, volume_data)

N_IN, N_OUT = 2, 3
SIZE = (4, 5, 6)                       # T, H, W


def make(settings=(2, 3, 1, 1, 2, 1, 1, 0, 1), cls=nn.VolumetricConvolution):
    return cls(N_IN, N_OUT, *settings)


def data(m, batch=2, size=SIZE, seed=1):
    """(input, gradOutput) for module m; batch None: one 4D sample."""
    return volume_data(m, N_IN, size, batch, seed)


# ---------------------------------------------------------------- values
# The five volumetric convolutions are one family: their exact references (the
# loops of volumetric_checks and torch's conv3d / conv_transpose3d) run here,
# each layer with its settings after the planes, their ids and its input size
# (T, H, W); each layer's file keeps what only it checks.
FAMILY = {
    "VolumetricConvolution": (VOLUMETRIC_SETTINGS, SETTING_IDS, SIZE),
    "VolumetricConvolutionMM": (VOLUMETRIC_SETTINGS, SETTING_IDS, SIZE),
    "VolumetricDilatedConvolution": (DILATED_SETTINGS, DILATED_IDS, (5, 6, 7)),
    "VolumetricFullConvolution": (FULL_SETTINGS, FULL_IDS, (3, 4, 2)),
    "VolumetricFullDilatedConvolution": (FULL_DILATED_SETTINGS, FULL_DILATED_IDS, (3, 2, 4)),
}
EACH_SETTING = [(name, s) for name, (settings, _, _) in FAMILY.items() for s in settings]
EACH_SETTING_IDS = [f"{name[len('Volumetric'):]}-{i}" for name, (_, ids, _) in FAMILY.items() for i in ids]


@pytest.mark.parametrize("name, settings", EACH_SETTING, ids=EACH_SETTING_IDS)
@pytest.mark.parametrize("batch", [None, 2], ids=["4D", "5D"])
def test_forward_and_backward_match_loops(name, settings, batch):
    m = getattr(nn, name)(N_IN, N_OUT, *settings)
    x, g = volume_data(m, N_IN, FAMILY[name][2], batch)
    step, pad, dilation, adj = geometry(name, settings)
    if "Full" in name:
        out, gx, gw, gb = full_conv3d_loops(as_batch(x), m.weight, m.bias, as_batch(g), step, pad, adj, dilation)
    else:
        out, gx, gw, gb = conv3d_loops(as_batch(x), m.weight, m.bias, as_batch(g), step, pad, dilation)
    assert m.forward(x).shape == g.shape
    assert_module_matches(m, x, g, out.reshape(g.shape), gx.reshape(x.shape), gw, gb)


@pytest.mark.parametrize("name, settings", EACH_SETTING, ids=EACH_SETTING_IDS)
def test_matches_torch_conv3d_or_its_transpose(name, settings):
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    m = getattr(nn, name)(N_IN, N_OUT, *settings)
    x, g = volume_data(m, N_IN, FAMILY[name][2])
    step, pad, dilation, adj = geometry(name, settings)
    if "Full" in name:
        def reference(t, w, b):
            return F.conv_transpose3d(t, w, b, stride=step, padding=pad, output_padding=adj, dilation=dilation)
    else:
        def reference(t, w, b):
            return F.conv3d(t, w, b, stride=step, padding=pad, dilation=dilation)
    assert_module_matches_torch(m, reference, x, g)


def test_without_bias_matches_torch():
    torch = pytest.importorskip("torch")
    m = make().noBias()
    x, g = data(m)
    out, gin, (gw,) = torch_reference(
        lambda t, w: torch.nn.functional.conv3d(t, w, None, stride=(1, 1, 2), padding=(1, 1, 0)), x, [m.weight], g)
    assert_module_matches(m, x, g, out, gin, gw, None)
    assert repr(m) == "nn.VolumetricConvolution(2 -> 3, 2x3x1, 1,2,1, 1,0,1) without bias"


def test_one_tap_sees_the_right_voxel():
    """A single nonzero tap at (a, b, e) = (1, 0, 2) of a 2x1x3 (T x H x W)
    kernel copies input voxel (t + 1, y, x + 2): swapped axes would not."""
    m = nn.VolumetricConvolution(1, 1, 2, 3, 1)
    m.weight[...] = 0
    m.weight[0, 0, 1, 0, 2] = 1
    m.bias[...] = 0
    x = uniform((1, 3, 4, 5), 3)
    np.testing.assert_array_equal(m.forward(x), x[:, 1:, :, 2:])


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("settings", [VOLUMETRIC_SETTINGS[1], VOLUMETRIC_SETTINGS[2]], ids=SETTING_IDS[1:3])
def test_properties(settings):
    m = make(settings)
    check_properties(lambda: make(settings), *data(m, 2, (4, 4, 3)), *data(m, 1, (4, 4, 3), seed=5))


def test_buffer_reuse_across_volume_sizes():
    from layer_checks import check_buffer_reuse
    m = make()
    x1, g1 = data(m, None, (4, 5, 6))
    x2, g2 = data(m, None, (3, 3, 4), seed=7)
    check_buffer_reuse(m, x1, g1, x2, g2)


def test_noncontiguous_weight_and_bias():
    m = make()
    x, g = data(m)
    out, gin = m.forward(x).copy(), m.backward(x, g).copy()
    m.weight, m.bias = noncontiguous_views(m.weight)[1][1], noncontiguous_views(m.bias)[1][1]
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_empty_batch():
    assert check_empty_batch(make(), (N_IN,) + SIZE) == (0, N_OUT, 5, 7, 2)


def test_inside_a_sequential():
    from layer_checks import assert_input_jacobian
    model = nn.Sequential().add(make()).add(nn.Tanh()).add(nn.VolumetricConvolution(N_OUT, 1, 1, 2, 2))
    assert_input_jacobian(model, uniform((1, N_IN, 3, 4, 7), 4))


# ---------------------------------------------------------------- construction
def test_defaults_layout_and_reset():
    m = nn.VolumetricConvolution(4, 5, 3, 2, 1)
    assert (m.dT, m.dW, m.dH, m.padT, m.padW, m.padH) == (1, 1, 1, 0, 0, 0)
    assert m.weight.shape == m.gradWeight.shape == (5, 4, 3, 1, 2) and m.bias.shape == (5,)
    bound = 1 / np.sqrt(3 * 2 * 1 * 4)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01) and np.all(np.abs(m.bias) <= 0.01)


def test_pads_default_as_in_torch7():
    """padW defaults to padT and padH to padW, as Torch7's constructor did."""
    m = nn.VolumetricConvolution(1, 1, 3, 3, 3, 1, 1, 1, 2)
    assert (m.padT, m.padW, m.padH) == (2, 2, 2)
    m = nn.VolumetricConvolution(1, 1, 3, 3, 3, 1, 1, 1, 2, 1)
    assert (m.padT, m.padW, m.padH) == (2, 1, 1)


def test_repr():
    assert repr(nn.VolumetricConvolution(2, 3, 4, 5, 6)) == "nn.VolumetricConvolution(2 -> 3, 4x5x6)"
    assert repr(nn.VolumetricConvolution(2, 3, 4, 5, 6, 1, 2, 3)) == \
        "nn.VolumetricConvolution(2 -> 3, 4x5x6, 1,2,3)"
    assert repr(nn.VolumetricConvolution(2, 3, 4, 5, 6, 1, 1, 1, 0, 1, 2)) == \
        "nn.VolumetricConvolution(2 -> 3, 4x5x6, 1,1,1, 0,1,2)"


@pytest.mark.parametrize("args, message", [
    ((0, 3, 1, 1, 1), "nInputPlane, nOutputPlane must be positive integers, got nInputPlane=0, nOutputPlane=3"),
    ((2, 3, 1, 0, 1), "kT, kW, kH must be positive integers, got kT=1, kW=0, kH=1"),
    ((2, 3, 1, 1, "2"), "kT, kW, kH must be positive integers, got kT=1, kW=1, kH='2'"),
    ((2, 3, 1, 1, 1, 1, 1, -1), "dT, dW, dH must be positive integers, got dT=1, dW=1, dH=-1"),
    ((2, 3, 1, 1, 1, 1, 1, 1, 0, -1), "padT, padW, padH must be non-negative integers, got padT=0, padW=-1, "
                                      "padH=-1"),
])
def test_constructor_refuses_bad_settings(args, message):
    with raises_exactly(ValueError, "VolumetricConvolution: " + message):
        nn.VolumetricConvolution(*args)


# ---------------------------------------------------------------- bad input
def test_bad_array_types():
    m = make()
    x, g = data(m)
    check_bad_arrays(m, x, g, "VolumetricConvolution")


@pytest.mark.parametrize("shape, described", [
    ((2, 3) + SIZE, "5D of size [2, 3, 4, 5, 6]"),       # wrong plane count
    ((N_IN, 4, 5), "3D of size [2, 4, 5]"),
    ((1, 1, N_IN, 4, 5, 6), "6D of size [1, 1, 2, 4, 5, 6]"),
])
def test_wrong_planes_or_dimensions(shape, described):
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_updateOutput: input must be 4D [nInputPlane, T, H, "
                                        "W] or 5D [batch, nInputPlane, T, H, W] with 2 planes, got " + described):
        make().forward(np.zeros(shape))


def test_input_smaller_than_the_kernel():
    m = make((3, 2, 4, 1, 1, 1, 1, 0, 1))     # needs T >= 1, H >= 2, W >= 2
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_updateOutput: input must be at least 1 x 2 x 2 "
                                        "(T x H x W) for this kernel, padding and dilation, got 4D of size "
                                        "[2, 1, 1, 5]"):
        m.forward(np.zeros((N_IN, 1, 1, 5)))
    assert m.forward(np.zeros((N_IN, 1, 2, 2))).shape == (N_OUT, 1, 1, 1)


@pytest.mark.parametrize("settings, message", [
    ((0, 1, 1, 1, 1, 1, 0, 0, 0), "kernel size must be positive, got kT=0, kW=1, kH=1"),
    ((1, 1, -2, 1, 1, 1, 0, 0, 0), "kernel size must be positive, got kT=1, kW=1, kH=-2"),
    ((1, 1, 1, 1, 0, 1, 0, 0, 0), "stride must be positive, got dT=1, dW=0, dH=1"),
    ((1, 1, 1, 1, 1, 1, 0, 0, -1), "padding must be at least 0, got padT=0, padW=0, padH=-1"),
])
def test_kernel_refuses_bad_settings(settings, message):
    k = thnn.Double
    kT, kW, kH = settings[:3]
    w = np.zeros((N_OUT, N_IN, max(kT, 1), max(kH, 1), max(kW, 1)))
    x, g = np.zeros((N_IN, 4, 4, 4)), np.zeros((N_OUT, 4, 4, 4))
    for verb, call in [("updateOutput", lambda: k.VolumetricConvolution_updateOutput(x, None, w, None, *settings)),
                       ("updateGradInput", lambda: k.VolumetricConvolution_updateGradInput(x, g, None, w, *settings)),
                       ("accGradParameters", lambda: k.VolumetricConvolution_accGradParameters(
                           x, g, w.copy(), None, *settings, 1.0))]:
        with raises_exactly(thnn.THNNError, f"VolumetricConvolution_{verb}: {message}"):
            call()


def test_weight_with_kW_and_kH_swapped():
    x, w = np.zeros((N_IN, 4, 5, 6)), np.zeros((N_OUT, N_IN, 2, 3, 1))   # [.., kT, kW, kH]: wrong
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_updateOutput: weight must be 5D [nOutputPlane, "
                                        "nInputPlane, kT=2, kH=1, kW=3], got 5D of size [3, 2, 2, 3, 1]"):
        thnn.Double.VolumetricConvolution_updateOutput(x, None, w, None, 2, 3, 1, 1, 1, 1, 0, 0, 0)


def test_bias_of_the_wrong_size():
    m = make()
    m.bias = np.zeros(N_OUT + 1)
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_updateOutput: bias must be 1D of size [3], "
                                        "got 1D of size [4]"):
        m.forward(np.zeros((N_IN,) + SIZE))


@pytest.mark.parametrize("g_shape, described", [
    ((2, N_OUT, 5, 7, 3), "5D of size [2, 3, 5, 7, 3]"),
    ((N_OUT, 5, 7, 2), "4D of size [3, 5, 7, 2]"),
    ((2, N_OUT + 1, 5, 7, 2), "5D of size [2, 4, 5, 7, 2]"),
])
def test_mismatched_gradOutput(g_shape, described):
    m = make()
    x = uniform((2, N_IN) + SIZE)
    assert m.forward(x).shape == (2, N_OUT, 5, 7, 2)
    m.zeroGradParameters()
    for verb in ("updateGradInput", "accGradParameters"):
        with raises_exactly(thnn.THNNError, f"VolumetricConvolution_{verb}: gradOutput must be 5D of size "
                                            f"[2, 3, 5, 7, 2], got {described}"):
            getattr(m, verb)(x, np.zeros(g_shape))
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_accumulators_must_be_contiguous():
    m = make()
    x, g = data(m)
    m.gradWeight = noncontiguous_views(np.zeros_like(m.weight))[1][1]
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_accGradParameters: gradWeight must be contiguous "
                                        "(it is written in place)"):
        m.accGradParameters(x, g)


# ---------------------------------------------------------------- Torch7 files
def test_a_torch7_file_loads(tmp_path):
    fresh = make()
    saved = torch7("nn.VolumetricConvolution", nInputPlane=2.0, nOutputPlane=3.0, kT=2.0, kW=3.0, kH=1.0,
                   dT=1.0, dW=2.0, dH=1.0, padT=1.0, padW=0.0, padH=1.0,
                   weight=fresh.weight.reshape(N_OUT, -1), bias=fresh.bias,   # saved mid-call, in the MM view
                   gradWeight=np.full(fresh.weight.shape, np.nan), gradBias=np.zeros(N_OUT),
                   finput=np.ones((3, 4)), fgradInput=np.ones(2))
    loaded = save_and_load(tmp_path, saved)
    assert type(loaded) is nn.VolumetricConvolution and repr(loaded) == repr(fresh)
    assert loaded.weight.shape == loaded.gradWeight.shape == fresh.weight.shape
    assert not hasattr(loaded, "finput") and not loaded.gradWeight.any()
    x, g = data(fresh)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))


def test_an_old_torch7_file_without_pads_loads(tmp_path):
    fresh = nn.VolumetricConvolution(N_IN, N_OUT, 2, 3, 1)
    saved = torch7("nn.VolumetricConvolution", nInputPlane=2.0, nOutputPlane=3.0, kT=2.0, kW=3.0, kH=1.0,
                   dT=1.0, dW=1.0, dH=1.0, weight=fresh.weight, bias=fresh.bias,
                   gradWeight=fresh.weight, gradBias=fresh.bias)
    loaded = save_and_load(tmp_path, saved)
    assert (loaded.padT, loaded.padW, loaded.padH) == (0, 0, 0)
    x = uniform((N_IN,) + SIZE)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))


def test_settings_whose_output_size_overflows_raise():
    """Pads of 2^31 - 1 make an output volume of ~2^96 voxels: an error, not an overflow."""
    big = 2 ** 31 - 1
    x, w = np.zeros((N_IN, 3, 4, 5)), np.zeros((1, N_IN, 1, 1, 1))
    message = "the output volume (4294967297 x 4294967298 x 4294967299 voxels, T x H x W) is too large"
    with raises_exactly(thnn.THNNError, "VolumetricConvolution_updateOutput: " + message):
        thnn.Double.VolumetricConvolution_updateOutput(x, None, w, None, 1, 1, 1, 1, 1, 1, big, big, big)
    with raises_exactly(thnn.THNNError, "VolumetricConvolutionMM_accGradParameters: " + message):
        thnn.Double.VolumetricConvolutionMM_accGradParameters(x, x, w.copy(), None, None, 1, 1, 1, 1, 1, 1,
                                                              big, big, big, 1.0)
    with raises_exactly(thnn.THNNError, "VolumetricFullConvolution_updateOutput: cannot resize: the number of "
                                        "elements overflows"):
        thnn.Double.VolumetricFullConvolution_updateOutput(x, None, np.zeros((N_IN, 1, 1, 1, 1)), None, None,
                                                           1, 1, 1, big, big, big, 0, 0, 0, 0, 0, 0)
