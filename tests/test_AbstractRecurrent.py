"""nn_legacy.AbstractRecurrent, the rnn package's time machinery, seen
through its cells: step clones sharing parameters, rho, forget and
remember, training and evaluation, states and their gradients, types,
saving, and the errors of a backward pass out of order.  (BPTT's values
are checked against central differences in test_rnn_gradients.py.)"""
import pickle
import re

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import FLOAT32_RTOL, relative_error, uniform
from rnn_checks import run_bptt

D, H, N, T = 3, 4, 2, 6
XS = uniform((T, N, D), 1)
GS = uniform((T, N, H), 2)


def _cell(name="FastLSTM", rho=9999):
    nn.manualSeed(0)
    return getattr(nn, name)(D, H, rho)


def test_clones_share_the_parameters_and_accumulate_into_them():
    m = _cell()
    ys, gx, _, grads = run_bptt(m, XS, GS)
    assert len(m._clones) == T and all(c.modules[0].weight is m.i2g.weight for c in m._clones.values())
    # the sum over steps of each step's gradient, one step at a time by hand
    step = m.recurrentModule.clone()
    step.share(m.recurrentModule, "weight", "bias")
    step.zeroGradParameters()
    h, c = np.zeros((N, H)), np.zeros((N, H))
    states = []
    for x in XS:
        states.append((x, h, c))
        h, c = (a.copy() for a in step.forward([x, h, c]))
    gh, gc = np.zeros((N, H)), np.zeros((N, H))
    for t in reversed(range(T)):
        x, h, c = states[t]
        step.forward([x, h, c])
        gi = step.backward([x, h, c], [GS[t] + gh, gc])
        gh, gc = gi[1].copy(), gi[2].copy()
        np.testing.assert_allclose(gx[t], gi[0], rtol=1e-12, atol=1e-14)
    for g, g_hand in zip(grads, step.parameters()[1]):
        np.testing.assert_allclose(g, g_hand, rtol=1e-12, atol=1e-14)


def test_rho_bounds_the_clones_kept():
    m = _cell(rho=2)
    for x in np.concatenate([XS, XS]):
        m.forward(x)
    assert len(m._clones) == 3 and len(m._states) <= 3          # rho + 1 steps
    with pytest.raises(RuntimeError, match=r"no hidden state of step 1 \(steps 1 to 12 were forwarded"):
        m.getHiddenState(1)
    m.maxBPTTstep(5)
    assert m.rho == 5


def test_evaluation_gives_the_training_outputs_and_keeps_no_steps():
    m = _cell("GRU")
    train = np.stack([m.forward(x).copy() for x in XS])
    m.evaluate()
    assert m.step == 1
    evaluated = np.stack([m.forward(x).copy() for x in XS])
    np.testing.assert_array_equal(evaluated, train)
    assert len(m._clones) == 2                                   # two step modules take turns
    with pytest.raises(RuntimeError, match="backward needs training mode"):
        m.backward(XS[-1], GS[-1])
    m.training()
    assert m.step == 1 and all(c.train for c in m._spare)


def test_forget_and_remember():
    m = _cell()
    first = np.stack([m.forward(x).copy() for x in XS])
    going_on = m.forward(XS[0]).copy()                           # remembers until forget()
    assert not np.allclose(going_on, first[0])
    m.forget()
    np.testing.assert_array_equal(m.forward(XS[0]), first[0])
    model = nn.Sequential().add(nn.Linear(D, D)).add(nn.FastLSTM(D, H))
    model.forward(XS[0])
    model.forward(XS[1])
    assert model.modules[1].step == 3
    assert model.forget() is model and model.modules[1].step == 1   # forget reaches through containers


def test_states_start_state_and_their_gradient():
    m = _cell("LSTM")
    h0, c0 = uniform((N, H), 3), uniform((N, H), 4)
    ys, _, g0, _ = run_bptt(m, XS, GS, start=[h0, c0])
    m.forget()
    m.userPrevOutput, m.userPrevCell = h0, c0                    # the rnn package's spelling
    np.testing.assert_array_equal(np.stack([m.forward(x).copy() for x in XS]), ys)
    assert [s.shape for s in g0] == [(N, H), (N, H)]
    m.userPrevOutput = m.userPrevCell = None
    m.forget()
    m.setHiddenState(0, [h0, c0])
    np.testing.assert_array_equal(m.forward(XS[0]), ys[0])
    np.testing.assert_array_equal(m.getHiddenState(1)[0], ys[0])
    assert m.getHiddenState(0)[0] is h0
    m.forget()                                                   # setHiddenState(0) lasts until forget
    assert not np.allclose(m.forward(XS[0]), ys[0])


def test_grad_hidden_state_from_outside():
    """setGradHiddenState(T, g) adds g to the last step's state gradient (a decoder's, say)."""
    m = _cell("GRU")
    extra = uniform((N, H), 5)
    gs = GS.copy()
    gs[-1] += extra
    expected = run_bptt(m, XS, gs)[1]
    m.forget()
    for x in XS:
        m.forward(x)
    m.setGradHiddenState(T, extra)
    got = [m.backward(XS[t], GS[t]).copy() for t in reversed(range(T))][::-1]
    np.testing.assert_allclose(np.stack(got), expected, rtol=1e-12, atol=1e-14)


