"""The rest of the rnn package from Torch7 files (issue 27 item 4): byte
streams written with tests/t7_writer.py in the layouts of Element-Research
rnn ("er") and torch/rnn ("tr") (builders: tests/rnn_t7_files.py), loaded
with load_lua and compared against the numpy references of
tests/rnn_reference.py."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
import rnn_t7_files as F
from nn_legacy.serialization.t7 import T7Error, TrainingModeWarning
from t7_writer import t7_bytes

D, H, N, T = 3, 4, 3, 5
rng = np.random.default_rng(27)
W, U, B, BIAS = rng.uniform(-1, 1, (4 * H, D)), rng.uniform(-1, 1, (4 * H, H)), rng.uniform(-1, 1, 4 * H), \
    rng.uniform(-1, 1, 4 * H)
XS = rng.uniform(-1, 1, (T, N, D))


def load(tmp_path, obj):
    """obj written and loaded; the files hold modules in training mode, as
    saved, and load_lua says so for those with batch normalization."""
    path = tmp_path / "m.t7"
    path.write_bytes(t7_bytes(obj))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TrainingModeWarning)
        loaded = nn.load_lua(str(path))
    bn = any(isinstance(m, nn.FastLSTMBNStep) for m in getattr(loaded, "listModules", lambda: [])())
    assert [w.category for w in caught] == ([TrainingModeWarning] if bn else [])
    return loaded


def _bn_arrays(n, affine=True):
    """(weight, bias, running_mean, running_var) of a BN of n features, as a file holds them."""
    g, b = (rng.uniform(0.5, 1.5, n), rng.uniform(-0.5, 0.5, n)) if affine else (None, None)
    return g, b, rng.uniform(-0.5, 0.5, n), rng.uniform(0.5, 2, n)


BN_ARRAYS = {affine: [_bn_arrays(n, affine) for n in (4 * H, 4 * H, H)] for affine in (True, False)}


def _raw_bns(affine=True, old=False, eps=1e-5, momentum=0.1):
    return [F.batch_norm(len(a[2]), *a, eps=eps, momentum=momentum, old=old) for a in BN_ARRAYS[affine]]


def _reference(xs, affine=True, train=True, eps=1e-5, momentum=0.1):
    (gx, bx, mx, vx), (gh, bh, mh, vh), (gc, bc, mc, vc) = BN_ARRAYS[affine]
    p = {"W": W, "b": B, "U": U, "bias": BIAS, "gx": gx, "bx": bx, "gh": gh, "bh": bh, "gc": gc, "bc": bc}
    running = {"x": [mx.copy(), vx.copy()], "h": [mh.copy(), vh.copy()], "c": [mc.copy(), vc.copy()]}
    return R.fast_lstm_bn(xs, p, running, eps, momentum, train), running


# name -> builder keyword arguments (every layout a release wrote)
BN_FILES = {
    "er": {},
    "tr": {"flavour": "tr"},
    "unnamed-nodes": {"names": False},
    "without-i2g-fields": {"fields": False},
    "used": {"used": True},
    "plain": {"affine": False},
    "old-bn": {"old": True},
}


@pytest.mark.parametrize("case", sorted(BN_FILES))
def test_fast_lstm_bn(tmp_path, case):
    kw = dict(BN_FILES[case])
    affine, old = kw.pop("affine", True), kw.pop("old", False)
    eps, momentum = 1e-3, 0.2
    m = load(tmp_path, F.fast_lstm_bn(W, U, B, BIAS, _raw_bns(affine, old, eps, momentum), rho=7, **kw))
    assert type(m) is nn.FastLSTM and type(m.recurrentModule) is nn.FastLSTMBNStep and m.bn and m.rho == 7
    s = m.recurrentModule
    assert (s.bn_wx.eps, s.bn_wx.momentum, s.affine) == (eps, momentum, affine) and m.i2g is s.i2g
    np.testing.assert_array_equal(s.bias_module.bias, BIAS)
    # evaluation: the file's running averages
    m.evaluate()
    expected, _ = _reference(XS, affine, train=False, eps=eps)
    got = np.stack([m.forward(x).copy() for x in XS])
    np.testing.assert_allclose(got, expected, rtol=1e-10 if old else 1e-13, atol=1e-12)
    # training: batch statistics, the running averages moving from the file's
    m.training()
    m.forget()
    expected, running = _reference(XS, affine, eps=eps, momentum=momentum)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in XS]), expected, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(s.bn_c.running_var, running["c"][1], rtol=1e-10)
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], np.ones((N, H)))
    assert np.abs(s.bn_wh.gradWeight if affine else s.o2g.gradWeight).sum() > 0


def test_fast_lstm_bn_masked_and_in_a_sequencer(tmp_path):
    f = F.fast_lstm_bn(W, U, B, BIAS, _raw_bns())
    step = f.fields["recurrentModule"]
    f.fields["recurrentModule"] = f.fields["modules"][1] = F.obj("MaskZero", modules=F.table(step), module=step,
                                                                  nInputDim=1.0)
    m = load(tmp_path, F.sequencer(f))
    assert isinstance(m.module.recurrentModule, nn.MaskZero)
    assert type(m.module.recurrentModule.modules[0]) is nn.FastLSTMBNStep
    m.evaluate()
    np.testing.assert_allclose(m.forward(XS), _reference(XS, train=False)[0], rtol=1e-13, atol=1e-13)


def test_fast_lstm_bn_files_that_do_not_describe_one(tmp_path):
    bns = _raw_bns()
    f = F.fast_lstm_bn(W, U, B, BIAS, bns, names=False)
    step = f.fields["recurrentModule"]
    for node in step.fields["forwardnodes"].values():
        node.fields["children"] = {}
    with pytest.raises(T7Error, match="does not tell its two batch normalizations"):
        load(tmp_path, f)
    f = F.fast_lstm_bn(W, U, B, BIAS, [bns[0], bns[1], F.batch_norm(H + 1)])
    with pytest.raises(T7Error, match=r"\[4H, 4H, H\]"):
        load(tmp_path, f)
    f = F.fast_lstm_bn(W, U, B, BIAS, bns)
    f.fields["p"] = 0.5
    with pytest.raises(T7Error, match="dropout"):
        load(tmp_path, f)


# ---------------------------------------------------------------- criterions
def _nll(x, t):
    return -x[np.arange(len(t)), t].mean()


@pytest.mark.parametrize("flavour", ["er", "tr"])
@pytest.mark.parametrize("size_average", [False, True], ids=["sum", "mean"])
@pytest.mark.parametrize("steps", [0, 3], ids=["fresh", "used"])
def test_sequencer_criterion(tmp_path, flavour, size_average, steps):
    inner = F.criterion("ClassNLLCriterion", total_weight_tensor=np.ones(1), output_tensor=np.zeros(1))
    crit = load(tmp_path, F.sequencer_criterion(inner, size_average, flavour, steps))
    assert type(crit) is nn.SequencerCriterion and type(crit.criterion) is nn.ClassNLLCriterion
    assert crit.sizeAverage == size_average and crit.clones == {}
    x, t = rng.uniform(-2, 0, (T, N, 4)), rng.integers(0, 4, (T, N))
    expected = sum(_nll(x[k], t[k]) for k in range(T)) / (T if size_average else 1)
    assert crit.forward(x, t) == pytest.approx(expected, rel=1e-13)



@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_mask_zero_criterion(tmp_path, flavour):
    inner = F.criterion("ClassNLLCriterion", total_weight_tensor=np.ones(1), output_tensor=np.zeros(1))
    raw = F.mask_zero_criterion(inner, 1, flavour, zero_mask=np.array([1, 0, 0], dtype=np.uint8))
    crit = load(tmp_path, raw)
    assert type(crit) is nn.MaskZeroCriterion and crit.zeroMask is None
    assert crit.nInputDim == (1 if flavour == "er" else None)
    x, t = rng.uniform(-2, 0, (4, 5)), rng.integers(0, 5, 4)
    x[2] = 0
    keep = np.array([True, True, False, True])
    assert crit.forward(x, t) == pytest.approx(_nll(x[keep], t[keep]), rel=1e-13)
    assert np.all(crit.backward(x, t)[2] == 0)


def test_a_masked_language_model_file(tmp_path):
    """LookupTableMaskZero, Sequencer(FastLSTM:maskZero(1)), Sequencer(MaskZero(Linear, LogSoftMax)),
    trained with SequencerCriterion(MaskZeroCriterion(ClassNLLCriterion)): both files, as the rnn
    package's examples saved them."""
    V = 6
    emb = rng.uniform(-1, 1, (V + 1, D))
    Wo, bo = rng.uniform(-1, 1, (V, H)), rng.uniform(-1, 1, V)
    from rnn_t7_files import fast_lstm
    lstm = fast_lstm(W, U, B, mask=1)
    head = F.obj("MaskZero", modules=F.table(F.seq(F.linear(Wo, bo), F.obj("LogSoftMax"))), nInputDim=1.0)
    model = load(tmp_path, F.seq(F.lookup_table_mask_zero(emb, used=True),
                                 F.obj("SplitTable", dimension=1.0, nInputDims=2.0),
                                 F.sequencer(lstm), F.sequencer(head)))
    assert type(model.modules[0]) is nn.LookupTableMaskZero and model.modules[0].paddingValue == 0
    inner = F.criterion("ClassNLLCriterion", total_weight_tensor=np.ones(1), output_tensor=np.zeros(1))
    crit = load(tmp_path, F.sequencer_criterion(F.mask_zero_criterion(inner, 1)))
    tokens = np.array([[-1, -1, 2, 3], [1, 4, 0, 5], [2, 2, 2, -1]])   # Lua's 0 (padding) is -1 here
    out = model.forward(tokens)
    x = np.where((tokens == -1)[..., None], 0, emb[tokens + 1]).transpose(1, 0, 2)
    rows = R.fast_to_torch_rows(H)
    h = np.stack([R.lstm(W[rows], U[rows], B[rows], x[:, b:b + 1])[:, 0] for b in range(3)], axis=1)
    # maskZero: a padded step gives zeros and the state restarts from zero after it
    h0 = R.lstm(W[rows], U[rows], B[rows], x[2:, :1])[:, 0]
    h[:2, 0], h[2:, 0] = 0, h0
    h[3, 2] = 0
    logits = h @ Wo.T + bo
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    logp[(tokens == -1).T] = 0
    np.testing.assert_allclose(np.stack(out), logp, rtol=1e-12, atol=1e-13)
    targets = rng.integers(0, V, (4, 3))
    expected = sum(_nll(logp[k][(tokens != -1)[:, k]], targets[k][(tokens != -1)[:, k]]) for k in range(4))
    assert crit.forward(out, list(targets)) == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- RecLSTM, RecGRU (torch/rnn, 2017)
