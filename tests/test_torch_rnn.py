"""torch-rnn (jcjohnson/torch-rnn): TorchRNNLSTM, VanillaRNN, TemporalAdapter
and LanguageModel against an independent numpy transcription of its math
(tests/torch_rnn_files.py), their backward through time against central
differences, remember_states, and checkpoints written as train.lua wrote
them (float, double, GPU-saved; the layouts of 2016-2017) loaded with
load_lua."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from rnn_checks import TOL, check_remembered, check_sequence
from t7_writer import t7_bytes
from torch_rnn_files import EMPTY, Writer, lm_forward, lstm_forward, params_of, rnn_forward

N, T, D, H = 2, 4, 3, 5
TOKENS = list("abcdefg")


def _x(seed=0, n=N, t=T, d=D):
    return np.random.default_rng(seed).uniform(-1, 1, (n, t, d))


def _randomize(m, seed=3):
    """Weights and biases off their init (the forget bias of 1 hides gate mix-ups)."""
    rng = np.random.default_rng(seed)
    m.weight[...] = rng.uniform(-0.7, 0.7, m.weight.shape)
    m.bias[...] = rng.uniform(-0.5, 0.5, m.bias.shape)
    return m


# ---------------------------------------------------------------- the layers
def test_lstm_matches_the_transcription_of_torch_rnn():
    m = _randomize(nn.TorchRNNLSTM(D, H))
    assert m.weight.shape == (D + H, 4 * H) and m.bias.shape == (4 * H,)
    x = _x()
    ref, (h, c) = lstm_forward(x, m.weight, m.bias)
    np.testing.assert_allclose(m.forward(x), ref, rtol=1e-12, atol=1e-14)
    rng = np.random.default_rng(4)
    h0, c0 = rng.uniform(-1, 1, (N, H)), rng.uniform(-1, 1, (N, H))
    ref, _ = lstm_forward(x, m.weight, m.bias, h0, c0)
    np.testing.assert_allclose(m.forward([c0, h0, x]), ref, rtol=1e-12, atol=1e-14)
    ref, _ = lstm_forward(x, m.weight, m.bias, h0)
    np.testing.assert_allclose(m.forward([h0, x]), ref, rtol=1e-12, atol=1e-14)


def test_lstm_gate_order_is_i_f_o_g():
    """Only the g block's bias large: c = i * g with i = sigmoid(0) = 1/2,
    g = tanh(big) = 1, so c = 1/2 and h = sigmoid(0) * tanh(1/2)."""
    m = nn.TorchRNNLSTM(1, 1)
    m.weight[...] = 0
    m.bias[...] = [0, 0, 0, 30]
    y = m.forward(np.zeros((1, 1, 1)))
    assert y[0, 0, 0] == pytest.approx(0.5 * np.tanh(0.5), rel=1e-12)
    m.bias[...] = [0, 0, -30, 30]      # the third block is the output gate: closed
    assert abs(m.forward(np.zeros((1, 1, 1)))[0, 0, 0]) < 1e-12


def test_lstm_reset_as_torch_rnn():
    m = nn.TorchRNNLSTM(30, 40)
    np.testing.assert_array_equal(m.bias, np.r_[np.zeros(40), np.ones(40), np.zeros(80)])
    assert abs(m.weight.std() - 1 / np.sqrt(70)) < 0.1 / np.sqrt(70)
    assert m.remember_states is False and repr(m) == "nn.TorchRNNLSTM(30 -> 40)"


def test_vanilla_matches_the_transcription_of_torch_rnn():
    m = _randomize(nn.VanillaRNN(D, H))
    assert m.weight.shape == (D + H, H) and m.bias.shape == (H,)
    x = _x()
    ref, _ = rnn_forward(x, m.weight, m.bias)
    np.testing.assert_allclose(m.forward(x), ref, rtol=1e-12, atol=1e-14)
    h0 = np.random.default_rng(5).uniform(-1, 1, (N, H))
    ref, _ = rnn_forward(x, m.weight, m.bias, h0)
    np.testing.assert_allclose(m.forward([h0, x]), ref, rtol=1e-12, atol=1e-14)
    fresh = nn.VanillaRNN(30, 40)
    assert np.all(fresh.bias == 0) and abs(fresh.weight.std() - 1 / np.sqrt(70)) < 0.1 / np.sqrt(70)
    assert repr(m) == "nn.VanillaRNN(3 -> 5)"


def _s(seed):
    return np.random.default_rng(seed).uniform(-1, 1, (N, H))


BPTT = {
    "TorchRNNLSTM": (lambda: _randomize(nn.TorchRNNLSTM(D, H)), _x),
    "TorchRNNLSTM-states": (lambda: _randomize(nn.TorchRNNLSTM(D, H)), lambda: [_s(6), _s(7), _x()]),
    "TorchRNNLSTM-h0": (lambda: _randomize(nn.TorchRNNLSTM(D, H)), lambda: [_s(8), _x()]),
    "VanillaRNN": (lambda: _randomize(nn.VanillaRNN(D, H)), _x),
    "VanillaRNN-h0": (lambda: _randomize(nn.VanillaRNN(D, H)), lambda: [_s(9), _x()]),
    "TemporalAdapter": (lambda: nn.TemporalAdapter(nn.Linear(D, 2)), _x),
}


@pytest.mark.parametrize("name", sorted(BPTT))
def test_backward_through_time_against_central_differences(name):
    build, make = BPTT[name]
    assert check_sequence(build(), make()) < TOL


@pytest.mark.parametrize("cls", ["TorchRNNLSTM", "VanillaRNN"])
def test_the_three_backward_verbs_agree(cls):
    x, g = _x(), np.random.default_rng(2).standard_normal((N, T, H))
    a, b = _randomize(getattr(nn, cls)(D, H)), _randomize(getattr(nn, cls)(D, H))
    a.forward(x)
    ga = a.backward(x, g).copy()
    b.forward(x)
    gb = b.updateGradInput(x, g).copy()
    b.accGradParameters(x, g, 0.5)
    np.testing.assert_allclose(ga, gb, rtol=1e-13)
    np.testing.assert_allclose(a.gradWeight * 0.5, b.gradWeight, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(a.gradBias * 0.5, b.gradBias, rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- remember_states
@pytest.mark.parametrize("cls", ["TorchRNNLSTM", "VanillaRNN"])
def test_remember_states_goes_on_where_the_last_forward_stopped(cls):
    m = _randomize(getattr(nn, cls)(D, H))
    x = _x()
    whole = m.forward(x).copy()
    m.remember_states = True        # (as in torch-rnn, the state the last forward left counts from now on)
    np.testing.assert_raises(AssertionError, np.testing.assert_allclose, m.forward(x[:, :1]), whole[:, :1])
    m.resetStates()
    first = m.forward(x[:, :1]).copy()
    m.evaluate()                                      # torch-rnn keeps the state across modes
    rest = m.forward(x[:, 1:]).copy()
    np.testing.assert_allclose(np.concatenate([first, rest], 1), whole, rtol=1e-12, atol=1e-14)
    m.training()
    np.testing.assert_raises(AssertionError, np.testing.assert_allclose, m.forward(x[:, :1]), first)
    m.resetStates()
    np.testing.assert_allclose(m.forward(x[:, :1]), first, rtol=1e-12)
    with pytest.raises(ValueError, match="batch sizes must be constant to remember states"):
        m.forward(_x(n=3))
    m.resetStates()
    assert m.forward(_x(n=3)).shape == (3, T, H)
    m.remember_states = False
    np.testing.assert_allclose(m.forward(x), whole, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.forward(x), whole, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("cls", ["TorchRNNLSTM", "VanillaRNN"])
def test_remembered_state_is_a_constant_for_backward(cls):
    m = _randomize(getattr(nn, cls)(D, H))
    m.remember_states = True

    def fresh(states):
        ref = m.clone("weight", "bias", "gradWeight", "gradBias")
        ref.remember_states = False

        class Prefixed:
            forward = staticmethod(lambda x: ref.forward(list(states) + [x]))
            parameters = staticmethod(ref.parameters)
        return Prefixed()
    assert check_remembered(m, _x(10), _x(11, t=3), lambda m: list(m._last), fresh) < TOL


# ---------------------------------------------------------------- LanguageModel
def _lm(kind="lstm", **kw):
    m = nn.LanguageModel(TOKENS, model_type=kind, wordvec_size=4, rnn_size=H, num_layers=2, **kw)
    for rnn in m.rnns:
        _randomize(rnn, seed=len(m.rnns))
    return m


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_language_model_matches_the_transcription(kind):
    m = _lm(kind)
    ids = np.array([[0, 1, 2, 6], [3, 3, 5, 4]])
    ref, last = lm_forward(params_of(m), ids)
    np.testing.assert_allclose(m.forward(ids), ref, rtol=1e-12, atol=1e-14)
    # the layers remember: the next call goes on from `last`
    ref2, _ = lm_forward(params_of(m), ids[:, :2], states=last)
    np.testing.assert_allclose(m.forward(ids[:, :2]), ref2, rtol=1e-12, atol=1e-14)
    m.resetStates()
    np.testing.assert_allclose(m.forward(ids), ref, rtol=1e-12, atol=1e-14)


def test_language_model_with_batchnorm_and_dropout_in_evaluation():
    m = _lm(batchnorm=1, dropout=0.5)
    ids = np.array([[0, 1, 2, 6], [3, 3, 5, 4]])
    m.training()
    m.forward(ids)                                 # moves the running statistics
    m.evaluate()
    m.resetStates()
    ref, _ = lm_forward(params_of(m), ids)
    np.testing.assert_allclose(m.forward(ids), ref, rtol=1e-12, atol=1e-14)


def test_language_model_backward_against_central_differences():
    """The scores' gradient w.r.t. every parameter (the ids are not differentiable)."""
    m = _lm()
    for rnn in m.rnns:
        rnn.remember_states = False   # a function of its input alone, for the differences
    ids = np.array([[0, 1, 2, 6], [3, 3, 5, 4]])
    w = np.random.default_rng(1).standard_normal((2, 4, len(TOKENS)))
    m.forward(ids)
    m.zeroGradParameters()
    m.backward(ids, w)
    params, grads = m.parameters()
    assert len(params) == 1 + 2 * 2 + 2
    worst = 0.0
    for p, g in zip(params, grads):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for k in range(0, flat.size, max(1, flat.size // 7)):
            orig = flat[k]
            flat[k] = orig + 1e-6
            up = float(np.sum(m.forward(ids) * w))
            flat[k] = orig - 1e-6
            down = float(np.sum(m.forward(ids) * w))
            flat[k] = orig
            worst = max(worst, abs((up - down) / 2e-6 - gflat[k]))
    assert worst < TOL


def test_token_ids_are_zero_based_and_text_round_trips():
    m = _lm()
    assert m.idx_to_token == TOKENS and m.token_to_idx["a"] == 0 and m.vocab_size == 7
    np.testing.assert_array_equal(m.encode_string("gab"), [6, 0, 1])
    assert m.decode_string(np.array([6, 0, 1])) == "gab"
    with pytest.raises(ValueError, match=r"'z' \(character 1 of the text\) is not in the vocabulary"):
        m.encode_string("az")
    with pytest.raises(ValueError, match=r"id 7 is outside the vocabulary \[0, 7\)"):
        m.decode_string(np.array([7]))
    with pytest.raises(ValueError, match="input must be 2D token ids"):
        m.forward(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="model_type must be 'lstm' or 'rnn'"):
        nn.LanguageModel(TOKENS, model_type="gru")


def test_sample_as_torch_rnn():
    m = _lm()
    m.evaluate()
    params = params_of(m)
    greedy = m.sample(12, start_text="ab", sample=0)
    # the transcription: prime with "ab", then feed back the argmax one token at a time
    scores, state = lm_forward(params, np.array([[0, 1]]))
    ids = [0, 1]
    while len(ids) < 12:
        ids.append(int(np.argmax(scores[0, -1])))
        scores, state = lm_forward(params, np.array([[ids[-1]]]), states=state)
    assert greedy == "".join(TOKENS[i] for i in ids)
    one = m.sample(30, start_text="a", temperature=0.8, rng=np.random.default_rng(7))
    assert one == m.sample(30, start_text="a", temperature=0.8, rng=np.random.default_rng(7))
    assert one != m.sample(30, start_text="a", temperature=0.8, rng=np.random.default_rng(8))
    assert one.startswith("a") and len(one) == 30 and set(one) <= set(TOKENS)
    assert len(m.sample(5, sample=0)) == 5          # no start text: uniform scores, argmax is token 0
    assert m.sample(5, sample=0)[0] == TOKENS[0]
    # a very low temperature draws the argmax without overflowing
    assert m.sample(12, start_text="ab", temperature=1e-6, rng=np.random.default_rng(1)) == greedy


# ---------------------------------------------------------------- Torch7 files
def _write(tmp_path, value, name="cp.t7"):
    path = tmp_path / name
    path.write_bytes(t7_bytes(value))
    return str(path)


def _load(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # a torch-rnn checkpoint loads without a warning
        return nn.load_lua(path, **kw)


def _params(kind, bn=False, seed=0):
    rng = np.random.default_rng(seed)
    V, E = len(TOKENS), 4
    gates = 4 if kind == "lstm" else 1
    rnns = [(kind, rng.uniform(-0.6, 0.6, (d + H, gates * H)), rng.uniform(-0.3, 0.3, gates * H)) for d in (E, H)]
    p = {"embed": rng.standard_normal((V, E)), "rnns": rnns,
         "proj": (rng.uniform(-0.5, 0.5, (V, H)), rng.uniform(-0.1, 0.1, V))}
    if bn:
        p["bn"] = [(rng.uniform(-0.2, 0.2, H), rng.uniform(0.5, 1.5, H), rng.uniform(0.5, 1.5, H),
                    rng.uniform(-0.2, 0.2, H), 1e-5) for _ in range(2)]
    return p


CLASSES = {"float": ("torch.FloatTensor", np.float32, 1e-5), "double": ("torch.DoubleTensor", np.float64, 1e-12),
           "cuda": ("torch.CudaTensor", np.float32, 1e-5), "cudadouble": ("torch.CudaDoubleTensor", np.float64, 1e-12)}


@pytest.mark.parametrize("saved", sorted(CLASSES))
@pytest.mark.parametrize("layout", ["lstm", "rnn", "lstm-batchnorm-dropout", "rnn-adapter-batchnorm"])
def test_checkpoint_loads_and_runs_as_torch_rnn(tmp_path, saved, layout):
    cls, dtype, rtol = CLASSES[saved]
    kind = layout.split("-")[0]
    p = _params(kind, bn="batchnorm" in layout)
    w = Writer(cls)
    model = w.language_model(TOKENS, p, dropout=0.25 if "dropout" in layout else 0, adapter="adapter" in layout)
    cp = _load(_write(tmp_path, w.checkpoint(model, i=40)))
    assert sorted(cp) == ["forward_backward_times", "i", "memory_usage", "model", "opt", "train_loss_history",
                          "val_loss_history", "val_loss_history_it"] and cp["i"] == 40
    lm = cp["model"]
    assert isinstance(lm, nn.LanguageModel) and lm.model_type == kind and lm.num_layers == 2
    rnn_class = nn.TorchRNNLSTM if kind == "lstm" else nn.VanillaRNN
    assert [type(r) for r in lm.rnns] == [rnn_class, rnn_class]
    assert all(r.remember_states for r in lm.rnns) and all(r in lm.net.modules for r in lm.rnns)
    assert lm.rnns[0].input_dim == 4 and lm.rnns[1].hidden_dim == H
    # 1-based Lua tables -> 0-based
    assert lm.idx_to_token == TOKENS and lm.token_to_idx == {t: i for i, t in enumerate(TOKENS)}
    assert lm.type() == dtype and lm.train is False
    if "adapter" in layout:
        assert isinstance(lm.net.modules[-1], nn.TemporalAdapter) and lm.view1 is None
    ids = np.array([[0, 6, 2, 1, 1], [5, 4, 3, 2, 0]])
    ref, last = lm_forward(p, ids)
    np.testing.assert_allclose(lm.forward(ids), ref, rtol=rtol, atol=rtol)
    ref2, _ = lm_forward(p, ids[:, :1], states=last)      # remember_states: the next call goes on
    np.testing.assert_allclose(lm.forward(ids[:, :1]), ref2, rtol=rtol, atol=rtol)
    # and it trains: backward gives every parameter a gradient
    lm.zeroGradParameters()
    lm.backward(ids[:, :1], np.ones((2, 1, len(TOKENS)), dtype))
    assert all(np.any(g != 0) for g in lm.parameters()[1])


def test_a_model_saved_without_reset_goes_on_from_its_state(tmp_path):
    """h0 / c0 non-empty, with the cell and output sequences held: torch-rnn's
    next forward starts from their last step."""
    p = _params("lstm")
    ids = np.array([[0, 1, 2], [3, 4, 5]])
    ref, last = lm_forward(p, ids)
    # the saved sequences: recompute each layer's h and c sequences
    x = p["embed"][ids]
    remembered = []
    for _, wt, b in p["rnns"]:
        hs, cs = [], []
        for t in range(ids.shape[1]):
            h, (hl, cl) = lstm_forward(x[:, :t + 1], wt, b)
            hs.append(hl)
            cs.append(cl)
        hseq, cseq = np.stack(hs, 1), np.stack(cs, 1)
        remembered.append((np.zeros((2, H)), hseq, np.zeros((2, H)), cseq))
        x = hseq
    w = Writer("torch.DoubleTensor")
    lm = _load(_write(tmp_path, w.checkpoint(w.language_model(TOKENS, p, remembered=remembered))))["model"]
    expected, _ = lm_forward(p, ids[:, :2], states=last)
    np.testing.assert_allclose(lm.forward(ids[:, :2]), expected, rtol=1e-12, atol=1e-13)
    lm.resetStates()
    np.testing.assert_allclose(lm.forward(ids), ref, rtol=1e-12, atol=1e-13)


def test_torch_rnn_lstm_and_the_rnn_packages_lstm_are_told_apart_by_their_fields(tmp_path, registry):
    from rnn_t7_files import seq_lstm
    w = Writer("torch.DoubleTensor")
    weight, bias = np.random.default_rng(0).uniform(-1, 1, (D + H, 4 * H)), np.zeros(4 * H)
    ours = w.lstm(weight, bias, remember=False)
    path = _write(tmp_path, {1: ours, 2: seq_lstm(weight, bias)})
    a, b = _load(path)
    assert type(a) is nn.TorchRNNLSTM and type(b) is nn.SeqLSTM and a.remember_states is False
    np.testing.assert_allclose(a.forward(_x()), lstm_forward(_x(), weight, bias)[0], rtol=1e-12)
    # a class given for nn.LSTM wins: nothing is renamed
    with pytest.raises(nn.serialization.T7Error, match="nn.LSTM reached the class given for it"):
        nn.load_lua(_write(tmp_path, ours, "one.t7"), classes={"nn.LSTM": _Strict})


class _Strict(nn.Module):
    def _t7_fixup(self, version):
        raise nn.serialization.T7Error("nn.LSTM reached the class given for it")


def test_damaged_torch_rnn_objects_raise_t7error(tmp_path):
    w = Writer("torch.DoubleTensor")
    p = _params("lstm")
    bad = w.lstm(np.zeros((4, 8)), np.zeros(8))            # a weight that does not fit input_dim 2, hidden_dim 2
    bad.fields["input_dim"] = 3.0
    with pytest.raises(nn.serialization.T7Error, match=r"TorchRNNLSTM: weight \[4, 8\] and bias \[8\] do not fit"):
        nn.load_lua(_write(tmp_path, bad, "a.t7"))
    bad = w.lstm(np.zeros((4, 8)), np.zeros(8))
    bad.fields["hidden_dim"] = "two"
    with pytest.raises(nn.serialization.T7Error, match="hidden_dim must be a positive whole number"):
        nn.load_lua(_write(tmp_path, bad, "b.t7"))
    model = w.language_model(TOKENS, p)
    model.fields["idx_to_token"] = {1: "a", 3: "b"}
    with pytest.raises(nn.serialization.T7Error, match="idx_to_token must have the keys 1..V"):
        nn.load_lua(_write(tmp_path, model, "c.t7"))
    model = w.language_model(TOKENS[:-1] + ["a"], p)
    with pytest.raises(nn.serialization.T7Error, match="holds a token twice"):
        nn.load_lua(_write(tmp_path, model, "d.t7"))
    model = w.language_model(TOKENS[:-1], p)
    with pytest.raises(nn.serialization.T7Error, match="6 tokens in idx_to_token, but the LookupTable has 7 rows"):
        nn.load_lua(_write(tmp_path, model, "e.t7"))
    adapter = w.temporal_adapter(w.linear(np.zeros((2, 3)), np.zeros(2)))
    adapter.fields["net"] = w.sequential([w.linear(np.zeros((2, 3)), np.zeros(2))])
    with pytest.raises(nn.serialization.T7Error, match="TemporalAdapter \\(torch-rnn's\\): net must be"):
        nn.load_lua(_write(tmp_path, adapter, "f.t7"))
    assert EMPTY.size == 0


def test_loaded_model_saves_and_loads_natively(tmp_path):
    w = Writer("torch.FloatTensor")
    p = _params("lstm", bn=True)
    lm = _load(_write(tmp_path, w.checkpoint(w.language_model(TOKENS, p))))["model"]
    ids = np.array([[1, 2, 3]])
    y = lm.forward(ids).copy()
    nn.save(lm, str(tmp_path / "lm.thnn"))
    back = nn.load(str(tmp_path / "lm.thnn"))
    back.resetStates()
    assert back.rnns[0] is back.net.modules[1] and back.view1 is back.net.modules[-3]
    np.testing.assert_array_equal(back.forward(ids), y)
    assert back.sample(10, start_text="a", sample=0) == lm.sample(10, start_text="a", sample=0)


def test_a_loaded_model_goes_back_to_lua_with_torch_rnns_class_names(tmp_path):
    """save_lua writes TorchRNNLSTM as torch-rnn's nn.LSTM (the class Lua
    knows), and the file loads back to the same model."""
    from nn_legacy.serialization.t7 import read_t7
    w = Writer("torch.FloatTensor")
    lm = _load(_write(tmp_path, w.checkpoint(w.language_model(TOKENS, _params("lstm")))))["model"]
    nn.save_lua(str(tmp_path / "back.t7"), lm)
    names, stack = set(), [read_t7(str(tmp_path / "back.t7"))]
    while stack:
        v = stack.pop()
        if hasattr(v, "class_name"):
            names.add(v.class_name)
            stack.append(v.fields)
        elif isinstance(v, dict):
            stack += list(v.values())
        elif isinstance(v, list):
            stack += v
    assert "nn.LSTM" in names and not any("TorchRNN" in n for n in names), names
    back = nn.load_lua(str(tmp_path / "back.t7"))
    assert [type(r) for r in back.rnns] == [nn.TorchRNNLSTM, nn.TorchRNNLSTM]
    ids = np.array([[1, 2, 3]])
    lm.resetStates()
    back.resetStates()
    np.testing.assert_array_equal(back.forward(ids), lm.forward(ids))


@pytest.mark.parametrize("make", [lambda: (_randomize(nn.TorchRNNLSTM(D, H)), _x()),
                                  lambda: (_randomize(nn.VanillaRNN(D, H)), _x()),
                                  lambda: (nn.TemporalAdapter(nn.Linear(D, 2)), _x()),
                                  lambda: (_lm(), np.array([[0, 1, 2, 6], [3, 3, 5, 4]]))],
                         ids=["TorchRNNLSTM", "VanillaRNN", "TemporalAdapter", "LanguageModel"])
def test_a_batch_gives_what_its_rows_give(make):
    m, x = make()
    for rnn in getattr(m, "rnns", []):
        rnn.remember_states = False
    whole = m.forward(x).copy()
    for n in range(len(x)):
        np.testing.assert_allclose(m.forward(x[n:n + 1]), whole[n:n + 1], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_language_model_runs_on_a_cuda_device(dev, kind):
    """Its layers all have CUDA twins or run as device tensor math: cuda()
    gives the host's numbers, forward, backward and sampling alike."""
    from thnn import cuda
    host = _lm(kind)
    host.evaluate()
    on_device = host.clone().cuda(dev)
    ids = np.array([[0, 1, 2, 6], [3, 3, 5, 4]])
    y = host.forward(ids)
    y_d = on_device.forward(dev.to_device(ids))
    assert isinstance(y_d, cuda.CudaTensor)
    np.testing.assert_allclose(y_d.numpy(), y, rtol=1e-10, atol=1e-12)
    g = np.random.default_rng(0).standard_normal(y.shape)
    host.zeroGradParameters()
    on_device.zeroGradParameters()
    host.backward(ids, g)
    on_device.backward(dev.to_device(ids), dev.to_device(g))
    for a, b in zip(host.parameters()[1], on_device.parameters()[1]):
        np.testing.assert_allclose(b.numpy(), a, rtol=1e-9, atol=1e-11)
    host.resetStates()
    assert on_device.sample(20, start_text="ab", sample=0) == host.sample(20, start_text="ab", sample=0)
    assert on_device.sample(20, start_text="ab", rng=np.random.default_rng(3)) == \
        host.sample(20, start_text="ab", rng=np.random.default_rng(3))


def test_damaged_checkpoints_raise_only_t7error(tmp_path):
    """Truncations and flipped bytes of a torch-rnn checkpoint: load_lua gives
    a model or raises T7Error, never anything else."""
    w = Writer("torch.FloatTensor")
    data = t7_bytes(w.checkpoint(w.language_model(TOKENS, _params("lstm", bn=True), dropout=0.5)))
    rng = np.random.default_rng(0)
    path = tmp_path / "bad.t7"
    cuts = sorted(set(rng.integers(1, len(data), 60).tolist()))
    flips = [(int(k), int(v)) for k, v in zip(rng.integers(0, len(data), 240), rng.integers(0, 256, 240))]
    loaded = 0
    for case in [("cut", k) for k in cuts] + [("flip", kv) for kv in flips]:
        if case[0] == "cut":
            bad = data[:case[1]]
        else:
            k, v = case[1]
            bad = data[:k] + bytes([v]) + data[k + 1:]
        path.write_bytes(bad)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                nn.load_lua(str(path))
            loaded += 1
        except nn.serialization.T7Error:
            pass
    assert loaded < len(cuts) + len(flips)     # (most damage is caught; flips inside weights load)
