"""The smallest end-to-end check: the compiled extension loads and one
Linear forward through the C kernel matches numpy."""
import numpy as np

import nn_legacy as nn
import thnn


def test_compiled_extension_is_loaded():
    assert thnn.Double.dtype == np.float64
    assert hasattr(thnn.Double, "Linear_updateOutput")


def test_linear_forward_matches_numpy():
    nn.manualSeed(123)
    layer = nn.Linear(5, 3)
    x = np.random.default_rng(0).standard_normal((4, 5))
    out = layer.forward(x)
    expected = x @ layer.weight.T + layer.bias
    assert out.shape == (4, 3)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)


def test_linear_forward_float32():
    layer = nn.Linear(5, 3).float()
    x = np.random.default_rng(1).standard_normal((2, 5)).astype(np.float32)
    out = layer.forward(x)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, x @ layer.weight.T + layer.bias, rtol=1e-5, atol=1e-6)
