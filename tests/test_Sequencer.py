"""nn_legacy.Sequencer: a module over a sequence given as a table of steps
or an array [seqlen, ...]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_acc_update, check_buffer_reuse, check_float32, check_noncontiguous, check_pickle, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 5
X, G = uniform((T, N, D), 1), uniform((T, N, H), 2)


def _seq(cell="FastLSTM"):
    nn.manualSeed(0)
    return nn.Sequencer(getattr(nn, cell)(D, H))


def test_is_the_module_step_by_step():
    m = _seq()
    ys, gx, _, grads = run_bptt(m.module.clone(), X, G)
    np.testing.assert_allclose(m.forward(X), ys, rtol=1e-14)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(X, G), gx, rtol=1e-14)
    for g, g_ref in zip(m.parameters()[1], grads):
        np.testing.assert_allclose(g, g_ref, rtol=1e-14)
    out = m.forward(list(X))                                         # a table in, a table out
    assert isinstance(out, list) and len(out) == T
    np.testing.assert_allclose(np.stack(out), ys, rtol=1e-14)
    gin = m.backward(list(X), list(G))
    assert isinstance(gin, list)
    np.testing.assert_allclose(np.stack(gin), gx, rtol=1e-14)
    assert m.module.rho == T                                         # rho follows the sequence


def test_evaluation_gives_what_training_gives():
    m = _seq("LSTM")   # (peepholes: stepped in evaluation too; the Seq kernels' fast path: test_whole_sequence.py)
    train = m.forward(X).copy()
    m.evaluate()
    np.testing.assert_array_equal(m.forward(X), train)
    np.testing.assert_array_equal(np.stack(m.forward(list(X))), train)   # copies: every step kept
    m.training()
    np.testing.assert_array_equal(m.forward(X), train)


@pytest.mark.parametrize("mode, train_keeps, eval_keeps", [("neither", False, False), ("both", True, True),
                                                           ("train", True, False), ("eval", False, True)])
def test_remember_modes(mode, train_keeps, eval_keeps):
    m = _seq()
    whole = m.forward(X).copy()
    m.remember(mode)
    for keeps in (train_keeps, eval_keeps):
        m.forget()
        m.forward(X[:2])
        second = m.forward(X[2:])
        if keeps:
            np.testing.assert_allclose(second, whole[2:], rtol=1e-13, atol=1e-15)
        else:
            np.testing.assert_allclose(second, _seq().forward(X[2:]), rtol=1e-13, atol=1e-15)
        m.evaluate()
    assert m.remember() is m and m._remember == "both"


def test_any_module_runs_in_a_recursor():
    nn.manualSeed(1)
    lin = nn.Linear(D, H)
    m = nn.Sequencer(lin)
    assert isinstance(m.module, nn.Recursor) and m.module.module is lin
    np.testing.assert_allclose(m.forward(X), X @ lin.weight.T + lin.bias, rtol=1e-13)
    out = m.forward(list(X))
    assert len({id(o) for o in out}) == T                            # one clone (and buffer) per step
    check_float32(m, X, G)
    check_noncontiguous(m, X, G)
    check_buffer_reuse(m, X, G, X[:, :1].copy(), G[:, :1].copy())
    check_pickle(m, X, G)
    check_acc_update(m, X, G)


def test_errors():
    m = _seq()
    with pytest.raises(TypeError, match=r"input must be a table \(list\) of steps or an array"):
        m.forward("abc")
    with pytest.raises(ValueError, match="at least one step"):
        m.forward([])
    m.forward(X)
    with pytest.raises(ValueError, match=r"gradOutput must be a table of 5 entries like the input's steps, got 4"):
        m.backward(X, G[:4])
    with pytest.raises(TypeError, match="gradOutput must be an array"):
        m.backward(X, list(G))
    with pytest.raises(ValueError, match=r"Sequencer \(0\) -> FastLSTM: gradOutput must be float64 of size"):
        m.forward(X)
        m.backward(X, np.zeros((T, N, H + 1)))
    assert repr(m) == "nn.Sequencer @ nn.FastLSTM(3 -> 4)"
