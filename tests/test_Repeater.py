"""nn_legacy.Repeater: one input fed to a recurrent module rho times."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform
from rnn_checks import run_bptt

D, H, N = 3, 4, 2


def test_repeats_and_sums_the_gradient():
    nn.manualSeed(0)
    cell = nn.GRU(D, H)
    m = nn.Repeater(cell.clone(), 3)
    x, gs = uniform((N, D), 1), uniform((3, N, H), 2)
    ys, gx, _, grads = run_bptt(cell, np.stack([x] * 3), gs)
    out = m.forward(x)
    assert len(out) == 3 and out[0] is not out[1]
    np.testing.assert_allclose(np.stack(out), ys, rtol=1e-14)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(x, list(gs)), gx.sum(axis=0), rtol=1e-13)
    for g, g_ref in zip(m.parameters()[1], grads):
        np.testing.assert_allclose(g, g_ref, rtol=1e-13)
    with pytest.raises(ValueError, match="gradOutput must be a table of 3 entries like rho"):
        m.backward(x, list(gs[:2]))
    assert repr(m) == "nn.Repeater(3) @ nn.GRU(3 -> 4)"