def test_flattened_parameters_reach_the_clones():
    m = _cell()
    run_bptt(m, XS, GS)                                          # the clones exist now
    params, grads = m.flattenParameters()
    params[:] = 0.1
    ys = np.stack([m.forward(x).copy() for x in (m.forget() and XS)])
    fresh = _cell()
    for p in fresh.parameters()[0]:
        p[...] = 0.1
    np.testing.assert_array_equal(ys, np.stack([fresh.forward(x).copy() for x in XS]))
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], GS[t])
    assert np.abs(grads).sum() > 0                               # the clones accumulate into the flat array


def test_separate_verbs_and_acc_update():
    m = _cell("GRU")
    _, gx, _, grads = run_bptt(m, XS, GS)
    m.forget()
    for x in XS:
        m.forward(x)
    m.zeroGradParameters()
    got = [m.updateGradInput(XS[t], GS[t]).copy() for t in reversed(range(T))][::-1]
    with pytest.raises(RuntimeError, match="went past step 1"):
        m.updateGradInput(XS[0], GS[0])
    for t in reversed(range(T)):
        m.accGradParameters(XS[t], GS[t], 0.5)
    np.testing.assert_allclose(np.stack(got), gx, rtol=1e-13, atol=1e-15)
    for g, g_ref in zip(m.parameters()[1], grads):
        np.testing.assert_allclose(g, 0.5 * g_ref, rtol=1e-13, atol=1e-15)
    before = [p.copy() for p in m.parameters()[0]]
    m.forget()
    for x in XS:
        m.forward(x)
    for t in reversed(range(T)):
        m.updateGradInput(XS[t], GS[t])
    for t in reversed(range(T)):
        m.accUpdateGradParameters(XS[t], GS[t], 0.1)
    for p, p0, g in zip(m.parameters()[0], before, grads):
        np.testing.assert_allclose(p, p0 - 0.1 * g, rtol=1e-12, atol=1e-14)


def test_backward_out_of_order_is_an_error():
    m = _cell()
    with pytest.raises(RuntimeError, match="backward needs a forward first"):
        m.backward(XS[0], GS[0])
    for x in XS[:2]:
        m.forward(x)
    with pytest.raises(RuntimeError, match="accGradParameters for step 2 needs its updateGradInput first"):
        m.accGradParameters(XS[1], GS[1])
    with pytest.raises(ValueError, match=r"FastLSTM: gradOutput must be float64 of size \[2, 4\] like the output, "
                                         r"got float64 of size \[2, 5\]"):
        m.backward(XS[1], np.zeros((N, H + 1)))
    with pytest.raises(ValueError, match=r"FastLSTM \(step 3\) -> FastLSTMStep: input must be 1D \[3\] or 2D"):
        m.forward(np.zeros((N, D + 1)))
    with pytest.raises(ValueError, match="rho must be positive integers"):
        nn.FastLSTM(D, H, 0)
    for bad in (0, -1, 2.0, True, None, np.int64(0)):   # maxBPTTstep (a plain positive int is not checked further)
        with pytest.raises(ValueError, match=re.escape(f"FastLSTM: rho must be positive integers, got rho={bad!r}")):
            m.maxBPTTstep(bad)
    m.maxBPTTstep(np.int64(4))
    assert m.rho == 4 and type(m.rho) is int


@pytest.mark.parametrize("name", ["FastLSTM", "LSTM", "GRU"])
def test_float32_follows_float64(name):
    m = _cell(name)
    ys, gx, _, grads = run_bptt(m, XS, GS)
    m32 = m.clone().float()
    ys32, gx32, _, grads32 = run_bptt(m32, XS.astype(np.float32), GS.astype(np.float32))
    for a32, a in [(ys32, ys), (gx32, gx)] + list(zip(grads32, grads)):
        assert a32.dtype == np.float32 and relative_error(a32, a) < FLOAT32_RTOL
    with pytest.raises(TypeError, match=r"\(step 1\) -> \w+: input x is float64 but the module is float32"):
        m32.forget().forward(XS[0])


@pytest.mark.parametrize("name", ["FastLSTM", "LSTM", "GRU"])
def test_save_load_and_pickle(tmp_path, name):
    m = _cell(name)
    ys, gx, _, grads = run_bptt(m, XS, GS)
    nn.save(m, str(tmp_path / "m.thnn"))
    for again in (nn.load(str(tmp_path / "m.thnn")), pickle.loads(pickle.dumps(m)), m.clone().clearState()):
        ys2, gx2, _, grads2 = run_bptt(again, XS, GS)
        np.testing.assert_array_equal(ys2, ys)
        np.testing.assert_array_equal(gx2, gx)


def test_repr_and_tree():
    m = nn.FastLSTM(D, H)
    assert repr(m) == "nn.FastLSTM(3 -> 4)"
    assert m.listModules()[:2] == [m, m.recurrentModule] and len(m.findModules(nn.Linear)[0]) == 2
    assert repr(nn.Recursor(nn.Tanh())) == "nn.Recursor @ nn.Tanh"