LSTM_W, LSTM_B = rng.uniform(-1, 1, (D + H, 4 * H)), rng.uniform(-1, 1, 4 * H)
GRU_W, GRU_B = rng.uniform(-1, 1, (D + H, 3 * H)), rng.uniform(-1, 1, 3 * H)
ZERO = np.zeros((N, H))


def _lstm_reference(xs):
    cols = R.seq_to_torch_rows(H)
    return R.lstm(LSTM_W[:D, cols].T, LSTM_W[D:, cols].T, LSTM_B[cols], xs)


def _gru_reference(xs):
    w, b = GRU_W, GRU_B
    return R.gru(xs, w[:D, :2 * H].T, b[:2 * H], w[D:, :2 * H].T, w[:D, 2 * H:].T, b[2 * H:], w[D:, 2 * H:].T,
                 np.zeros(xs.shape[1:-1] + (H,)))


# name -> (raw object, class, reference)
REC_FILES = {
    "RecLSTM": (lambda: F.rec_lstm(F.step_lstm(LSTM_W, LSTM_B), seqlen=6), nn.RecLSTM, _lstm_reference),
    "RecLSTM-used": (lambda: F.rec_lstm(F.step_lstm(LSTM_W, LSTM_B), seqlen=6, used=True), nn.RecLSTM,
                     _lstm_reference),
    "RecLSTM-april-2017": (lambda: F.rec_lstm(F.step_lstm(LSTM_W, LSTM_B, early=True), seqlen=6, early=True),
                           nn.RecLSTM, _lstm_reference),
    "RecGRU": (lambda: F.rec_gru(F.step_gru(GRU_W, GRU_B), seqlen=6), nn.RecGRU, _gru_reference),
    "RecGRU-used": (lambda: F.rec_gru(F.step_gru(GRU_W, GRU_B), seqlen=6, used=True), nn.RecGRU, _gru_reference),
}


