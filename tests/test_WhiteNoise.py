"""nn_legacy.WhiteNoise: Gaussian noise added while training."""
import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy import jacobian
from layer_checks import check_float32, check_pickle, raises_exactly, uniform
from numpy_checks import check_bad_arrays_numpy, from_torch7


def test_training_adds_normal_noise():
    nn.manualSeed(5)
    m = nn.WhiteNoise(0.5, 2.0)
    x = uniform((200, 50), 1)
    y = m.forward(x)
    noise = m.noise.copy()
    np.testing.assert_array_equal(y, x + noise)
    assert abs(noise.mean() - 0.5) < 0.05 and abs(noise.std() - 2.0) < 0.05
    nn.manualSeed(5)
    np.testing.assert_array_equal(nn.WhiteNoise(0.5, 2.0).forward(x), x + noise)   # manualSeed repeats it
    g = uniform(x.shape, 2)
    np.testing.assert_array_equal(m.backward(x, g), g)


def test_evaluation_adds_the_mean_and_has_no_backward():
    m = nn.WhiteNoise(0.25)
    m.evaluate()
    x = uniform((3, 4), 1)
    np.testing.assert_array_equal(m.forward(x), x + 0.25)
    with raises_exactly(RuntimeError, "WhiteNoise: backprop is only defined while training (call training())"):
        m.backward(x, x)


def test_common_checks():
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    assert jacobian.testJacobian(nn.WhiteNoise(0.1, 0.3), x, seed=1) < 1e-5   # the same noise at every forward
    nn.manualSeed(2)
    check_pickle(nn.WhiteNoise(0, 0), x, g)
    check_float32(nn.WhiteNoise(0.3, 0), x, g)
    check_bad_arrays_numpy(nn.WhiteNoise(0, 0), x, g)
    assert repr(nn.WhiteNoise()) == "nn.WhiteNoise(mean 0, std 0.1)"
    with pytest.raises(ValueError, match="std must be >= 0"):
        nn.WhiteNoise(0, -1)


def test_loads_from_torch7_fields():
    m = from_torch7("nn.WhiteNoise", mean=1.0, std=0.0, noise=np.zeros(0))
    np.testing.assert_array_equal(m.forward(np.zeros(3)), np.ones(3))
