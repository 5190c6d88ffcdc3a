"""RecurrentAttention, the glimpse loop of the recurrent attention model:
forward and the package's backward (the action's gradient reaches the rnn
output it read, the rnn's gradient w.r.t. the action is dropped) against a
numpy transcription; a small RAM trained by REINFORCE end to end; Torch7
files in the package's layout (Element-Research and torch/rnn: the same
fields) and save_lua."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from nn_legacy.serialization.t7 import load_lua, read_t7
from t7_writer import t7_bytes

D, H, A, B, T = 3, 4, 2, 2, 3


def _model(forward_actions=False, n_step=T):
    nn.manualSeed(0)
    step = nn.Sequential().add(nn.FlattenTable()).add(nn.JoinTable(0, 1)).add(nn.Linear(D + A + H, H)).add(nn.Tanh())
    action = nn.Sequential().add(nn.Linear(H, A)).add(nn.Tanh())
    m = nn.RecurrentAttention(nn.Recurrence(step, H, 1), action, n_step, [H])
    m.forwardActions = forward_actions
    return m


def _weights(m):
    rnn_linear = m.rnn.recurrentModule.modules[2]
    act_linear = m.action.recurrentModule.modules[0]
    return rnn_linear.weight, rnn_linear.bias, act_linear.weight, act_linear.bias


def _reference(m, x, grads, grad_actions):
    """Forward and the package's backward in numpy: h_t = tanh(W [x, a_t,
    h_{t-1}] + b), a_1 = tanh(Wa 0 + ba), a_{t+1} = tanh(Wa h_t + ba)."""
    W, b, Wa, ba = _weights(m)
    h_prev, hs, acts = np.zeros((B, H)), [], []
    a_in = np.zeros((B, H))
    for t in range(T):
        a = np.tanh(a_in @ Wa.T + ba)
        h = np.tanh(np.concatenate([x, a, h_prev], 1) @ W.T + b)
        acts.append(a)
        hs.append(h)
        h_prev = a_in = h
    gh = [None] * T
    carry = np.zeros((B, H))
    gx = np.zeros_like(x)
    for t in reversed(range(T)):
        gh[t] = grads[t] if t == T - 1 else gh[t] + grads[t]
        if t > 0:   # the action of step t read h_{t-1}
            gh[t - 1] = (grad_actions[t] * (1 - acts[t] ** 2)) @ Wa
        dz = (gh[t] + carry) * (1 - hs[t] ** 2)
        full = dz @ W
        gx += full[:, :D]
        carry = full[:, D + A:]            # (full[:, D:D + A], w.r.t. the action, is dropped)
    return hs, acts, gx


@pytest.mark.parametrize("forward_actions", [False, True])
def test_forward_and_backward_against_numpy(forward_actions):
    m = _model(forward_actions)
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (B, D))
    grads = [rng.uniform(-1, 1, (B, H)) for _ in range(T)]
    grad_actions = [rng.uniform(-1, 1, (B, A)) if forward_actions else np.zeros((B, A)) for _ in range(T)]
    out = m.forward(x)
    hs, acts, gx = _reference(m, x, grads, grad_actions)
    for t in range(T):
        h, a = out[t] if forward_actions else (out[t], m.actions[t])
        np.testing.assert_allclose(h, hs[t], rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(a, acts[t], rtol=1e-13, atol=1e-15)
    g = [[gt, ga] for gt, ga in zip(grads, grad_actions)] if forward_actions else grads
    np.testing.assert_allclose(m.backward(x, g), gx, rtol=1e-12, atol=1e-14)


def test_parameter_gradients_follow_the_same_backward():
    """accGradParameters: the rnn's weight gradient is the numpy BPTT's,
    made of the same gh (sum over steps of dz^T [x, a_t, h_{t-1}])."""
    m = _model(True)
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (B, D))
    grads = [[rng.uniform(-1, 1, (B, H)), rng.uniform(-1, 1, (B, A))] for _ in range(T)]
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, grads)
    W, b, Wa, ba = _weights(m)
    hs, acts, _ = _reference(m, x, [g[0] for g in grads], [g[1] for g in grads])
    gh, carry, gW = [None] * T, np.zeros((B, H)), np.zeros_like(W)
    gWa = np.zeros_like(Wa)
    for t in reversed(range(T)):
        gh[t] = grads[t][0] if t == T - 1 else gh[t] + grads[t][0]
        da = grads[t][1] * (1 - acts[t] ** 2)
        gWa += da.T @ (hs[t - 1] if t > 0 else np.zeros((B, H)))
        if t > 0:
            gh[t - 1] = da @ Wa
        dz = (gh[t] + carry) * (1 - hs[t] ** 2)
        gW += dz.T @ np.concatenate([x, acts[t], hs[t - 1] if t > 0 else np.zeros((B, H))], 1)
        carry = (dz @ W)[:, D + A:]
    np.testing.assert_allclose(m.rnn.recurrentModule.modules[2].gradWeight, gW, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.action.recurrentModule.modules[0].gradWeight, gWa, rtol=1e-12, atol=1e-14)


def test_evaluation_outputs_are_copies_and_errors_name_the_module():
    m = _model()
    x = np.random.default_rng(3).uniform(-1, 1, (B, D))
    train_out = [o.copy() for o in m.forward(x)]
    m.evaluate()
    out = m.forward(x)
    assert len({id(o) for o in out}) == T
    for a, b in zip(out, train_out):
        np.testing.assert_allclose(a, b, rtol=1e-14)
    m.training()
    m.forward(x)
    with pytest.raises(ValueError, match="RecurrentAttention: gradOutput must be a table of 3"):
        m.backward(x, [np.zeros((B, H))])
    with pytest.raises(RuntimeError, match="RecurrentAttention: backward needs a forward"):
        _model().backward(x, [np.zeros((B, H))] * T)
    with pytest.raises(ValueError, match="hiddenSize must hold positive whole numbers"):
        nn.RecurrentAttention(nn.Linear(2, 2), nn.Linear(2, 2), 2, [[2]])
    with pytest.raises(ValueError, match="RecurrentAttention: nStep"):
        nn.RecurrentAttention(nn.Linear(2, 2), nn.Linear(2, 2), 0, [2])


def test_a_small_recurrent_attention_model_learns_by_reinforce():
    """The RAM pattern: location network ending in ReinforceNormal, the
    classifier on the last step, VRClassReward with a baseline, the reward
    handed to the whole model.  The task (the class is the sign of x[0])
    needs no glimpse; what is checked is that the loop trains end to end,
    deterministically under a seed, and the locations' REINFORCE gradient
    is the one of ReinforceNormal with the reward the criterion gave."""
    nn.manualSeed(3)
    step = nn.Sequential().add(nn.FlattenTable()).add(nn.JoinTable(0, 1)).add(nn.Linear(D + A + H, H)).add(nn.Tanh())
    locator = nn.Sequential().add(nn.Linear(H, A)).add(nn.HardTanh()).add(nn.ReinforceNormal(0.2))
    attention = nn.RecurrentAttention(nn.Recurrence(step, H, 1), locator, T, [H])
    head = nn.Sequential().add(nn.SelectTable(-1)).add(nn.Linear(H, 2)).add(nn.LogSoftMax())
    baseline = nn.Sequential().add(nn.SelectTable(-1)).add(nn.Linear(H, 1))
    model = nn.Sequential().add(attention).add(nn.ConcatTable().add(head).add(baseline))
    nll, vr = nn.ClassNLLCriterion(), nn.VRClassReward(model, scale=1.0)
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, (32, D))
    y = (x[:, 0] > 0).astype(np.int64)
    losses = []
    for _ in range(100):
        logp, b = model.forward(x)
        losses.append(nll.forward(logp, y))
        vr.forward([logp, b], y)
        g_vr = vr.backward([logp, b], y)
        g = [nll.backward(logp, y) + g_vr[0], g_vr[1]]
        model.zeroGradParameters()
        model.backward(x, g)
        model.updateParameters(0.2)
    assert losses[-1] < 0.4 * losses[0]
    for clone in attention.action._clones.values():
        normal = clone.modules[2]
        assert normal.reward is vr.vrReward
        np.testing.assert_allclose(normal.gradInput, -vr.vrReward[:, None] * (normal.output - clone.modules[1].output)
                                   / 0.04, rtol=1e-12)


# ---------------------------------------------------------------- Torch7 files
def _raw_model(W, b, Wa, ba, n_step, forward_actions=None):
    step = F.seq(F.obj("FlattenTable"), F.obj("JoinTable", dimension=1.0, nInputDims=1.0), F.linear(W, b),
                 F.obj("Tanh"))
    rnn = F.recurrence(step, F.table(float(H)), 1, flavour="tr")
    action = F.recursor(F.seq(F.linear(Wa, ba), F.obj("Tanh")), flavour="tr")
    fields = {"rnn": rnn, "action": action, "hiddenSize": F.table(float(H)), "nStep": float(n_step),
              "modules": F.table(rnn, action), "output": {}, "actions": {}, "gradHidden": {}}
    if forward_actions is not None:
        fields["forwardActions"] = forward_actions
    return F.obj("RecurrentAttention", fields)


def test_loads_from_the_package_s_layout(tmp_path):
    m = _model()
    W, b, Wa, ba = _weights(m)
    f = tmp_path / "ra.t7"
    f.write_bytes(t7_bytes(_raw_model(W, b, Wa, ba, T, forward_actions=False)))
    loaded = load_lua(str(f))
    assert type(loaded) is nn.RecurrentAttention and loaded.nStep == T and loaded.hiddenSize == (H,)
    assert loaded.rnn is loaded.modules[0] and type(loaded.action) is nn.Recursor
    x = np.random.default_rng(5).uniform(-1, 1, (B, D))
    for a, b_ in zip(loaded.forward(x), m.forward(x)):
        np.testing.assert_array_equal(a, b_)


def test_hostile_fields_raise_t7_error(tmp_path):
    from nn_legacy.t7 import T7Error
    m = _model()
    raw = _raw_model(*_weights(m), T)
    raw.fields["nStep"] = -3.0
    f = tmp_path / "ra.t7"
    f.write_bytes(t7_bytes(raw))
    with pytest.raises(T7Error, match="RecurrentAttention: nStep"):
        load_lua(str(f))
    raw.fields["nStep"] = 2.0
    raw.fields["hiddenSize"] = F.table(F.table(2.0))
    f.write_bytes(t7_bytes(raw))
    with pytest.raises(T7Error, match="RecurrentAttention: hiddenSize"):
        load_lua(str(f))


@pytest.mark.parametrize("package", ["torch/rnn", "Element-Research/rnn"])
def test_save_lua_round_trip(tmp_path, package):
    m = _model(True)
    f = tmp_path / "ra.t7"
    nn.save_lua(str(f), m, rnn=package)
    fields = read_t7(str(f)).fields
    assert fields["nStep"] == float(T) and list(fields["hiddenSize"].values()) == [float(H)]
    assert fields["forwardActions"] is True and fields["modules"][1.0] is fields["rnn"]
    assert fields["modules"][2.0] is fields["action"] and fields["action"].class_name == "nn.Recursor"
    again = load_lua(str(f))
    x = np.random.default_rng(6).uniform(-1, 1, (B, D))
    for (a, b_), (c, d) in zip(again.forward(x), m.forward(x)):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b_, d)
