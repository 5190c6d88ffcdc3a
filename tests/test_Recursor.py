"""nn_legacy.Recursor: any module as a recurrent one (a clone per step)."""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 4
X, G = uniform((T, N, D), 1), uniform((T, N, H), 2)


def test_each_step_is_the_module_and_gradients_add_up():
    nn.manualSeed(0)
    net = nn.Sequential().add(nn.Linear(D, H)).add(nn.Tanh())
    m = nn.Recursor(net.clone())
    ys, gx, g0, grads = run_bptt(m, X, G)
    assert g0 is None
    ref = net.clone()
    ref.zeroGradParameters()
    for t in range(T):
        np.testing.assert_allclose(ys[t], ref.forward(X[t]), rtol=1e-14)
        np.testing.assert_allclose(gx[t], ref.backward(X[t], G[t]), rtol=1e-14)
    for g, g_ref in zip(grads, ref.parameters()[1]):
        np.testing.assert_allclose(g, g_ref, rtol=1e-13)


def test_a_recurrent_module_inside_is_shared_not_cloned():
    nn.manualSeed(1)
    lstm = nn.FastLSTM(D, H)
    m = nn.Recursor(nn.Sequential().add(lstm).add(nn.Linear(H, 2)))
    for x in X:
        m.forward(x)
    assert lstm.step == T + 1 and all(c.modules[0] is lstm for c in m._clones.values())
    m.maxBPTTstep(3)
    assert lstm.rho == 3
    m.forget()
    assert lstm.step == 1
