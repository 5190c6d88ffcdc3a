"""rnn-package modules saved by Torch7 load with load_lua and compute what
the package computed: cells whose step module was an nn tree or an nngraph
gModule are rebuilt from their weights, Element-Research and torch/rnn
files alike, fresh or after running some steps.  The files are written
with tests/t7_writer.py from tests/rnn_t7_files.py (the Lua constructors'
trees); outputs are checked against the numpy transcriptions of
tests/rnn_reference.py (its LSTM is torch.nn.LSTM's formula, which
test_rnn_reference.py checks against torch where torch is installed), so
these tests need no torch."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
import rnn_t7_files as F
from nn_legacy.serialization.t7 import T7Error
from t7_writer import T7Object, t7_bytes

D, H, N, T = 3, 4, 2, 5
rng = np.random.default_rng(0)
W, U, B = rng.uniform(-1, 1, (4 * H, D)), rng.uniform(-1, 1, (4 * H, H)), rng.uniform(-1, 1, 4 * H)
GRU_W = [rng.uniform(-1, 1, s) for s in ((2 * H, D), (2 * H,), (2 * H, H), (H, D), (H,), (H, H))]
LSTM_W = {g: (rng.uniform(-1, 1, (H, D)), rng.uniform(-1, 1, H), rng.uniform(-1, 1, (H, H)), rng.uniform(-1, 1, H))
          for g in "ifo"}
LSTM_W["z"] = (rng.uniform(-1, 1, (H, D)), rng.uniform(-1, 1, H), rng.uniform(-1, 1, (H, H)))
XS = rng.uniform(-1, 1, (T, N, D))
ZERO = np.zeros((N, H))


def load(tmp_path, obj, name="m.t7"):
    path = tmp_path / name
    path.write_bytes(t7_bytes(obj))
    return nn.load_lua(str(path))


def steps(m, xs=XS):
    m.forget()
    return np.stack([np.array(m.forward(x)) for x in xs])


def fast_lstm_reference(xs=XS):
    rows = R.fast_to_torch_rows(H)
    return R.lstm(W[rows], U[rows], B[rows], xs)


@pytest.mark.parametrize("flavour", ["er", "tr"])
@pytest.mark.parametrize("nngraph", [False, True], ids=["nn", "nngraph"])
@pytest.mark.parametrize("used", [False, True], ids=["fresh", "used"])
def test_fast_lstm(tmp_path, flavour, nngraph, used):
    m = load(tmp_path, F.fast_lstm(W, U, B, rho=7, flavour=flavour, nngraph=nngraph, used=used))
    assert type(m) is nn.FastLSTM and m.rho == 7 and m.step == 1
    assert (m.inputSize, m.outputSize) == (D, H) and m.i2g is m.recurrentModule.i2g
    np.testing.assert_array_equal(m.i2g.weight, W)
    np.testing.assert_array_equal(m.o2g.weight, U)
    np.testing.assert_allclose(steps(m), fast_lstm_reference(), rtol=1e-13, atol=1e-14)
    # it trains: BPTT reaches the loaded weights
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], np.ones((N, H)))
    assert np.abs(m.i2g.gradWeight).sum() > 0 and m.o2g.bias is None


def test_fast_lstm_masked(tmp_path):
    m = load(tmp_path, F.fast_lstm(W, U, B, mask=1))
    assert isinstance(m.recurrentModule, nn.MaskZero) and m.recurrentModule.nInputDim == 1
    xs = XS.copy()
    xs[1, 0] = 0
    y = steps(m, xs)
    assert np.all(y[1, 0] == 0)
    np.testing.assert_allclose(y[:, 1], fast_lstm_reference(xs)[:, 1], rtol=1e-13, atol=1e-14)


def test_lstm_with_peepholes(tmp_path):
    m = load(tmp_path, F.lstm(LSTM_W, rho=3, used=True))
    assert type(m) is nn.LSTM and m.rho == 3 and m.cell2gate
    np.testing.assert_allclose(steps(m), R.lstm_peephole(XS, LSTM_W, ZERO, ZERO), rtol=1e-13, atol=1e-14)
    # the parameters in the rnn package's order: forget gate, input gate, hidden, output gate
    params = m.parameters()[0]
    assert params[0] is m.recurrentModule.modules[0].weight
    np.testing.assert_array_equal(params[0], LSTM_W["f"][0])
    np.testing.assert_array_equal(params[4], LSTM_W["i"][0])


def test_lstm_without_peepholes(tmp_path):
    w = {g: v[:3] for g, v in LSTM_W.items()}
    m = load(tmp_path, F.lstm({**w, **{g: w[g] + (None,) for g in "ifo"}}, cell2gate=False))
    assert not m.cell2gate
    np.testing.assert_allclose(steps(m), R.lstm_peephole(XS, LSTM_W, ZERO, ZERO, cell2gate=False),
                               rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_gru(tmp_path, flavour):
    m = load(tmp_path, F.gru(*GRU_W, rho=5, flavour=flavour, used=True))
    assert type(m) is nn.GRU and m.rho == 5
    np.testing.assert_allclose(steps(m), R.gru(XS, *GRU_W, ZERO), rtol=1e-13, atol=1e-14)
    assert [p.shape for p in m.parameters()[0]] == [w.shape for w in GRU_W]


def test_gru_built_with_nngraph(tmp_path):
    m = load(tmp_path, F.gru_nngraph(*GRU_W))
    np.testing.assert_allclose(steps(m), R.gru(XS, *GRU_W, ZERO), rtol=1e-13, atol=1e-14)


def test_fast_lstm_built_with_nngraph_without_its_fields(tmp_path):
    f = F.fast_lstm(W, U, B, nngraph=True)       # its gModule lists o2g before i2g
    del f.fields["i2g"], f.fields["o2g"]
    np.testing.assert_allclose(steps(load(tmp_path, f)), fast_lstm_reference(), rtol=1e-13, atol=1e-14)


def test_recurrent(tmp_path):
    start, Wi, bi, Wf, bf = (rng.uniform(-1, 1, s) for s in ((H,), (H, D), (H,), (H, H), (H,)))
    m = load(tmp_path, F.recurrent(start, Wi, bi, Wf, bf, rho=4, used=True))
    assert type(m) is nn.Recurrent and m.rho == 4 and len(m.parameters()[0]) == 5
    h = np.tanh(XS[0] @ Wi.T + bi + start)
    expected = [h]
    for x in XS[1:]:
        h = np.tanh(x @ Wi.T + bi + h @ Wf.T + bf)
        expected.append(h)
    np.testing.assert_allclose(steps(m), np.stack(expected), rtol=1e-13, atol=1e-14)
    assert m.initialModule.modules[0].weight is m.inputModule.weight     # shared again


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_sequencer_of_a_network(tmp_path, flavour):
    """Sequencer(Recursor(Sequential(Linear, FastLSTM))) as Torch7 saved it."""
    Wl, bl = rng.uniform(-1, 1, (D, D)), rng.uniform(-1, 1, D)
    net = F.seq(F.linear(Wl, bl), F.fast_lstm(W, U, B, flavour=flavour))
    m = load(tmp_path, F.sequencer(F.recursor(net, flavour=flavour), flavour=flavour, remember="both"))
    assert type(m.module) is nn.Recursor and m.module is m.modules[0] and m._remember == "both"
    xs = XS @ Wl.T + bl
    np.testing.assert_allclose(m.forward(XS), fast_lstm_reference(xs), rtol=1e-13, atol=1e-14)
    m.forget()
    assert np.allclose(m.forward(list(XS))[2], fast_lstm_reference(xs)[2], rtol=1e-13)


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_repeater(tmp_path, flavour):
    m = load(tmp_path, F.repeater(F.fast_lstm(W, U, B), 3, flavour=flavour))
    assert m.rho == 3
    out = m.forward(XS[0])
    np.testing.assert_allclose(np.stack(out), fast_lstm_reference(np.stack([XS[0]] * 3)), rtol=1e-13, atol=1e-14)


def test_bisequencer(tmp_path):
    m = load(tmp_path, F.bisequencer(F.fast_lstm(W, U, B), F.gru(*GRU_W)))
    assert [type(s) for s in m.modules] == [nn.Sequencer] * 3 and m.mergeSeq.module.module.dimension == 0
    out = m.forward(list(XS))
    backward = R.gru(XS[::-1], *GRU_W, ZERO)[::-1]
    np.testing.assert_allclose(np.stack(out), np.concatenate([fast_lstm_reference(), backward], axis=2), rtol=1e-13,
                               atol=1e-14)


def test_bisequencer_lm(tmp_path):
    m = load(tmp_path, F.bisequencer_lm(F.fast_lstm(W, U, B), F.gru(*GRU_W)))
    out = np.stack(m.forward(list(XS)))
    fwd = np.concatenate([np.zeros((1, N, H)), fast_lstm_reference()[:-1]])
    bwd = np.concatenate([R.gru(XS[:0:-1], *GRU_W, ZERO)[::-1], np.zeros((1, N, H))])
    np.testing.assert_allclose(out, np.concatenate([fwd, bwd], axis=2), rtol=1e-13, atol=1e-14)


def test_a_bisequencer_of_neither_layout_is_refused(tmp_path):
    """torch/rnn's form loads (tests/test_rnn_package_t7.py); a tree that is
    not what its constructor built (here the backward direction is missing),
    or an Element-Research one without its sequencers, is refused."""
    brnn = F.seq(F.concat(F.sequencer(F.fast_lstm(W, U, B))), F.obj("CAddTable"))
    with pytest.raises(T7Error, match="holds neither Element-Research's BiSequencer .* nor torch/rnn's"):
        load(tmp_path, F.obj("BiSequencer", modules=F.table(brnn)))
    raw = F.bisequencer(F.fast_lstm(W, U, B), F.gru(*GRU_W))
    del raw.fields["mergeSeq"]
    with pytest.raises(T7Error, match="BiSequencer: the file's mergeSeq is NoneType, not a module"):
        load(tmp_path, raw)


@pytest.mark.parametrize("flavour", ["er", "tr"])
@pytest.mark.parametrize("old", [False, True], ids=["new", "old"])
def test_seq_lstm(tmp_path, flavour, old):
    weight, bias = rng.uniform(-1, 1, (D + H, 4 * H)), rng.uniform(-1, 1, 4 * H)
    m = load(tmp_path, F.seq_lstm(weight, bias, flavour=flavour, old=old))
    assert (m.inputsize, m.hiddensize, m.outputsize) == (D, H, H) and not m.batchfirst and not m.maskzero
    cols = R.seq_to_torch_rows(H)
    expected = R.lstm(weight[:D, cols].T.copy(), weight[D:, cols].T.copy(), bias[cols], XS)
    np.testing.assert_allclose(m.forward(XS), expected, rtol=1e-13, atol=1e-14)
    assert m.backward(XS, np.ones((T, N, H))).shape == XS.shape


def test_seq_lstm_with_projection_is_refused(tmp_path):
    f = F.seq_lstm(np.zeros((D + 2, 4 * H)), np.zeros(4 * H), flavour="tr")
    f.fields["weightO"] = np.zeros((H, 2))
    with pytest.raises(T7Error, match="SeqLSTMP"):
        load(tmp_path, f)


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_seq_gru(tmp_path, flavour):
    Wg, bg, Ug, Wn, bn, Un = GRU_W
    weight = np.concatenate([np.concatenate([Wg.T, Wn.T], axis=1), np.concatenate([Ug.T, Un.T], axis=1)])
    m = load(tmp_path, F.seq_gru(weight, np.concatenate([bg, bn]), flavour=flavour))
    assert (m.inputSize, m.outputSize) == (D, H)
    np.testing.assert_allclose(m.forward(XS), R.gru(XS, *GRU_W, ZERO), rtol=1e-13, atol=1e-14)


def test_small_modules(tmp_path):
    m = load(tmp_path, F.obj("SeqReverseSequence", dim=2.0, outputIndices=np.zeros(0)))
    assert m.dim == 1
    np.testing.assert_array_equal(m.forward(XS), XS[:, ::-1])
    w = rng.uniform(-1, 1, (H, D))
    m = load(tmp_path, F.linear_no_bias(w))
    assert type(m) is nn.LinearNoBias and m.bias is None
    np.testing.assert_allclose(m.forward(XS[0]), XS[0] @ w.T, rtol=1e-14)
    m = load(tmp_path, F.obj("MaskZero", modules=F.table(F.linear_no_bias(w)), nInputDim=1.0))
    x = XS[0].copy()
    x[1] = 0
    assert np.all(m.forward(x)[1] == 0)


def test_language_model_file(tmp_path):
    """The rnn package's usual language model: LookupTable, SplitTable,
    Sequencer(FastLSTM), Sequencer(Linear), Sequencer(LogSoftMax)."""
    V = 6
    emb, Wo, bo = rng.uniform(-1, 1, (V, D)), rng.uniform(-1, 1, (V, H)), rng.uniform(-1, 1, V)
    model = F.seq(F.obj("LookupTable", weight=emb, gradWeight=np.zeros_like(emb), paddingValue=0.0,
                        shouldScaleGradByFreq=False),
                  F.obj("SplitTable", dimension=1.0, nInputDims=2.0),
                  F.sequencer(F.fast_lstm(W, U, B)), F.sequencer(F.linear(Wo, bo)),
                  F.sequencer(F.obj("LogSoftMax")))
    m = load(tmp_path, model)
    tokens = rng.integers(0, V, (N, T))            # [batch, seqlen], 0-based
    out = m.forward(tokens)
    assert len(out) == T and out[0].shape == (N, V)
    h = fast_lstm_reference(emb[tokens].transpose(1, 0, 2))
    logits = h @ Wo.T + bo
    expected = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    np.testing.assert_allclose(np.stack(out), expected, rtol=1e-12, atol=1e-13)
    # and it saves and loads the nn_legacy way
    nn.save(m, str(tmp_path / "lm.thnn"))
    again = nn.load(str(tmp_path / "lm.thnn"))
    np.testing.assert_allclose(np.stack(again.forward(tokens)), expected, rtol=1e-12, atol=1e-13)


def test_what_is_not_implemented_is_refused_by_name(tmp_path):
    """(FastLSTM.bn files load: tests/test_rnn_package_t7.py.)"""
    f = F.fast_lstm(W, U, B)
    f.fields["p"] = 0.25
    with pytest.raises(T7Error, match=r"dropout inside its step \(p=0.25\)"):
        load(tmp_path, f)


def test_classes_inside_the_raw_step_module_are_not_required(tmp_path):
    """nngraph exists only inside fields taken raw: load_lua's unknown-class
    check does not look there.  (dpnn's ReverseTable and rnn's SAdd load on
    their own too since issue 27.)"""
    m = load(tmp_path, F.sequencer(F.fast_lstm(W, U, B, nngraph=True)))
    assert type(m.module) is nn.FastLSTM
    assert type(load(tmp_path, F.seq(F.obj("SAdd", addend=-1.0, negate=True))).get(0)) is nn.SAdd
    with pytest.raises(T7Error, match="nn.NotARealClass"):
        load(tmp_path, F.seq(F.obj("NotARealClass")))


def test_weights_of_another_size_are_refused(tmp_path):
    f = F.gru(*GRU_W)
    f.fields["outputSize"] = float(H + 1)
    with pytest.raises(T7Error, match="GRU weight layer 0: weight of 24 elements in the file"):
        load(tmp_path, f)
    f = F.fast_lstm(W, U, B)
    f.fields["recurrentModule"] = f.fields["modules"][1] = T7Object("nn.Identity", {})
    del f.fields["i2g"]
    with pytest.raises(T7Error, match="has 0 weight layers"):
        load(tmp_path, f)
