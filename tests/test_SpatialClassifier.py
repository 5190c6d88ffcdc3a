"""nn_legacy.SpatialClassifier: nnx's classifier of the feature vector at
every pixel."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_batch_equals_samples,
                          check_buffer_reuse, check_float32, check_noncontiguous, check_pickle, raises_exactly, uniform)
from t7_writer import T7Object, t7_bytes


def make(flat=False):
    classifier = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 4))
    m = nn.SpatialClassifier(classifier)
    m.spatialOutput = not flat
    return m


def per_pixel(m, x):
    """The classifier run on each pixel's vector by itself."""
    c = m.classifier.clone()
    out = np.empty((4,) + x.shape[1:])
    for y, col in np.ndindex(*x.shape[1:]):
        out[:, y, col] = c.forward(np.ascontiguousarray(x[:, y, col]))
    return out


def test_classifies_every_pixel():
    m = make()
    x = uniform((3, 4, 5), 1)
    np.testing.assert_allclose(m.forward(x), per_pixel(m, x), rtol=1e-13, atol=1e-14)
    flat = make()
    flat.spatialOutput = False
    flat.classifier = flat.modules[0] = m.classifier
    np.testing.assert_allclose(flat.forward(x), per_pixel(m, x).reshape(4, 20).T, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("flat", [False, True], ids=["spatial", "flat"])
@pytest.mark.parametrize("shape", [(3, 2, 3), (2, 3, 2, 3)], ids=["3D", "4D"])
def test_jacobians(flat, shape):
    x = uniform(shape, 2)
    assert_input_jacobian(make(flat), x)
    assert_parameter_jacobians(make(flat), x)


@pytest.mark.parametrize("flat", [False, True], ids=["spatial", "flat"])
def test_float32_strides_batches_buffers_pickle(flat):
    x = uniform((3, 3, 2, 4), 1)
    g = uniform(make(flat).forward(x).shape, 2)
    check_float32(make(flat), x, g)
    check_noncontiguous(make(flat), x, g)
    check_batch_equals_samples(make(flat), x, g)
    check_buffer_reuse(make(flat), x, g, x[:2], g[:2])
    check_pickle(make(flat), x, g)


def test_add_goes_to_the_classifier():
    m = nn.SpatialClassifier().add(nn.Linear(3, 2)).add(nn.LogSoftMax())
    assert len(m.classifier.modules) == 2 and m.modules == [m.classifier]
    out = m.forward(uniform((3, 2, 2), 1))
    np.testing.assert_allclose(np.exp(out).sum(0), 1)


def test_bad_input():
    m = make()
    with raises_exactly(ValueError, "SpatialClassifier: input must be 3D [features, height, width] or 4D [batch, "
                                    "features, height, width], got 2D of size [3, 4]"):
        m.forward(uniform((3, 4)))
    with raises_exactly(TypeError, "SpatialClassifier: input must be an array, got list"):
        m.forward([1.0])
    m.forward(uniform((3, 2, 2)))
    with raises_exactly(ValueError, "SpatialClassifier: gradOutput must be of size [4, 2, 2] like the output, "
                                    "got 3D of size [4, 2, 3]"):
        m.backward(uniform((3, 2, 2)), uniform((4, 2, 3)))
    with raises_exactly(ValueError, "SpatialClassifier: the classifier must map [4, K] to [4, N], got 1D of size [4]"):
        nn.SpatialClassifier(nn.Sum(1)).forward(uniform((3, 2, 2)))


def test_loads_an_nnx_file(tmp_path):
    w, b = uniform((2, 3), 1), uniform((2,), 2)
    linear = T7Object("nn.Linear", {"weight": w, "bias": b, "gradWeight": np.zeros((2, 3)), "gradBias": np.zeros(2)})
    # clementfarabet/lua---nnx SpatialClassifier.lua: the classifier twice (a field and modules[1]), work tensors
    fields = {"classifier": linear, "modules": {1: linear}, "spatialOutput": True, "inputF": np.zeros(0),
              "inputT": np.zeros(0), "outputF": np.zeros(0), "gradOutputF": np.zeros(0),
              "gradOutputT": np.zeros(0), "gradInputF": np.zeros(0), "output": np.zeros(0), "gradInput": np.zeros(0)}
    f = tmp_path / "c.t7"
    f.write_bytes(t7_bytes(T7Object("nn.SpatialClassifier", fields)))
    m = nn.load_lua(str(f))
    assert m.classifier is m.modules[0] and isinstance(m.classifier, nn.Linear) and "inputF" not in vars(m)
    x = uniform((3, 2, 4), 3)
    np.testing.assert_allclose(m.forward(x), np.einsum("ok,khw->ohw", w, x) + b[:, None, None], rtol=1e-13)


def test_repr():
    assert repr(nn.SpatialClassifier(nn.Linear(2, 3))) == "nn.SpatialClassifier @ nn.Linear(2 -> 3)"
