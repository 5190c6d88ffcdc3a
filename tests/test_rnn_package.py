"""The rest of the rnn package (issue 27 item 4): FastLSTM with recurrent
batch normalization, SequencerCriterion, MaskZeroCriterion,
LookupTableMaskZero.  Outputs against the numpy transcriptions of
tests/rnn_reference.py, backpropagation through time against central
differences (tests/rnn_checks.py), float64.  Their Torch7 files:
tests/test_rnn_package_t7.py."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_reference as R
from cuda_devices import DEVICES, device_named
from rnn_checks import TOL, _arrays, check_sequence, check_steps, numeric

D, H, N, T = 3, 4, 3, 5


def _xs(seed=0, n=N, t=T):
    """T steps of [n, D] (n = 0: [D], no batch dim)."""
    return np.random.default_rng(seed).uniform(-1, 1, (t, n, D) if n else (t, D))


# ---------------------------------------------------------------- FastLSTM, bn = true
def _bn_params(m):
    """The reference's parameter dict, read from a FastLSTM(bn=True)."""
    s = m.recurrentModule
    return {"W": s.i2g.weight, "b": s.i2g.bias, "U": s.o2g.weight, "bias": s.bias_module.bias,
            "gx": s.bn_wx.weight, "bx": s.bn_wx.bias, "gh": s.bn_wh.weight, "bh": s.bn_wh.bias,
            "gc": s.bn_c.weight, "bc": s.bn_c.bias}


def _bn_lstm(seed=0, affine=True, rho=9999, **kw):
    nn.manualSeed(seed)
    m = nn.FastLSTM(D, H, rho, affine=affine, bn=True, **kw)
    rng = np.random.default_rng(seed + 10)
    for p in m.parameters()[0]:            # away from the 0.1 / 0 start, so every term matters
        p[...] = rng.uniform(-1, 1, p.shape)
    return m


