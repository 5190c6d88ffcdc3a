"""nn_legacy.SpatialBatchNormalization: BatchNormalization of [batch, n, h,
w] input (statistics over the batch and every pixel), and Torch7 files of
it, class versions 1 and 2.
Its checks shared with BatchNormalization run over the family table in
test_BatchNormalization.py."""
import numpy as np

import nn_legacy as nn
from batchnorm_checks import inputs
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