@pytest.mark.parametrize("case", sorted(REC_FILES))
def test_rec_cells(tmp_path, case):
    raw, cls, reference = REC_FILES[case]
    m = load(tmp_path, raw())
    assert type(m) is cls and m.rho == 6 and m.step == 1 and (m.inputsize, m.outputsize) == (D, H)
    np.testing.assert_array_equal(m.recurrentModule.weight, LSTM_W if cls is nn.RecLSTM else GRU_W)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in XS]), reference(XS), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], np.ones((N, H)))
    assert np.abs(m.recurrentModule.gradWeight).sum() > 0


@pytest.mark.parametrize("cls", ["RecLSTM", "RecGRU"])
def test_rec_cells_masked(tmp_path, cls):
    step = F.step_lstm(LSTM_W, LSTM_B, maskzero=True) if cls == "RecLSTM" else F.step_gru(GRU_W, GRU_B, True)
    m = load(tmp_path, (F.rec_lstm if cls == "RecLSTM" else F.rec_gru)(step))
    assert isinstance(m.recurrentModule, nn.MaskZero)
    xs = XS.copy()
    xs[2, 1] = 0
    y = np.stack([m.forward(x) for x in xs])
    assert np.all(y[2, 1] == 0)
    reference = _lstm_reference if cls == "RecLSTM" else _gru_reference
    np.testing.assert_allclose(y[:, 0], reference(xs)[:, 0], rtol=1e-13, atol=1e-14)