@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_fast_lstm_bn_matches_the_reference_and_its_running_averages(affine):
    m = _bn_lstm(affine=affine, eps=1e-3, momentum=0.3)
    s = m.recurrentModule
    assert (s.bn_wx.eps, s.bn_wx.momentum, s.bn_c.affine) == (1e-3, 0.3, affine)
    xs = _xs()
    running = {k: [np.zeros(n), np.ones(n)] for k, n in (("x", 4 * H), ("h", 4 * H), ("c", H))}
    expected = R.fast_lstm_bn(xs, _bn_params(m), running, eps=1e-3, momentum=0.3)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in xs]), expected, rtol=1e-12, atol=1e-13)
    # one set of running averages, updated at every step, shared by every clone
    for name, key in (("bn_wx", "x"), ("bn_wh", "h"), ("bn_c", "c")):
        bn = getattr(s, name)
        np.testing.assert_allclose(bn.running_mean, running[key][0], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(bn.running_var, running[key][1], rtol=1e-12, atol=1e-14)
        assert all(getattr(c, name).running_mean is bn.running_mean for c in m._clones.values())
    m.evaluate()
    xs2 = _xs(1)
    expected = R.fast_lstm_bn(xs2, _bn_params(m), running, eps=1e-3, train=False)
    # (in evaluation two step modules take turns: their outputs are reused)
    np.testing.assert_allclose(np.stack([m.forward(x).copy() for x in xs2]), expected, rtol=1e-12, atol=1e-13)


def test_fast_lstm_bn_starts_as_the_rnn_package_did():
    nn.manualSeed(0)
    s = nn.FastLSTM(D, H, bn=True).recurrentModule
    assert type(s) is nn.FastLSTMBNStep
    for bn in (s.bn_wx, s.bn_wh, s.bn_c):
        assert np.all(bn.weight == 0.1) and np.all(bn.bias == 0) and (bn.eps, bn.momentum) == (1e-5, 0.1)
    assert s.bias_module.bias.shape == (4 * H,) and s.o2g.bias is None


def test_the_class_switch_builds_batch_normalized_cells():
    try:
        nn.FastLSTM.bn = True
        assert type(nn.FastLSTM(D, H).recurrentModule) is nn.FastLSTMBNStep
    finally:
        nn.FastLSTM.bn = False
    assert type(nn.FastLSTM(D, H).recurrentModule) is nn.FastLSTMStep


BPTT_CASES = {   # name -> (builder, window)
    "full": (lambda: _bn_lstm(1), None),
    "plain": (lambda: _bn_lstm(2, affine=False), None),
    "truncated": (lambda: _bn_lstm(3, rho=2), 2),
}


@pytest.mark.parametrize("case", sorted(BPTT_CASES))
def test_fast_lstm_bn_bptt(case):
    build, window = BPTT_CASES[case]
    rng = np.random.default_rng(4)
    start = [rng.uniform(-1, 1, (N, H)), rng.uniform(-1, 1, (N, H))]
    assert check_steps(build(), list(_xs(5)), start, window=window) < TOL


def test_fast_lstm_bn_needs_a_batch_while_training():
    m = _bn_lstm()
    with pytest.raises(ValueError, match="BatchNormalization"):
        m.forward(np.ones((1, D)))


def test_fast_lstm_bn_in_a_sequencer_trains():
    """Sequencer(FastLSTM bn) with a SequencerCriterion: a few SGD steps lower the loss."""
    m = nn.Sequencer(_bn_lstm(6))
    crit = nn.SequencerCriterion(nn.MSECriterion())
    xs, ys = _xs(7), np.random.default_rng(8).uniform(-0.5, 0.5, (T, N, H))
    losses = []
    for _ in range(20):
        losses.append(crit.forward(m.forward(xs), ys))
        m.zeroGradParameters()
        m.backward(xs, crit.backward(m.output, ys))
        m.updateParameters(0.1)
    assert losses[-1] < 0.7 * losses[0]


# ---------------------------------------------------------------- RecLSTM, RecGRU
def _rec_lstm_reference(m, xs):
    """RecLSTM's output by tests/rnn_reference.py's LSTM (torch.nn.LSTM's
    formula), its weight columns i, f, o, z reordered to torch's rows."""
    w, b = m.recurrentModule.weight, m.recurrentModule.bias
    cols = R.seq_to_torch_rows(H)
    return R.lstm(w[:D, cols].T, w[D:, cols].T, b[cols], xs)


def _rec_gru_reference(m, xs):
    """RecGRU's output by tests/rnn_reference.py's GRU (the rnn package's
    GRU.lua), its [D + H, 3H] weight split into that module's matrices."""
    w, b = m.recurrentModule.weight, m.recurrentModule.bias
    Wg, Ug, Wn, Un = w[:D, :2 * H].T, w[D:, :2 * H].T, w[:D, 2 * H:].T, w[D:, 2 * H:].T
    return R.gru(xs, Wg, b[:2 * H], Ug, Wn, b[2 * H:], Un, np.zeros(xs.shape[1:-1] + (H,)))


# name -> (builder(rho), reference, kind of state)
REC = {
    "RecLSTM": (lambda rho: nn.RecLSTM(D, H, rho=rho), _rec_lstm_reference, "lstm"),
    "RecGRU": (lambda rho: nn.RecGRU(D, H, rho=rho), _rec_gru_reference, "gru"),
}


def _start(kind, n=N, seed=1):
    r = np.random.default_rng(seed)
    shape = (n, H) if n else (H,)
    return [r.uniform(-1, 1, shape), r.uniform(-1, 1, shape)] if kind == "lstm" else r.uniform(-1, 1, shape)


@pytest.mark.parametrize("name", sorted(REC))
def test_rec_cells_match_their_references(name):
    build, reference, _ = REC[name]
    nn.manualSeed(0)
    m = build(9999)
    xs = _xs(0)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in xs]), reference(m, xs), rtol=1e-12, atol=1e-13)
    m.forget()
    np.testing.assert_allclose(np.stack([m.forward(x) for x in xs[:, 0]]), reference(m, xs[:, :1])[:, 0],
                               rtol=1e-12, atol=1e-13)      # one sample without its batch dim


@pytest.mark.parametrize("window", [None, 2], ids=["full", "truncated"])
@pytest.mark.parametrize("name", sorted(REC))
def test_rec_cells_bptt(name, window):
    build, _, kind = REC[name]
    nn.manualSeed(1)
    assert check_steps(build(100 if window is None else window), list(_xs(2)), _start(kind), window=window) < TOL


