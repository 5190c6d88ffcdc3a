"""nn_legacy.FeatureLPPooling and the FeatureLPPooling_* kernels: the p-norm
of windows of width features, stride apart, at every position."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)

# (width, stride, power)
SETTINGS = [(2, 1, 2.0), (3, 2, 3.0), (4, 3, 1.5), (16, 4, 2.5)]


def positive(shape, seed=0):
    return uniform(shape, seed, 0.2, 2.0)


def reference(x, width, stride, power, batch_mode):
    """Window by window in numpy; features on axis 1 in batch mode, 0 otherwise."""
    axis = 1 if batch_mode else 0
    xs = np.moveaxis(x, axis, 0)
    n_out = (xs.shape[0] - width) // stride + 1
    out = np.stack([(xs[o * stride:o * stride + width] ** power).sum(axis=0) ** (1 / power) for o in range(n_out)])
    return np.moveaxis(out, 0, axis)


def reference_grad(x, y, g, width, stride, power, batch_mode):
    axis = 1 if batch_mode else 0
    xs, ys, gs = (np.moveaxis(a, axis, 0) for a in (x, y, g))
    gi = np.zeros_like(xs)
    for o in range(ys.shape[0]):
        for i in range(width):
            f = o * stride + i
            gi[f] += np.where(ys[o] != 0, gs[o] * (xs[f] / np.where(ys[o] != 0, ys[o], 1)) ** (power - 1), 0)
    return np.moveaxis(gi, 0, axis)


@pytest.mark.parametrize("setting", SETTINGS, ids=str)
@pytest.mark.parametrize("batch_mode, shape", [(False, (17,)), (False, (17, 3)), (False, (17, 2, 3)),
                                               (True, (2, 17)), (True, (2, 17, 3)), (True, (2, 17, 2, 3))], ids=str)
def test_matches_the_reference(setting, batch_mode, shape):
    x = positive(shape, 1)
    m = nn.FeatureLPPooling(*setting, batch_mode)
    want = reference(x, *setting, batch_mode)
    out = m.forward(x)
    np.testing.assert_allclose(out, want, rtol=1e-14, atol=0)
    g = uniform(out.shape, 2)
    np.testing.assert_allclose(m.backward(x, g), reference_grad(x, out, g, *setting, batch_mode), rtol=1e-13,
                               atol=1e-15)


@pytest.mark.parametrize("setting", SETTINGS, ids=str)
def test_matches_torch_lp_pool1d_over_the_features(setting):
    """PyTorch's lp_pool1d is (sum x^p)^(1/p) over a window too (computed
    as avg_pool of x^p times the width, so not to the last bit)."""
    torch = torch_or_skip()
    width, stride, power = setting
    x = positive((2, 18, 3, 4), 1)
    m = nn.FeatureLPPooling(width, stride, power, True)
    out = m.forward(x)
    g = uniform(out.shape, 2)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    rows = tx.permute(0, 2, 3, 1).reshape(-1, 1, 18)
    ty = torch.nn.functional.lp_pool1d(rows, power, width, stride).reshape(2, 3, 4, -1).permute(0, 3, 1, 2)
    ty.backward(torch.from_numpy(g))
    np.testing.assert_allclose(out, ty.detach().numpy(), rtol=1e-13, atol=0)
    np.testing.assert_allclose(m.backward(x, g), tx.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_even_power_of_negative_inputs_and_torch7s_nan():
    x = np.array([-3.0, 4.0, -1.0])
    np.testing.assert_allclose(nn.FeatureLPPooling(2, 1, 2).forward(x), [5.0, np.sqrt(17.0)], rtol=1e-15)
    out = nn.FeatureLPPooling(2, 1, 1.5).forward(x)   # no absolute value, as Torch7: NaN
    assert np.isnan(out).all()


def test_zero_window_passes_no_gradient():
    x = np.array([0.0, 0.0, 2.0])
    m = nn.FeatureLPPooling(2, 1, 2)
    np.testing.assert_array_equal(m.forward(x), [0.0, 2.0])
    np.testing.assert_array_equal(m.backward(x, np.array([5.0, 1.0])), [0.0, 0.0, 1.0])


def test_batch_equals_samples():
    x, g = positive((3, 9, 2, 2), 1), uniform((3, 4, 2, 2), 2)
    batch = nn.FeatureLPPooling(3, 2, 2.5, True)
    out, grad = batch.forward(x).copy(), batch.backward(x, g).copy()
    one = nn.FeatureLPPooling(3, 2, 2.5, False)
    for i in range(3):
        np.testing.assert_array_equal(one.forward(x[i]), out[i])
        np.testing.assert_array_equal(one.backward(x[i], g[i]), grad[i])


def test_repr_and_torch7_file(tmp_path):
    from t7_writer import T7Object, t7_bytes
    assert repr(nn.FeatureLPPooling(3, 2, 2, True)) == "nn.FeatureLPPooling(width 3, stride 2, power 2, batch mode)"
    assert repr(nn.FeatureLPPooling(3, 2, 1.5)) == "nn.FeatureLPPooling(width 3, stride 2, power 1.5)"
    fields = {"width": 3.0, "stride": 2.0, "power": 2.0, "batch_mode": True}
    (tmp_path / "f.t7").write_bytes(t7_bytes(T7Object("nn.FeatureLPPooling", fields)))
    m = nn.load_lua(str(tmp_path / "f.t7"))
    assert (m.width, m.stride, m.power, m.batch_mode) == (3, 2, 2.0, True) and type(m.width) is int
    x = positive((2, 9, 3), 1)
    np.testing.assert_array_equal(m.forward(x), nn.FeatureLPPooling(3, 2, 2, True).forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, message", [((1, 1, 2), "width must be between 2 and 16, got 1"),
                                           ((17, 1, 2), "width must be between 2 and 16, got 17"),
                                           ((2, 5, 2), "stride must be between 1 and 4, got 5"),
                                           ((2, 1, 0), "power must be > 0, got 0.0")])
def test_torch7s_limits(args, message):
    with raises_exactly(ValueError, "FeatureLPPooling: " + message):
        nn.FeatureLPPooling(*args)


@pytest.mark.parametrize("args, message", [((1, 1), "width must be between 2 and 16, got 1"),
                                           ((2, 0), "stride must be between 1 and 4, got 0")])
def test_kernel_checks_the_limits_too(args, message):
    with raises_exactly(thnn.THNNError, "FeatureLPPooling_updateOutput: " + message):
        thnn.Double.FeatureLPPooling_updateOutput(positive((9,), 1), None, 2.0, *args, False)


@pytest.mark.parametrize("batch_mode, shape, message", [
    (False, (2, 9, 3, 3), "1D, 2D or 3D [features, ...] without batch mode, got 4D of size [2, 9, 3, 3]"),
    (True, (9,), "2D, 3D or 4D [batch, features, ...] in batch mode, got 1D of size [9]"),
    (True, (2, 2, 3), "at least 3 (the width) features in dim 1, got 3D of size [2, 2, 3]"),
])
def test_wrong_input_shape(batch_mode, shape, message):
    with raises_exactly(thnn.THNNError, "FeatureLPPooling_updateOutput: input must be " + message):
        nn.FeatureLPPooling(3, 2, 2, batch_mode).forward(positive(shape, 1))


def test_mismatched_gradOutput_and_output():
    m = nn.FeatureLPPooling(3, 2, 2, True)
    x = positive((2, 9, 3), 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "FeatureLPPooling_updateGradInput: gradOutput must be 3D of size "
                                        "[2, 4, 3], got 3D of size [2, 3, 3]"):
        m.backward(x, uniform((2, 3, 3), 2))
    with raises_exactly(thnn.THNNError, "FeatureLPPooling_updateGradInput: output must be 3D of size [3, 4, 3], "
                                        "got 3D of size [2, 4, 3]"):
        m.backward(positive((3, 9, 3), 1), uniform((3, 4, 3), 2))
