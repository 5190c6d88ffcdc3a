"""nn_legacy.MaskZero: samples whose (first) input is all zeros get zero
output and send back no gradient."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform
from rnn_checks import TOL, check_sequence


def _masked_input():
    x = uniform((4, 3), 1)
    x[1] = 0
    x[3, 0] = np.nan        # NaN is not zero: not masked
    return x


def test_masks_output_and_gradients():
    nn.manualSeed(0)
    lin = nn.Linear(3, 2)
    m = nn.MaskZero(lin.clone(), 1)
    x, g = _masked_input(), uniform((4, 2), 2)
    y = m.forward(x)
    ref = lin.forward(x)
    assert np.all(y[1] == 0) and np.isnan(y[3]).all()
    np.testing.assert_array_equal(y[[0, 2]], ref[[0, 2]])
    m.zeroGradParameters()
    gin = m.backward(x, g)
    assert np.all(gin[1] == 0)
    g_masked = g.copy()
    g_masked[1] = 0
    lin.zeroGradParameters()
    lin.backward(x[[0, 2, 3]], g_masked[[0, 2, 3]])
    np.testing.assert_allclose(m.modules[0].gradBias, lin.gradBias, rtol=1e-14)   # no gradient from the masked row


def test_one_sample_and_tables():
    m = nn.MaskZero(nn.ConcatTable().add(nn.Identity()).add(nn.Tanh()), 1)
    out = m.forward(np.zeros(3))
    assert all(np.all(o == 0) for o in out)
    out = m.forward(uniform((3,), 4))
    np.testing.assert_allclose(out[1], np.tanh(uniform((3,), 4)), rtol=1e-14)
    step = nn.MaskZero(nn.GRUStep(3, 2), 1)                 # the mask comes from x, the first entry
    x, h = uniform((2, 3), 5), uniform((2, 2), 6)
    x[0] = 0
    assert np.all(step.forward([x, h])[0] == 0) and np.any(step.output[1] != 0)


def test_gradients():
    nn.manualSeed(1)
    m = nn.MaskZero(nn.Sequential().add(nn.Linear(3, 4)).add(nn.Tanh()), 1)
    x = uniform((5, 3), 3)
    x[2] = 0
    assert check_sequence(m, x, skip={0: np.all(x == 0, axis=1)[:, None]}) < TOL


def test_errors():
    with pytest.raises(ValueError, match="nInputDim must be a positive integer"):
        nn.MaskZero(nn.Identity(), 0)
    m = nn.MaskZero(nn.Identity(), 1)
    with pytest.raises(ValueError, match="must have nInputDim=1 dims .one sample. or 2 .a batch., got 3D"):
        m.forward(np.zeros((2, 2, 2)))
    with pytest.raises(RuntimeError, match="needs the mask of a forward pass"):
        nn.MaskZero(nn.Identity(), 1).backward(np.ones(2), np.ones(2))
    m.forward(np.ones((2, 3)))
    with pytest.raises(ValueError, match="gradOutput must be of size"):
        m.backward(np.ones((2, 3)), np.ones((3, 3)))