@pytest.mark.parametrize("name", sorted(REC))
def test_rec_cells_masked_and_without_batch_dim(name):
    build, _, kind = REC[name]
    nn.manualSeed(2)
    xs = list(_xs(3))
    xs[1] = xs[1].copy()
    xs[1][0] = 0
    masked = [None] * T
    masked[1] = np.array([True] + [False] * (N - 1))
    m = build(100).maskZero(1)
    assert check_steps(m, xs, masked=masked) < TOL
    m.forget()
    assert np.all(np.stack([m.forward(x) for x in xs])[1, 0] == 0)
    assert check_steps(build(100), list(_xs(4, n=0)), _start(kind, n=0)) < TOL


def test_rec_lstm_refuses_a_projection():
    with pytest.raises(NotImplementedError, match="LSTMP"):
        nn.RecLSTM(D, H, 2)


# ---------------------------------------------------------------- Recurrence, SeqBRNN, ReverseSequence
def _elman():
    """y_t = tanh(W x_t + V y_{t-1} + b): the rnn package's Recurrence example."""
    return nn.Sequential().add(nn.ParallelTable().add(nn.Linear(D, H)).add(nn.LinearNoBias(H, H))) \
        .add(nn.CAddTable()).add(nn.Tanh())


def _table_step():
    """[x_t, [a, b]] -> [a', b']: a table state (outputSize [H, (2,)])."""
    a = nn.Sequential().add(nn.ConcatTable().add(nn.SelectTable(0)).add(
        nn.Sequential().add(nn.SelectTable(1)).add(nn.SelectTable(1)).add(nn.Linear(2, D)))) \
        .add(nn.CAddTable()).add(nn.Linear(D, H)).add(nn.Tanh())
    b = nn.Sequential().add(nn.SelectTable(1)).add(nn.SelectTable(0)).add(nn.Linear(H, 2)).add(nn.Sigmoid())
    return nn.ConcatTable().add(a).add(b)


RECURRENCES = {   # name -> (builder(rho), initial state maker)
    "elman": (lambda rho: nn.Recurrence(_elman(), H, 1, rho), lambda r: r.uniform(-1, 1, (N, H))),
    "table-state": (lambda rho: nn.Recurrence(_table_step(), [H, (2,)], 1, rho),
                    lambda r: [r.uniform(-1, 1, (N, H)), r.uniform(-1, 1, (N, 2))]),
}


@pytest.mark.parametrize("window", [None, 2], ids=["full", "truncated"])
@pytest.mark.parametrize("name", sorted(RECURRENCES))
def test_recurrence_bptt(name, window):
    build, start = RECURRENCES[name]
    nn.manualSeed(3)
    m = build(100 if window is None else window)
    assert check_steps(m, list(_xs(5)), start(np.random.default_rng(6)), window=window) < TOL


def test_recurrence_computes_its_recurrence():
    nn.manualSeed(4)
    m = nn.Recurrence(_elman(), H, 1)
    lin, rec = m.module.modules[0].modules
    xs = _xs(7)
    y, expected = np.zeros((N, H)), []
    for x in xs:
        y = np.tanh(x @ lin.weight.T + lin.bias + y @ rec.weight.T)
        expected.append(y)
    np.testing.assert_allclose(np.stack([m.forward(x) for x in xs]), np.stack(expected), rtol=1e-13, atol=1e-14)
    m.forget()
    assert m.forward(xs[0, 0]).shape == (H,)          # one sample: y_0 is [H]
    with pytest.raises(ValueError, match="nInputDim=1 dims"):
        m.forget().forward(np.zeros((2, 2, D)))
    m = nn.Recurrence(_table_step(), [H, (2,)], 1)
    out = m.forward(xs[0])
    assert [o.shape for o in out] == [(N, H), (N, 2)]


def test_seq_brnn_and_its_bptt():
    nn.manualSeed(5)
    m = nn.SeqBRNN(D, H)
    x = _xs(8)
    fwd = m.forwardModule.forward(x).copy()
    bwd = m.backwardModule.forward(x[::-1].copy())[::-1]
    np.testing.assert_allclose(m.forward(x), fwd + bwd, rtol=1e-13, atol=1e-14)
    assert [p.shape for p in m.parameters()[0]] == [(D + H, 4 * H), (4 * H,)] * 2
    assert check_sequence(m, x) < TOL
    nn.manualSeed(5)
    first = nn.SeqBRNN(D, H, batchFirst=True)
    np.testing.assert_allclose(first.forward(x.transpose(1, 0, 2).copy()), m.forward(x).transpose(1, 0, 2),
                               rtol=1e-13, atol=1e-14)
    joined = nn.SeqBRNN(D, H, merge=nn.JoinTable(2))
    assert joined.forward(x).shape == (T, N, 2 * H)