def test_rec_lstm_with_a_projection_is_refused(tmp_path):
    weight_o = rng.uniform(-1, 1, (H, 2))
    step = F.step_lstm(rng.uniform(-1, 1, (D + 2, 4 * H)), LSTM_B, weight_o=weight_o)
    with pytest.raises(T7Error, match="LSTMP"):
        load(tmp_path, F.rec_lstm(step))
    step = F.step_lstm(LSTM_W, LSTM_B)
    step.fields["weight"] = LSTM_W[:, :8]
    with pytest.raises(T7Error, match=r"StepLSTM: weight must hold 112 floats \(\[7, 16\]\), got 56"):
        load(tmp_path, F.rec_lstm(step))


# ---------------------------------------------------------------- Recurrence, SeqBRNN, the reversals, ZeroGrad
ELMAN_W, ELMAN_B, ELMAN_V = rng.uniform(-1, 1, (H, D)), rng.uniform(-1, 1, H), rng.uniform(-1, 1, (H, H))


def _elman_step():
    """Sequential(ParallelTable(Linear(D, H), LinearNoBias(H, H)), CAddTable, Tanh), raw."""
    return F.seq(F.para(F.linear(ELMAN_W, ELMAN_B), F.linear_no_bias(ELMAN_V)), F.obj("CAddTable"), F.obj("Tanh"))


def _elman_reference(xs):
    y, out = np.zeros(xs.shape[1:-1] + (H,)), []
    for x in xs:
        y = np.tanh(x @ ELMAN_W.T + ELMAN_B + y @ ELMAN_V.T)
        out.append(y)
    return np.stack(out)


# name -> builder keyword arguments
RECURRENCE_FILES = {
    "er": {"output_size": F.table(float(H))},
    "tr": {"output_size": F.table(float(H)), "flavour": "tr"},
    "er-used": {"output_size": F.table(float(H)), "used": True},
    "long-storage": {"output_size": np.array([H], dtype=np.int64)},
}


@pytest.mark.parametrize("case", sorted(RECURRENCE_FILES))
def test_recurrence(tmp_path, case):
    m = load(tmp_path, F.recurrence(_elman_step(), n_input_dim=1, rho=6, **RECURRENCE_FILES[case]))
    assert type(m) is nn.Recurrence and m.outputSize == (H,) and m.nInputDim == 1 and m.rho == 6
    assert m.module is m.recurrentModule and m.step == 1
    np.testing.assert_allclose(np.stack([m.forward(x) for x in XS]), _elman_reference(XS), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], np.ones((N, H)))
    assert np.abs(m.parameters()[1][2]).sum() > 0          # the feedback weight learns through time


def test_recurrence_of_a_table_state_and_a_bad_size(tmp_path):
    m = load(tmp_path, F.recurrence(_elman_step(), F.table(F.table(float(H)), F.table(2.0, 3.0)), 1))
    assert m.outputSize == [(H,), (2, 3)]
    with pytest.raises(T7Error, match="outputSize in the file"):
        load(tmp_path, F.recurrence(_elman_step(), F.table(-1.0), 1))


SEQ_W = [rng.uniform(-1, 1, (D + H, 4 * H)) for _ in range(2)]
SEQ_B = [rng.uniform(-1, 1, 4 * H) for _ in range(2)]


