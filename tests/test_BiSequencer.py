"""nn_legacy.BiSequencer: forward and backward recurrent modules merged step by step."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

D, H, N, T = 3, 4, 2, 5
X, G = uniform((T, N, D), 1), uniform((T, N, 2 * H), 2)


def test_merges_both_directions():
    nn.manualSeed(0)
    fwd, bwd = nn.FastLSTM(D, H), nn.GRU(D, H)
    m = nn.BiSequencer(fwd.clone(), bwd.clone())
    f = nn.Sequencer(fwd).forward(X)
    b = nn.Sequencer(bwd).forward(X[::-1].copy())[::-1]
    np.testing.assert_allclose(m.forward(X), np.concatenate([f, b], axis=2), rtol=1e-14)
    np.testing.assert_allclose(np.stack(m.forward(list(X))), np.concatenate([f, b], axis=2), rtol=1e-14)


def test_default_backward_module_and_merge():
    nn.manualSeed(1)
    m = nn.BiSequencer(nn.FastLSTM(D, H), merge=nn.CAddTable())
    fw, bw = m.forwardModule, m.backwardModule
    assert type(bw) is nn.FastLSTM and not np.array_equal(fw.i2g.weight, bw.i2g.weight)   # a reset copy
    assert m.forward(X).shape == (T, N, H)
    assert nn.BiSequencer(nn.GRU(D, H), merge=1).mergeModule.nInputDims == 1
    with pytest.raises(TypeError, match="merge must be a Module or a number"):
        nn.BiSequencer(nn.GRU(D, H), merge="join")
    with pytest.raises(RuntimeError, match="accGradParameters needs updateGradInput first"):
        m.accGradParameters(X, np.zeros((T, N, H)))
