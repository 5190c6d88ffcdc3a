"""Backpropagation through time against central differences, for every
recurrent module: w.r.t. the inputs, the initial state and every
parameter; rho longer and shorter than the sequence (truncated BPTT),
padded samples (maskZero), no batch dim, and remember() across calls.
The harness is tests/rnn_checks.py."""
import numpy as np
import pytest

import nn_legacy as nn
from rnn_checks import TOL, check_remembered, check_sequence, check_steps

D, H, N, T = 3, 4, 2, 5


def _xs(seed=0, n=N, t=T, d=D):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, (n, d) if n else (d,)) for _ in range(t)]


def _state(kind, seed=1, n=N):
    """An initial state of the cell kind: [h0, c0] for the LSTMs, h0 for GRU."""
    rng = np.random.default_rng(seed)
    shape = (n, H) if n else (H,)
    if kind == "lstm":
        return [rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)]
    return rng.uniform(-1, 1, shape)


# name -> (builder(rho), kind of state: "lstm", "gru" or None when it has none to set)
STEPPED = {
    "FastLSTM": (lambda rho: nn.FastLSTM(D, H, rho), "lstm"),
    "LSTM": (lambda rho: nn.LSTM(D, H, rho), "lstm"),
    "LSTM-no-peepholes": (lambda rho: nn.LSTM(D, H, rho, cell2gate=False), "lstm"),
    "GRU": (lambda rho: nn.GRU(D, H, rho), "gru"),
    "Recurrent": (lambda rho: nn.Recurrent(H, nn.Linear(D, H), nn.Linear(H, H), nn.Tanh(), rho), None),
    "Recursor": (lambda rho: nn.Recursor(nn.Sequential().add(nn.Linear(D, H)).add(nn.Tanh()), rho), None),
    "Recursor-nested": (lambda rho: nn.Recursor(nn.Sequential().add(nn.Linear(D, D)).add(nn.FastLSTM(D, H))
                                                .add(nn.Linear(H, H)), rho), None),
}


@pytest.mark.parametrize("name", sorted(STEPPED))
def test_full_sequence_rho_longer_than_it(name):
    build, kind = STEPPED[name]
    nn.manualSeed(0)
    m = build(100)
    assert check_steps(m, _xs(), None if kind is None else _state(kind)) < TOL


# (Recursor-nested: the state before the window is its inner FastLSTM's, which
# the harness cannot set from outside; its BPTT is checked in full above)
@pytest.mark.parametrize("name", sorted(set(STEPPED) - {"Recursor-nested"}))
def test_truncated_rho_shorter_than_the_sequence(name):
    """rho = 2 < T: backward over the last 2 steps, the state before them a constant."""
    build, _ = STEPPED[name]
    nn.manualSeed(1)
    m = build(2)
    xs = _xs(2)
    assert check_steps(m, xs, window=2) < TOL
    m.forget()
    ys = [m.forward(x) for x in xs]
    for t in (4, 3):
        m.backward(xs[t], np.ones_like(ys[t]))
    with pytest.raises(RuntimeError, match="more than rho=2 steps"):
        m.backward(xs[2], np.ones_like(ys[2]))           # a third step back


@pytest.mark.parametrize("name", ["FastLSTM", "LSTM", "GRU"])
def test_one_sample_without_batch_dim(name):
    build, kind = STEPPED[name]
    nn.manualSeed(2)
    assert check_steps(build(100), _xs(3, n=0), _state(kind, n=0)) < TOL


@pytest.mark.parametrize("name", ["FastLSTM", "LSTM", "LSTM-no-peepholes", "GRU", "Recursor", "Recursor-nested"])
def test_masked_padding(name):
    """maskZero(1): sample 0 is padded at steps 0-1, sample 1 at step 3."""
    build, _ = STEPPED[name]
    nn.manualSeed(3)
    m = build(100).maskZero(1)
    xs = _xs(4)
    mask = [np.array([t < 2, t == 3]) for t in range(T)]
    for x, pad in zip(xs, mask):
        x[pad] = 0
    ys = [m.forward(x).copy() for x in xs]
    for y, pad in zip(ys, mask):
        assert np.all(y[pad] == 0)
    assert check_steps(m, xs, masked=mask) < TOL