def _seq_lstm_reference(k, xs):
    cols = R.seq_to_torch_rows(H)
    return R.lstm(SEQ_W[k][:D, cols].T, SEQ_W[k][D:, cols].T, SEQ_B[k][cols], xs)


@pytest.mark.parametrize("batch_first", [False, True], ids=["time-first", "batch-first"])
@pytest.mark.parametrize("early", [False, True], ids=["2016-04-22", "2016-04-19"])
def test_seq_brnn(tmp_path, batch_first, early):
    fwd, bwd = (F.seq_lstm_raw(SEQ_W[k], SEQ_B[k], batch_first if early else None) for k in range(2))
    m = load(tmp_path, F.seq_brnn(fwd, bwd, batch_first, early=early))
    concat = m.module.modules[1 if batch_first and not early else 0]
    assert type(m) is nn.SeqBRNN and m.forwardModule is concat.modules[0]
    expected = _seq_lstm_reference(0, XS) + _seq_lstm_reference(1, XS[::-1])[::-1]
    x = XS.transpose(1, 0, 2).copy() if batch_first else XS
    y = m.forward(x)
    np.testing.assert_allclose(y.transpose(1, 0, 2) if batch_first else y, expected, rtol=1e-13, atol=1e-14)
    assert m.backward(x, np.ones_like(y)).shape == x.shape


# torch/rnn's SeqBGRU: two SeqGRUs; weight [D + H, 3H] = [[Wg^T, Wn^T], [Ug^T, Un^T]], bias [bg, bn]
SEQ_GRU_W = [(rng.uniform(-1, 1, (2 * H, D)), rng.uniform(-1, 1, 2 * H), rng.uniform(-1, 1, (2 * H, H)),
              rng.uniform(-1, 1, (H, D)), rng.uniform(-1, 1, H), rng.uniform(-1, 1, (H, H))) for _ in range(2)]


def _seq_gru_raw(k):
    Wg, bg, Ug, Wn, bn, Un = SEQ_GRU_W[k]
    weight = np.concatenate([np.concatenate([Wg.T, Wn.T], axis=1), np.concatenate([Ug.T, Un.T], axis=1)])
    return F.seq_gru(weight, np.concatenate([bg, bn]), flavour="tr")


def _seq_gru_reference(k, xs):
    return R.gru(xs, *SEQ_GRU_W[k], np.zeros(xs.shape[1:-1] + (H,)))


SEQ_BIDIRECTIONAL = {   # name -> (raw direction k, its numpy reference)
    "SeqBLSTM": (lambda k: F.seq_lstm(SEQ_W[k], SEQ_B[k], flavour="tr"), _seq_lstm_reference),
    "SeqBGRU": (_seq_gru_raw, _seq_gru_reference),
}