@pytest.mark.parametrize("cls", ["ReverseSequence", "ReverseTable"])
def test_reverse_sequence(cls, monkeypatch):
    def no_flip(*args, **kwargs):
        raise AssertionError("a host array is reversed by a view, not np.flip")
    monkeypatch.setattr(np, "flip", no_flip)
    m = getattr(nn, cls)()
    x = _xs(9)
    np.testing.assert_array_equal(m.forward(x), x[::-1])
    g = np.random.default_rng(0).uniform(-1, 1, x.shape)
    np.testing.assert_array_equal(m.backward(x, g), g[::-1])
    steps = list(x)
    out = m.forward(steps)
    assert all(a is b for a, b in zip(out, steps[::-1]))
    gs = list(g)
    assert all(a is b for a, b in zip(m.backward(steps, gs), gs[::-1]))
    with pytest.raises(ValueError, match="laid out as the input"):
        m.backward(steps, gs[:2])


# ---------------------------------------------------------------- SequencerCriterion
def _classes(rng, *shape):
    return rng.integers(0, 4, shape)


# name -> (inner criterion, input maker, target maker)
STEP_CRITERIA = {
    "MSE": (nn.MSECriterion, lambda r: r.uniform(-1, 1, (T, N, 4)), lambda r: r.uniform(-1, 1, (T, N, 4))),
    "ClassNLL": (nn.ClassNLLCriterion, lambda r: r.uniform(-2, 0, (T, N, 4)), lambda r: _classes(r, T, N)),
    "CrossEntropy": (nn.CrossEntropyCriterion, lambda r: r.uniform(-2, 2, (T, N, 4)), lambda r: _classes(r, T, N)),
    "MaskZero": (lambda: nn.MaskZeroCriterion(nn.ClassNLLCriterion(), 1),
                 lambda r: r.uniform(-2, 0, (T, N, 4)), lambda r: _classes(r, T, N)),
}


@pytest.mark.parametrize("layout", ["array", "table"])
@pytest.mark.parametrize("size_average", [False, True], ids=["sum", "mean"])
@pytest.mark.parametrize("inner", sorted(STEP_CRITERIA))
def test_sequencer_criterion(inner, size_average, layout):
    make, make_input, make_target = STEP_CRITERIA[inner]
    rng = np.random.default_rng(0)
    x, y = make_input(rng), make_target(rng)
    crit = nn.SequencerCriterion(make(), size_average)
    ref = make()
    expected = sum(ref.forward(x[t], y[t]) for t in range(T)) / (T if size_average else 1)
    inp, tgt = (x, y) if layout == "array" else (list(x), list(y))
    assert crit.forward(inp, tgt) == pytest.approx(expected, rel=1e-13)
    g = crit.backward(inp, tgt)
    assert isinstance(g, np.ndarray if layout == "array" else list) and len(g) == T
    if layout == "table":
        assert len({id(a) for a in g}) == T              # each step its own array
    num = numeric(lambda: nn.SequencerCriterion(make(), size_average).forward(x, y), x)
    assert np.max(np.abs(np.stack(g) - num)) < TOL


@pytest.mark.parametrize("layout", ["array", "table"])
@pytest.mark.parametrize("size_average", [False, True], ids=["sum", "mean"])
def test_repeater_criterion(size_average, layout):
    rng = np.random.default_rng(3)
    x, y = rng.uniform(-2, 0, (T, N, 4)), rng.integers(0, 4, N)
    crit = nn.RepeaterCriterion(nn.ClassNLLCriterion(), size_average)
    expected = sum(nn.ClassNLLCriterion().forward(x[t], y) for t in range(T)) / (T if size_average else 1)
    inp = x if layout == "array" else list(x)
    assert crit.forward(inp, y) == pytest.approx(expected, rel=1e-13)
    g = crit.backward(inp, y)
    num = numeric(lambda: nn.RepeaterCriterion(nn.ClassNLLCriterion(), size_average).forward(x, y), x)
    assert np.max(np.abs(np.stack(g) - num)) < TOL


