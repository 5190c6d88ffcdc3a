"""nn_legacy.SpatialBatchNormalization: BatchNormalization of [batch, n, h,
w] input (statistics over the batch and every pixel), and Torch7 files of
it, class versions 1 and 2.
Its checks shared with BatchNormalization run over the family table in
test_BatchNormalization.py."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from batchnorm_checks import EPS, inputs, make
from layer_checks import assert_input_jacobian, assert_parameter_jacobians, noncontiguous_views
from t7_writer import T7Object, t7_bytes

SHAPE = (4, 3, 2, 5)   # as in its row of the family table


def test_repr():
    assert repr(nn.SpatialBatchNormalization(4)) == "nn.SpatialBatchNormalization (4D) (4)"


def test_a_batch_of_one_image_trains():
    x, g = inputs((1, 3, 2, 5))
    m = nn.SpatialBatchNormalization(3)
    out = m.forward(x)
    np.testing.assert_allclose(out.mean(axis=(0, 2, 3)), m.bias, atol=1e-14)


# ---------------------------------------------------------------- Torch7 files
def torch7_fields(running, **extra):
    """The fields Torch7 wrote, with the garbage its buffers held."""
    fields = {"eps": 1e-3, "momentum": 0.1, "affine": True, "train": False, "running_mean": running[0],
              "weight": np.array([0.5, 1.5, 2.0]), "bias": np.array([0.1, -0.2, 0.3]),
              "gradWeight": np.array([np.nan, 1e-310, 0.0]), "gradBias": np.array([7.0, np.nan, 0.0]),
              "save_mean": np.array([np.nan, 2e-314, 0.0]), "save_std": np.array([1e-47, 0.0, np.nan]),
              "output": np.zeros(0), "gradInput": np.zeros(0), "_type": "torch.DoubleTensor"}
    fields.update(extra)
    return fields


def load(tmp_path, obj):
    path = tmp_path / "bn.t7"
    path.write_bytes(t7_bytes(obj))
    return nn.load_lua(str(path))


def test_class_version_1_kept_running_std(tmp_path):
    """V1 stored running_std = 1 / sqrt(running_var + eps) and normalised
    with it: the loaded module must compute what Torch7 did."""
    mean, std = np.array([0.2, -1.0, 3.0]), np.array([2.0, 0.5, 1.25])
    m = load(tmp_path, T7Object("nn.SpatialBatchNormalization", torch7_fields((mean,), running_std=std), 1))
    assert isinstance(m, nn.SpatialBatchNormalization) and not m.train and m.affine
    assert not hasattr(m, "running_std") and m.save_mean is None
    np.testing.assert_allclose(m.running_var, std ** -2 - 1e-3, rtol=1e-15)
    np.testing.assert_array_equal(m.gradWeight, np.zeros(3))
    x, g = inputs(SHAPE)
    shape = (1, 3, 1, 1)
    want = (x - mean.reshape(shape)) * std.reshape(shape) * m.weight.reshape(shape) + m.bias.reshape(shape)
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-13, atol=1e-14)
    m.backward(x, g)    # gradients start from zero, not from the file's garbage
    assert np.all(np.isfinite(m.gradWeight)) and np.all(np.isfinite(m.gradBias))


def test_class_version_2_without_affine(tmp_path):
    fields = torch7_fields((np.array([0.5, 0.0, -0.5]),), running_var=np.array([1.0, 4.0, 0.25]), affine=False)
    for key in ("weight", "bias", "gradWeight", "gradBias"):
        del fields[key]
    m = load(tmp_path, T7Object("nn.SpatialBatchNormalization", fields, 2))
    assert m.weight is None and m.bias is None and not m.affine and m.parameters() == ([], [])
    x, _ = inputs(SHAPE)
    want = (x - np.array([0.5, 0.0, -0.5]).reshape(1, 3, 1, 1)) / np.sqrt(np.array([1.0, 4.0, 0.25]) + 1e-3
                                                                          ).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-13, atol=1e-14)
    m.training()
    m.forward(x)        # and it trains
    assert m.save_mean.shape == (3,)


# ---------------------------------------------------------------- evaluation then an in-place Threshold, in one pass
FUSED_SHAPES = [(1, 5, 7, 9), (8, 5, 6, 7), (2, 5, 2, 2)]   # (the last: planes under 32 elements, the row path)


def _each_input(shape, dtype):
    """(name, array): contiguous with a NaN, contiguous, and non-contiguous views."""
    x = inputs(shape, seed=5)[0].astype(dtype)
    nan = x.copy()
    nan.flat[3] = np.nan
    return [("NaN", nan), ("contiguous", x)] + noncontiguous_views(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", FUSED_SHAPES + [(3, 5)])
@pytest.mark.parametrize("threshold, val", [(0, 0), (0.3, -1)])
def test_evaluateThreshold_is_updateOutput_then_Threshold(threshold, val, shape, dtype):
    m = make(nn.BatchNormalization, shape[1], train=False)
    D = thnn.backend(dtype)
    args = [m.weight.astype(dtype), m.bias.astype(dtype), m.running_mean.astype(dtype), m.running_var.astype(dtype)]
    for name, x in _each_input(shape, dtype):
        want, _, _ = D.BatchNormalization_updateOutput(x, None, *args, None, None, False, 0.1, EPS)
        want = D.Threshold_updateOutput(want, None, threshold, val, True)
        got = D.BatchNormalization_evaluateThreshold(x, None, *args, EPS, threshold, val)
        assert np.array_equal(got, want, equal_nan=True), name


def _bn_relu_chain(dtype, n=5):
    """BN, ReLU(true), BN, ReLU (not in place), BN, Threshold(0.2, 0.1, true), evaluated."""
    s = nn.Sequential()
    for seed, act in enumerate([nn.ReLU(True), nn.ReLU(), nn.Threshold(0.2, 0.1, True)]):
        s.add(make(nn.SpatialBatchNormalization, n, train=False, seed=seed)).add(act)
    return s.float() if dtype == np.float32 else s


@pytest.fixture
def fused_calls(monkeypatch):
    """The thresholds BatchNormalization._forward is given, call by call (None: not fused)."""
    calls, forward = [], nn.BatchNormalization._forward

    def spy(self, input, threshold):
        calls.append(threshold)
        return forward(self, input, threshold)
    monkeypatch.setattr(nn.BatchNormalization, "_forward", spy)
    return calls


def _unfused(monkeypatch, s, x):
    with monkeypatch.context() as patch:
        patch.setattr(nn.BatchNormalization, "_fuse_next", None)
        return s.forward(x).copy(), [m.output.copy() for m in s.modules]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", FUSED_SHAPES + [(5, 6, 7)])   # (the last: one sample)
def test_sequential_fuses_evaluation_with_an_inplace_threshold(shape, dtype, fused_calls, monkeypatch):
    s = _bn_relu_chain(dtype)
    for name, x in _each_input(shape, dtype):
        want, outputs = _unfused(monkeypatch, s, x)
        fused_calls.clear()
        got = s.forward(x)
        assert [None if t is None else type(t) for t in fused_calls] == [nn.ReLU, None, nn.Threshold], name
        assert np.array_equal(got, want, equal_nan=True), name
        for i, (m, out) in enumerate(zip(s.modules, outputs)):
            assert np.array_equal(m.output, out, equal_nan=True), (name, i)
        assert s.modules[1].output is s.modules[0].output and s.modules[5].output is s.modules[4].output


def test_sequential_does_not_fuse_in_training_or_a_replaced_module(fused_calls, monkeypatch):
    s = _bn_relu_chain(np.float64)
    x = inputs((4, 5, 3, 2), seed=6)[0]
    s.training()
    y = s.forward(x).copy()
    assert fused_calls == [None, None, None]
    assert all(m.save_mean is not None for m in s.modules[::2])
    s.evaluate()
    s.modules[0].training()         # one module switched back alone
    fused_calls.clear()
    s.forward(x)
    assert [t is None for t in fused_calls] == [True, True, False]
    s.modules[0].evaluate()
    s.modules[1] = nn.Tanh()        # replaced
    fused_calls.clear()
    got = s.forward(x)
    assert [t is None for t in fused_calls] == [True, True, False]
    assert np.array_equal(got, _unfused(monkeypatch, s, x)[0])
    assert not np.array_equal(got, y)


@pytest.mark.parametrize("hooked", [0, 1])   # the BatchNormalization's step, or the ReLU's
def test_sequential_calls_a_step_replaced_on_the_instance(hooked, fused_calls, monkeypatch):
    """A forward step replaced on one module (a user's hook, Lua's habit of patching an instance): that pair
    runs as two steps, the hook called, and the outputs are the unfused ones."""
    s = _bn_relu_chain(np.float32)
    x = inputs((4, 5, 3, 2), seed=7)[0].astype(np.float32)
    want = _unfused(monkeypatch, s, x)[0]
    seen, module = [], s.modules[hooked]
    original = module.updateOutput

    def hook(input):
        seen.append(input.shape)
        return original(input)
    module.updateOutput = hook
    fused_calls.clear()
    got = s.forward(x)
    assert seen == [x.shape] and fused_calls[0] is None
    assert np.array_equal(got, want)


def test_backward_and_jacobians_after_a_fused_forward(monkeypatch):
    s = _bn_relu_chain(np.float64)
    x, g = inputs((2, 5, 3, 4), seed=7)
    s.forward(x)
    s.zeroGradParameters()
    got = s.backward(x, g).copy()
    got_params = [p.copy() for p in s.parameters()[1]]
    with monkeypatch.context() as patch:
        patch.setattr(nn.BatchNormalization, "_fuse_next", None)
        s.forward(x)
        s.zeroGradParameters()
        assert np.array_equal(s.backward(x, g), got)
        assert all(np.array_equal(p, q) for p, q in zip(s.parameters()[1], got_params))
    assert_input_jacobian(s, x)
    assert_parameter_jacobians(s, x)