def test_masked_sample_starts_afresh_after_its_padding():
    nn.manualSeed(4)
    m = nn.FastLSTM(D, H).maskZero(1)
    xs = _xs(5)
    xs[1][0] = 0
    ys = [m.forward(x).copy() for x in xs]
    alone = m.clone().forget()
    tail = [alone.forward(x[:1]).copy() for x in xs[2:]]
    np.testing.assert_allclose(np.stack(ys[2:])[:, :1], np.stack(tail), rtol=1e-14, atol=1e-15)


# ---- whole sequences per forward ----
def _seq(seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (T, N, D))


SEQUENCES = {
    "Sequencer-FastLSTM": (lambda: nn.Sequencer(nn.FastLSTM(D, H)), _seq),
    "Sequencer-table": (lambda: nn.Sequencer(nn.GRU(D, H)), lambda: list(_seq())),
    "Sequencer-network": (lambda: nn.Sequencer(nn.Sequential().add(nn.LSTM(D, H)).add(nn.Linear(H, 2))
                                               .add(nn.LogSoftMax())), _seq),
    "SeqLSTM": (lambda: nn.SeqLSTM(D, H), _seq),
    "SeqLSTM-states": (lambda: nn.SeqLSTM(D, H), lambda: [_state("lstm")[1], _state("lstm")[0], _seq()]),
    "SeqLSTM-batchfirst": (lambda: _set(nn.SeqLSTM(D, H), batchfirst=True),
                           lambda: np.ascontiguousarray(_seq().transpose(1, 0, 2))),
    "SeqGRU": (lambda: nn.SeqGRU(D, H), _seq),
    "SeqGRU-state": (lambda: nn.SeqGRU(D, H), lambda: [_state("gru"), _seq()]),
    "BiSequencer": (lambda: nn.BiSequencer(nn.FastLSTM(D, H), nn.GRU(D, 2)), _seq),
    "BiSequencer-add": (lambda: nn.BiSequencer(nn.LSTM(D, H), merge=nn.CAddTable()), lambda: list(_seq())),
    "BiSequencerLM": (lambda: nn.BiSequencerLM(nn.FastLSTM(D, H), nn.GRU(D, H)), _seq),
    "Repeater": (lambda: nn.Repeater(nn.FastLSTM(D, H), 3), lambda: _seq()[0]),
    "SeqReverseSequence": (lambda: nn.SeqReverseSequence(1), _seq),
}


def _set(m, **attrs):
    for k, v in attrs.items():
        setattr(m, k, v)
    return m


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_whole_sequence(name):
    build, make = SEQUENCES[name]
    nn.manualSeed(5)
    assert check_sequence(build(), make()) < TOL


@pytest.mark.parametrize("name", ["SeqLSTM", "SeqGRU"])
def test_whole_sequence_masked(name):
    nn.manualSeed(6)
    m = getattr(nn, name)(D, H).maskZero()
    x = _seq(7)
    x[:2, 0] = 0
    x[3, 1] = 0
    y = m.forward(x)
    assert np.all(y[:2, 0] == 0) and np.all(y[3, 1] == 0)
    skip = {0: np.all(x == 0, axis=2)[:, :, None]}
    assert check_sequence(m, x, skip=skip) < TOL


def _fresh_sequencer(cell, state):
    m = nn.Sequencer(cell.clone("weight", "bias", "gradWeight", "gradBias"))
    m.module.setStartState(state)
    return m


@pytest.mark.parametrize("cell", ["FastLSTM", "GRU", "LSTM"])
def test_remember_across_calls(cell):
    """The second call continues from the first's last state; its gradient
    treats that state as a constant (no gradient into the first call)."""
    nn.manualSeed(8)
    m = nn.Sequencer(getattr(nn, cell)(D, H)).remember()
    assert check_remembered(m, _seq(9), _seq(10)[:3], lambda m: m.module.getHiddenState(),
                            lambda s: _fresh_sequencer(m.module, s)) < TOL


class _Prefixed:
    """A whole-sequence module fed [states..., x]: remembered states as inputs."""

    def __init__(self, ref, states):
        self.ref, self.states = ref, states

    def forward(self, x):
        return self.ref.forward(self.states + [x])

    def parameters(self):
        return self.ref.parameters()


@pytest.mark.parametrize("name", ["SeqLSTM", "SeqGRU"])
def test_whole_sequence_modules_remember_across_calls(name):
    nn.manualSeed(11)
    m = getattr(nn, name)(D, H).remember()
    assert check_remembered(m, _seq(12), _seq(13)[:3], lambda m: list(m._last),
                            lambda s: _Prefixed(m.clone("weight", "bias", "gradWeight", "gradBias").forget(),
                                                s)) < TOL