def test_sequencer_criterion_refuses_mismatches():
    crit = nn.SequencerCriterion(nn.MSECriterion())
    with pytest.raises(ValueError, match="as many steps as the input"):
        crit.forward(np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(TypeError, match="table"):
        crit.forward([np.zeros(2)], np.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"SequencerCriterion \(step 1\)"):
        crit.forward([np.zeros(2), np.zeros(3)], [np.zeros(2), np.zeros(2)])
    with pytest.raises(TypeError, match="ModuleCriterion"):
        nn.SequencerCriterion(nn.ModuleCriterion(nn.MSECriterion()))


def test_sequencer_criterion_hands_each_step_its_mask():
    crit = nn.SequencerCriterion(nn.MaskZeroCriterion(nn.MSECriterion()))
    rng = np.random.default_rng(1)
    x, y = rng.uniform(-1, 1, (T, N, 2)), rng.uniform(-1, 1, (T, N, 2))
    mask = np.zeros((T, N), bool)
    mask[1, 0] = mask[3, 2] = True
    crit.setZeroMask(mask)
    expected = sum(nn.MSECriterion().forward(x[t][~mask[t]], y[t][~mask[t]]) for t in range(T))
    assert crit.forward(x, y) == pytest.approx(expected, rel=1e-13)
    assert np.all(crit.backward(x, y)[mask] == 0)
    crit.setZeroMask(False)
    assert crit.forward(x, y) == pytest.approx(sum(nn.MSECriterion().forward(x[t], y[t]) for t in range(T)))


# ---------------------------------------------------------------- MaskZeroCriterion
def _padded(rng, shape, rows):
    x = rng.uniform(-2, 0, shape)
    x[list(rows)] = 0
    return x


# name -> (inner criterion, nInputDim, input maker (rows 1 and 3 padded), target maker)
MASKED = {
    "ClassNLL": (nn.ClassNLLCriterion, 1, lambda r: _padded(r, (5, 4), (1, 3)), lambda r: _classes(r, 5)),
    "MSE-3D": (nn.MSECriterion, 2, lambda r: _padded(r, (5, 2, 3), (1, 3)), lambda r: r.uniform(-1, 1, (5, 2, 3))),
    "table": (lambda: nn.ParallelCriterion().add(nn.MSECriterion()).add(nn.AbsCriterion(), 0.5), 1,
              lambda r: [_padded(r, (5, 3), (1, 3)), r.uniform(-1, 1, (5, 2))],
              lambda r: [r.uniform(-1, 1, (5, 3)), r.uniform(-1, 1, (5, 2))]),
    "any-dims": (nn.MSECriterion, None, lambda r: _padded(r, (5, 2, 3), (1, 3)), lambda r: r.uniform(-1, 1, (5, 2, 3))),
}


def _rows(value, kept):
    return [_rows(v, kept) for v in value] if isinstance(value, list) else value[kept]


@pytest.mark.parametrize("case", sorted(MASKED))
def test_mask_zero_criterion(case):
    make, n, make_input, make_target = MASKED[case]
    rng = np.random.default_rng(2)
    x, y = make_input(rng), make_target(rng)
    kept = np.array([True, False, True, False, True])
    crit = nn.MaskZeroCriterion(make(), n)
    assert crit.forward(x, y) == pytest.approx(make().forward(_rows(x, kept), _rows(y, kept)), rel=1e-13)
    g = crit.backward(x, y)
    for ga in _arrays(g):
        assert np.all(ga[~kept] == 0)
    # the kept rows against central differences (a padded row is no point of differentiability)
    for ga, xa in zip(_arrays(g), _arrays(x)):
        skip = np.broadcast_to(~kept.reshape((-1,) + (1,) * (xa.ndim - 1)), xa.shape)
        assert np.max(np.abs(ga - numeric(lambda: crit.forward(x, y), xa, skip))) < TOL


def test_mask_zero_criterion_every_sample_masked_and_its_errors():
    crit = nn.MaskZeroCriterion(nn.ClassNLLCriterion(), 1)
    x = np.zeros((3, 4))
    assert crit.forward(x, np.array([0, 1, 2])) == 0.0
    assert np.all(crit.backward(x, np.array([0, 1, 2])) == 0)
    with pytest.raises(ValueError, match="one sample without its batch dim"):
        crit.forward(np.zeros(4), 0)
    crit.setZeroMask(np.array([False, True, False]))
    x = np.log(np.full((3, 4), 0.25))
    assert crit.forward(x, np.array([0, 1, 2])) == pytest.approx(np.log(4))
    with pytest.raises(ValueError, match="zeroMask has 3 entries, the batch 2"):
        crit.forward(x[:2], np.array([0, 1]))


# ---------------------------------------------------------------- LookupTableMaskZero
def test_lookup_table_mask_zero():
    nn.manualSeed(0)
    m = nn.LookupTableMaskZero(5, 3)
    assert m.weight.shape == (6, 3)
    m.weight[0] = 7                       # whatever is there, forward zeroes it
    x = np.array([[0, -1, 4, 4], [-1, -1, 2, 0]])
    y = m.forward(x)
    np.testing.assert_array_equal(y, np.where((x == -1)[..., None], 0, m.weight[x + 1]))
    assert np.all(m.weight[0] == 0)
    g = np.random.default_rng(0).uniform(-1, 1, y.shape)
    m.zeroGradParameters()
    m.backward(x, g)
    expected = np.zeros_like(m.weight)
    np.add.at(expected, x + 1, g)
    expected[0] = 0                       # no gradient into the padding row
    np.testing.assert_allclose(m.gradWeight, expected, rtol=1e-14)
    with pytest.raises(ValueError, match="-1 \\(padding\\) or in \\[0, 5\\)"):
        m.forward(np.array([-2]))
    with pytest.raises(ValueError, match="got 5"):
        m.forward(np.array([5]))


def test_lookup_table_mask_zero_feeds_masked_cells():
    """The rnn package's padded language model: LookupTableMaskZero, a
    Sequencer of a masked FastLSTM, MaskZeroCriterion per step."""
    nn.manualSeed(1)
    model = nn.Sequential().add(nn.LookupTableMaskZero(6, D)).add(nn.SplitTable(1)) \
        .add(nn.Sequencer(nn.FastLSTM(D, H).maskZero(1))) \
        .add(nn.Sequencer(nn.MaskZero(nn.Sequential().add(nn.Linear(H, 6)).add(nn.LogSoftMax()), 1)))
    crit = nn.SequencerCriterion(nn.MaskZeroCriterion(nn.ClassNLLCriterion(), 1))
    tokens = np.array([[-1, -1, 2, 3], [1, 4, 0, 5]])          # sample 0 is left-padded
    targets = [np.array([0, 1]), np.array([0, 2]), np.array([1, 3]), np.array([2, 4])]
    out = model.forward(tokens)
    assert np.all(out[0][0] == 0) and np.all(out[1][0] == 0) and np.any(out[2][0] != 0)
    loss = crit.forward(out, targets)
    # each step's ClassNLL averages over its kept samples
    expected = -out[0][1, 1] - out[1][1, 2] - (out[2][0, 1] + out[2][1, 3]) / 2 - (out[3][0, 2] + out[3][1, 4]) / 2
    assert loss == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- on a CUDA device
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.slow     # the emulator's batch-normalization kernels take ~0.1 s a call
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_fast_lstm_bn_trains_on_a_device(device, dtype):
    """BPTT over a sequence on the device against the host, training mode.
    (i2g's bias gradient is zero up to rounding while training: every
    gradient is compared within the tolerance of the largest one.)"""
    dev = device_named(device)
    host = _bn_lstm(9).type(dtype)
    on_device = host.clone().cuda(dev)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    rng = np.random.default_rng(3)
    xs, gs = rng.uniform(-1, 1, (3, N, D)).astype(dtype), rng.uniform(-1, 1, (3, N, H)).astype(dtype)
    for x in xs:
        np.testing.assert_allclose(on_device.forward(dev.to_device(x)).numpy(), host.forward(x), rtol=tol, atol=tol)
    host.zeroGradParameters()
    on_device.zeroGradParameters()
    for t in reversed(range(3)):
        np.testing.assert_allclose(on_device.backward(dev.to_device(xs[t]), dev.to_device(gs[t])).numpy(),
                                   host.backward(xs[t], gs[t]), rtol=tol, atol=tol)
    grads = host.parameters()[1]
    scale = max(float(np.abs(g).max()) for g in grads)
    for g_d, g in zip(on_device.parameters()[1], grads):
        np.testing.assert_allclose(g_d.numpy(), g, rtol=tol, atol=tol * scale)
    for name in ("bn_wx", "bn_wh", "bn_c"):
        np.testing.assert_allclose(getattr(on_device.recurrentModule, name).running_var.numpy(),
                                   getattr(host.recurrentModule, name).running_var, rtol=tol)