@pytest.mark.parametrize("merge", ["sum", "join"])
@pytest.mark.parametrize("used", [False, True], ids=["fresh", "used"])
@pytest.mark.parametrize("name", sorted(SEQ_BIDIRECTIONAL))
def test_torch_rnn_seq_bidirectional(tmp_path, name, used, merge):
    """torch/rnn's SeqBLSTM and SeqBGRU (BiSequencer's tree: the backward
    direction inside a ReverseUnreverse, the merge over whole sequences)."""
    raw, reference = SEQ_BIDIRECTIONAL[name]
    joined = F.obj("JoinTable", dimension=3.0) if merge == "join" else None
    m = load(tmp_path, F.seq_bidirectional(name, raw(0), raw(1), joined, used))
    assert type(m) is getattr(nn, name) and type(m.getBackward()) is type(m.getForward())
    fwd, bwd = reference(0, XS), reference(1, XS[::-1])[::-1]
    expected = np.concatenate([fwd, bwd], axis=2) if merge == "join" else fwd + bwd
    y = m.forward(XS)
    np.testing.assert_allclose(y, expected, rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    assert m.backward(XS, np.ones_like(y)).shape == XS.shape
    assert all(np.abs(g).sum() > 0 for g in m.parameters()[1])   # both directions learn


def _fast_lstm_reference(xs):
    rows = R.fast_to_torch_rows(H)
    return R.lstm(W[rows], U[rows], B[rows], xs)


# torch/rnn's nn.BiSequencer (merging whole sequences): case -> (forward, backward, merge, reference)
TORCH_RNN_BISEQUENCERS = {
    # cells in Sequencers, summed (the defaults)
    "cells": (lambda: F.fast_lstm(W, U, B, flavour="tr"), lambda: F.gru(*SEQ_GRU_W[1], flavour="tr"), None,
              lambda xs: _fast_lstm_reference(xs) + _seq_gru_reference(1, xs[::-1])[::-1]),
    # SeqLSTMs (isSeq: used as they are), side by side
    "seq-join": (lambda: F.seq_lstm(SEQ_W[0], SEQ_B[0], flavour="tr"),
                 lambda: F.seq_lstm(SEQ_W[1], SEQ_B[1], flavour="tr"), F.obj("JoinTable", dimension=3.0),
                 lambda xs: np.concatenate([_seq_lstm_reference(0, xs), _seq_lstm_reference(1, xs[::-1])[::-1]],
                                           axis=2)),
}


@pytest.mark.parametrize("used", [False, True], ids=["fresh", "used"])
@pytest.mark.parametrize("case", sorted(TORCH_RNN_BISEQUENCERS))
def test_torch_rnn_bisequencer(tmp_path, case, used):
    """torch/rnn's nn.BiSequencer: no fwdSeq, modules[1] its tree: loads as
    BiSequencer's torch/rnn form, runs the tree, trains, and is written back
    as it was read."""
    from nn_legacy._bases.rnn_t7 import walk
    from nn_legacy.serialization.t7 import read_t7
    fwd, bwd, merge, reference = TORCH_RNN_BISEQUENCERS[case]
    raw = F.bisequencer_whole(fwd(), bwd(), merge, used)
    m = load(tmp_path, raw)
    assert type(m) is nn.BiSequencer and m.package == "torch/rnn"
    assert type(m.getForward()) is (nn.Sequencer if case == "cells" else nn.SeqLSTM)
    y = m.forward(XS).copy()   # (the next forward reuses the output's memory)
    np.testing.assert_allclose(y, reference(XS), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    assert m.backward(XS, np.ones_like(y)).shape == XS.shape
    grads = m.parameters()[1]
    assert len(grads) == (3 + 6 if case == "cells" else 4) and all(np.abs(g).sum() > 0 for g in grads)
    m.updateParameters(0.1)
    assert not np.allclose(m.forward(XS), y)

    f = tmp_path / "again.t7"
    nn.save_lua(str(f), m)
    (tmp_path / "built.t7").write_bytes(t7_bytes(raw))
    names = [[o.class_name for o in walk(read_t7(str(p)))] for p in (f, tmp_path / "built.t7")]
    assert names[0] == names[1]
    np.testing.assert_array_equal(nn.load_lua(str(f)).forward(XS), m.forward(XS))
    with pytest.raises(TypeError, match="this nn.BiSequencer is torch/rnn's"):
        nn.save_lua(str(f), m, rnn="Element-Research/rnn")


def test_torch_rnn_bisequencer_transcription_is_torch_rnns_tree(tmp_path):
    """rnn_t7_files.bisequencer_whole builds the tree Lua's torch/rnn built
    (tests/data/t7/torch7_built/torch_rnn_BiSequencer_SeqGRU_double.t7,
    saved by torch.save; tests/test_torch7_built.py checks its values):
    the same classes in the same places, and each object the same fields."""
    import os
    from nn_legacy._bases.rnn_t7 import walk
    from nn_legacy.serialization.t7 import read_t7
    real = read_t7(os.path.join(os.path.dirname(__file__), "data", "t7", "torch7_built",
                                "torch_rnn_BiSequencer_SeqGRU_double.t7"))["model"]
    (tmp_path / "built.t7").write_bytes(t7_bytes(F.bisequencer_whole(_seq_gru_raw(0), _seq_gru_raw(1))))
    built = read_t7(str(tmp_path / "built.t7"))
    pairs = list(zip(walk(real), walk(built)))
    assert [a.class_name for a, _ in pairs] == [b.class_name for _, b in pairs] == [
        "nn.BiSequencer", "nn.Sequential", "nn.ConcatTable", "nn.SeqGRU", "nn.ReverseUnreverse", "nn.Sequential",
        "nn.ReverseSequence", "nn.SeqGRU", "nn.ReverseSequence", "nn.CAddTable"]
    for a, b in pairs:   # (the SeqGRUs' own fields are checked by test_seq_gru)
        if a.class_name != "nn.SeqGRU":
            assert set(a.fields) == set(b.fields), a.class_name


def test_torch_rnn_seq_bidirectional_written_as_torch_rnn_built_it(tmp_path):
    """save_lua writes the tree torch/rnn's constructor built, class by class."""
    from nn_legacy.serialization.t7 import read_t7
    from nn_legacy._bases.rnn_t7 import walk
    f = tmp_path / "b.t7"
    nn.save_lua(str(f), nn.SeqBLSTM(D, H))
    built = F.seq_bidirectional("SeqBLSTM", F.seq_lstm(SEQ_W[0], SEQ_B[0], flavour="tr"),
                                F.seq_lstm(SEQ_W[1], SEQ_B[1], flavour="tr"))
    (tmp_path / "built.t7").write_bytes(t7_bytes(built))
    names = [[m.class_name for m in walk(read_t7(str(path)))] for path in (f, tmp_path / "built.t7")]
    assert names[0] == names[1] == ["nn.SeqBLSTM", "nn.Sequential", "nn.ConcatTable", "nn.SeqLSTM",
                                    "nn.ReverseUnreverse", "nn.Sequential", "nn.ReverseSequence", "nn.SeqLSTM",
                                    "nn.ReverseSequence", "nn.CAddTable"]


def test_torch_rnn_seq_bidirectional_of_other_parts_is_refused(tmp_path):
    with pytest.raises(T7Error, match="SeqBLSTM: its backward module is a SeqGRU, a SeqLSTM expected"):
        load(tmp_path, F.seq_bidirectional("SeqBLSTM", F.seq_lstm(SEQ_W[0], SEQ_B[0], flavour="tr"), _seq_gru_raw(1)))
    with pytest.raises(T7Error, match="not torch/rnn's BiSequencer"):
        load(tmp_path, F.obj("SeqBGRU", modules=F.table(F.seq(_seq_gru_raw(0)))))
    bad = F.obj("ReverseUnreverse", modules=F.table(F.seq(F.obj("ReverseSequence"), _seq_gru_raw(0))))
    with pytest.raises(T7Error, match="ReverseUnreverse: the file's module is not"):
        load(tmp_path, bad)


def test_reverse_unreverse(tmp_path):
    m = load(tmp_path, F.reverse_unreverse(_seq_gru_raw(0), used=True))
    assert type(m) is nn.ReverseUnreverse and type(m.getModule()) is nn.SeqGRU
    np.testing.assert_allclose(m.forward(XS), _seq_gru_reference(0, XS[::-1])[::-1], rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", ["ReverseSequence", "ReverseTable", "SeqReverseSequence"])
def test_the_reversals(tmp_path, name):
    fields = {"dim": 1.0} if name == "SeqReverseSequence" else {}
    if name == "ReverseSequence":
        fields["_range"] = np.arange(T, 0, -1).astype(np.int64)
    m = load(tmp_path, F.obj(name, fields))
    np.testing.assert_array_equal(m.forward(XS), XS[::-1])
    if name != "SeqReverseSequence":
        steps = list(XS)
        assert all(a is b for a, b in zip(m.forward(steps), steps[::-1]))


def test_zero_grad(tmp_path):
    m = load(tmp_path, F.obj("ZeroGrad", output=np.ones(3), gradInput=F.table(np.ones(2))))
    assert type(m) is nn.ZeroGrad
    x = XS[0]
    assert m.forward(x) is x and np.all(m.backward(x, np.ones((N, D))) == 0)


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_mask_zero_of_either_package(tmp_path, flavour):
    """Element-Research's MaskZero(module, nInputDim); torch/rnn's (2017, v2)
    has no nInputDim and takes a batch, whatever follows its batch dim."""
    w = rng.uniform(-1, 1, (H, 2 * D))
    fields = {"nInputDim": 2.0} if flavour == "er" else {"v2": True, "maskinput": False, "maskoutput": True}
    m = load(tmp_path, F.obj("MaskZero", modules=F.table(F.seq(F.obj("View", size=np.array([2.0 * D]),
                                                                     numElements=2.0 * D, numInputDims=2.0),
                                                               F.linear_no_bias(w))), **fields))
    x = rng.uniform(-1, 1, (N, 2, D))
    x[1] = 0
    y = m.forward(x)
    np.testing.assert_allclose(y, np.where([[True], [False], [True]], x.reshape(N, -1) @ w.T, 0), rtol=1e-14)
    if flavour == "tr":
        f = F.obj("MaskZero", modules=F.table(F.linear_no_bias(w)), v2=True, maskinput=True)
        with pytest.raises(T7Error, match="maskinput"):
            load(tmp_path, f)


@pytest.mark.parametrize("flavour", ["er", "tr"])
def test_repeater_criterion(tmp_path, flavour):
    inner = F.criterion("MSECriterion")
    raw = F.sequencer_criterion(inner, True, flavour, steps=2)
    raw.class_name = "nn.RepeaterCriterion"
    if flavour == "er":
        del raw.fields["sizeAverage"]                     # Element-Research's always summed
    crit = load(tmp_path, raw)
    assert type(crit) is nn.RepeaterCriterion and crit.sizeAverage == (flavour == "tr")
    x, y = rng.uniform(-1, 1, (T, N, 2)), rng.uniform(-1, 1, (N, 2))
    expected = sum(((x[k] - y) ** 2).mean() for k in range(T)) / (T if flavour == "tr" else 1)
    assert crit.forward(x, y) == pytest.approx(expected, rel=1e-13)


# ---------------------------------------------------------------- torch/rnn's LinearRNN, LookupRNN
LIN_W, LIN_B = rng.uniform(-1, 1, (H, D + H)), rng.uniform(-1, 1, H)
NINDEX = 6
LOOKUP_E = np.vstack([np.zeros(H), rng.uniform(-1, 1, (NINDEX, H))])   # row 0: Lua's index 0, the padding
LOOKUP_W, LOOKUP_B = rng.uniform(-1, 1, (H, H)), rng.uniform(-1, 1, H)
IDX = rng.integers(-1, NINDEX, (T, N))


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


@pytest.mark.parametrize("used", [False, True], ids=["fresh", "used"])
def test_torch_rnn_linear_rnn(tmp_path, used):
    m = load(tmp_path, F.linear_rnn(LIN_W, LIN_B, used))
    assert type(m) is nn.LinearRNN and (m.inputsize, m.outputsize) == (D, H) and m.outputSize == (H,)
    y, expected = np.zeros((N, H)), []
    for x in XS:   # y_t = sigmoid(W [x_t, y_{t-1}] + b)
        y = _sigmoid(np.concatenate([x, y], axis=1) @ LIN_W.T + LIN_B)
        expected.append(y)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in XS]), np.stack(expected), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(XS[t], np.ones((N, H)))
    assert np.abs(m.parameters()[1][0][:, D:]).sum() > 0   # the recurrent columns learn through time


@pytest.mark.parametrize("used", [False, True], ids=["fresh", "used"])
def test_torch_rnn_lookup_rnn(tmp_path, used):
    m = load(tmp_path, F.lookup_rnn(LOOKUP_E, LOOKUP_W, LOOKUP_B, used))
    assert type(m) is nn.LookupRNN and (m.nindex, m.outputsize) == (NINDEX, H)
    y, expected = np.zeros((N, H)), []
    for idx in IDX:   # y_t = sigmoid(E[x_t] + W y_{t-1} + b), index -1 (Lua's 0) embedding zeros
        y = _sigmoid(LOOKUP_E[idx + 1] + y @ LOOKUP_W.T + LOOKUP_B)
        expected.append(y)
    np.testing.assert_allclose(np.stack([m.forward(i) for i in IDX]), np.stack(expected), rtol=1e-13, atol=1e-14)
    m.zeroGradParameters()
    for t in reversed(range(T)):
        m.backward(IDX[t], np.ones((N, H)))
    assert np.abs(m.parameters()[1][1]).sum() > 0   # the recurrent weight (the Linear's) learns through time


def test_recurrence_is_written_with_torch_rnn_s_type_tensor(tmp_path):
    """(torch/rnn's Recurrence reads typeTensor, which its constructor made, at its first step.)"""
    from nn_legacy.serialization.t7 import read_t7
    f = tmp_path / "r.t7"
    nn.save_lua(str(f), nn.LinearRNN(D, H).float())
    raw = read_t7(str(f)).fields
    assert raw["typeTensor"].dtype == np.float32 and raw["typeTensor"].size == 0
    assert raw["outputSize"] == {1.0: float(H)} and raw["nInputDim"] == 1.0
    assert "typeTensor" not in vars(nn.load_lua(str(f)))
