"""nn_legacy.BiSequencerLM: neither direction sees the step it is merged at."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

D, H, N, T = 3, 4, 2, 5
X = uniform((T, N, D), 1)


def test_each_step_sees_only_the_others():
    nn.manualSeed(0)
    fwd, bwd = nn.FastLSTM(D, H), nn.GRU(D, H)
    m = nn.BiSequencerLM(fwd.clone(), bwd.clone())
    out = m.forward(X)
    f = nn.Sequencer(fwd).forward(X[:-1])
    b = nn.Sequencer(bwd).forward(X[:0:-1].copy())[::-1]
    np.testing.assert_allclose(out[:, :, :H], np.concatenate([np.zeros((1, N, H)), f]), rtol=1e-14)
    np.testing.assert_allclose(out[:, :, H:], np.concatenate([b, np.zeros((1, N, H))]), rtol=1e-14)
    x2 = X.copy()
    x2[2] += 1                                   # step 2 changes: output 2 does not
    np.testing.assert_array_equal(m.forward(x2)[2], out[2])


def test_needs_two_steps_and_takes_sequencers():
    m = nn.BiSequencerLM(nn.GRU(D, H))
    with pytest.raises(ValueError, match="at least 2 steps"):
        m.forward(X[:1])
    stack = nn.Sequential().add(nn.Sequencer(nn.GRU(D, H))).add(nn.Sequencer(nn.Linear(H, 2)))
    m = nn.BiSequencerLM(stack)
    assert m.fwdSeq is stack and m.forward(list(X))[0].shape == (N, 4)
