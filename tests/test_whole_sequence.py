"""Sequencer's evaluation-mode fast path (nn_legacy/_bases/whole_sequence.py):
a FastLSTM, RecLSTM, GRU or RecGRU (alone, or first in a Recursor's
Sequential) over the whole sequence in one SeqLSTM / SeqGRU kernel call,
against the stepwise path it replaces."""
import sys

import numpy as np
import pytest

import nn_legacy as nn
from cuda_devices import DEVICES, device_named
from layer_checks import uniform
from rnn_checks import check_sequence

D, H, N = 3, 4, 2
CELLS = ("FastLSTM", "RecLSTM", "GRU", "RecGRU")
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
SEQUENCER = sys.modules["nn_legacy.Sequencer"]
TOL = 1e-5   # float64 Jacobians


def _tol(dtype):
    return 1e-5 if np.dtype(dtype) == np.float32 else 1e-12


def _cell(name):
    return getattr(nn, name)(D, H)


def _evaluated(m):
    m.evaluate()
    return m


def _model(cell, wrap, dtype=np.float64, seed=0):
    """Sequencer(cell), or Sequencer(Sequential(cell, Linear, Tanh)) (a Recursor then: its Linear and Tanh
    run on every step's rows at once), or with wrap "steps" Sequential(cell, Linear, MulConstant) (run
    per step after the cell)."""
    nn.manualSeed(seed)
    inner = _cell(cell) if not wrap else nn.Sequential().add(_cell(cell)).add(nn.Linear(H, 2))
    if wrap:
        inner.add(nn.MulConstant(0.5) if wrap == "steps" else nn.Tanh())
    m = nn.Sequencer(inner)
    return m.float() if dtype == np.float32 else m


class _Count:
    """Counts the fast path's calls that returned outputs; ``off`` makes it
    return None (the stepwise path)."""

    def __init__(self, monkeypatch):
        self.taken, self.off = 0, False
        real = SEQUENCER.whole_sequence

        def spy(sequencer, input, steps, plan):
            if self.off:
                return None
            outs = real(sequencer, input, steps, plan)
            self.taken += outs is not None
            return outs
        monkeypatch.setattr(SEQUENCER, "whole_sequence", spy)


def _both(model, run, count):
    """run(model) on the fast path, then on the stepwise one (from a deep copy of model as it was)."""
    ref = model.clone()
    before = count.taken
    fast = _copy(run(model))
    assert count.taken > before, "the fast path was not taken"
    count.off = True
    try:
        slow = _copy(run(ref))
    finally:
        count.off = False
    return fast, slow, ref


def _copy(value):
    return [_copy(v) for v in value] if isinstance(value, list) else np.array(value, copy=True)


def _close(a, b, dtype):
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for u, v in zip(a, b):
            _close(u, v, dtype)
        return
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_allclose(a, b, rtol=_tol(dtype), atol=_tol(dtype))


@DTYPES
@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("wrap", [False, True, "steps"], ids=["cell", "recursor", "recursor_steps"])
@pytest.mark.parametrize("form", ["array", "table", "single", "single_table", "noncontiguous"])
@pytest.mark.parametrize("T", [1, 2, 5])
def test_matches_the_stepwise_path(monkeypatch, dtype, cell, wrap, form, T):
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, wrap, dtype))
    x = uniform((T, N, D), 3).astype(dtype)
    if form == "table":
        x = list(x)
    elif form == "single":
        x = np.ascontiguousarray(x[:, 0])
    elif form == "single_table":
        x = list(x[:, 0])
    elif form == "noncontiguous":
        x = uniform((N, T, 2 * D), 3).astype(dtype).transpose(1, 0, 2)[:, :, ::2]
        assert not x.flags.c_contiguous
    fast, slow, ref = _both(m, lambda mod: mod.forward(x), count)
    assert isinstance(fast, list) == isinstance(x, list)
    _close(fast, slow, dtype)
    # the recurrent modules' records: as the stepwise path leaves them
    for a, b in zip(m.listModules(), ref.listModules()):
        if isinstance(a, nn.AbstractRecurrent):
            assert a.step == b.step == T + 1
            for t in range(max(T - 1, 1), T + 1):
                if b._states.get(t) is not None:
                    _close(_copy(a.getHiddenState(t)), _copy(b.getHiddenState(t)), dtype)
            _close(_copy(a.output), _copy(b.output), dtype)
            if isinstance(getattr(b, "cell", None), np.ndarray):   # (LSTM's last c)
                _close(a.cell, b.cell, dtype)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("wrap", [False, True], ids=["cell", "recursor"])
@pytest.mark.parametrize("mode", ["eval", "neither"])
def test_remember_continues_from_the_carried_state(monkeypatch, cell, wrap, mode):
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, wrap).remember(mode))
    x = uniform((6, N, D), 4)

    def run(mod):
        return [mod.forward(x[:2]).copy(), mod.forward(x[2:5]).copy(), mod.forward(x[5:]).copy()]
    fast, slow, _ = _both(m, run, count)
    _close(fast, slow, np.float64)
    whole = _evaluated(_model(cell, wrap)).forward(x)
    if mode == "eval":   # the three calls are one sequence
        _close(np.concatenate(fast), whole, np.float64)
    else:
        assert not np.allclose(fast[1], whole[2:5])


@pytest.mark.parametrize("cell", CELLS)
def test_mixed_with_the_stepwise_path(monkeypatch, cell):
    """A fast call, then a stepwise one, then a fast one: each continues
    from the state the other left (remember)."""
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, True).remember("eval"))
    x = uniform((7, N, D), 5)
    first = m.forward(x[:3]).copy()
    count.off = True
    second = m.forward(x[3:5]).copy()
    count.off = False
    third = m.forward(x[5:]).copy()
    assert count.taken == 2
    whole = _evaluated(_model(cell, True)).forward(x)
    _close(np.concatenate([first, second, third]), whole, np.float64)


@pytest.mark.parametrize("cell", CELLS)
def test_user_initial_states(monkeypatch, cell):
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, False))
    lstm = "LSTM" in cell
    h0, c0 = uniform((N, H), 6), uniform((N, H), 7)
    m.module.setStartState([h0, c0] if lstm else h0)
    x = uniform((4, N, D), 8)
    fast, slow, _ = _both(m, lambda mod: mod.forward(x), count)
    _close(fast, slow, np.float64)
    assert not np.allclose(fast, _evaluated(_model(cell, False)).forward(x))
    if cell in ("FastLSTM", "GRU"):   # the rnn package's userPrevOutput (and userPrevCell)
        m = _evaluated(_model(cell, False))
        m.module.userPrevOutput = h0
        if lstm:
            m.module.userPrevCell = c0
        fast, slow, _ = _both(m, lambda mod: mod.forward(x), count)
        _close(fast, slow, np.float64)
    # a start state of another batch: the stepwise path says what is wrong
    m = _evaluated(_model(cell, False))
    m.module.setStartState([h0[:1], c0[:1]] if lstm else h0[:1])
    count.off = True
    with pytest.raises(ValueError) as stepwise:
        m.clone().forward(x)
    count.off = False
    with pytest.raises(ValueError) as fast_error:
        m.forward(x)
    assert str(fast_error.value) == str(stepwise.value)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("wrap", [False, True], ids=["cell", "recursor"])
def test_backward_after_an_evaluation_forward(monkeypatch, cell, wrap):
    """evaluate() -> forward (fast) -> training() -> forward -> backward is
    exactly what a module that never left training computes, and its
    gradients are the numeric ones."""
    count = _Count(monkeypatch)
    x, g = uniform((4, N, D), 9), uniform((4, N, 2 if wrap else H), 10)
    m, ref = _model(cell, wrap), _model(cell, wrap)
    m.evaluate()
    m.forward(x)
    assert count.taken == 1
    m.training()
    np.testing.assert_array_equal(m.forward(x), ref.forward(x))
    m.zeroGradParameters()
    ref.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g), ref.backward(x, g))
    for a, b in zip(m.parameters()[1], ref.parameters()[1]):
        np.testing.assert_array_equal(a, b)
    m.evaluate()
    m.forward(x)
    m.training()
    assert check_sequence(m, x) < TOL
    assert count.taken == 2   # (training forwards step)


def test_evaluation_refuses_backward_as_before(monkeypatch):
    count = _Count(monkeypatch)
    m = _evaluated(_model("FastLSTM", False))
    x = uniform((3, N, D), 11)
    m.forward(x)
    assert count.taken == 1
    with pytest.raises(RuntimeError, match="backward needs training mode"):
        m.backward(x, uniform((3, N, H), 12))


@pytest.mark.parametrize("package", ["Element-Research/rnn", "torch/rnn"])
@pytest.mark.parametrize("cell", CELLS)
def test_bisequencer(monkeypatch, package, cell):
    count = _Count(monkeypatch)
    nn.manualSeed(1)
    m = _evaluated(nn.BiSequencer(_cell(cell), package=package))
    x = uniform((5, N, D), 13)
    fast, slow, _ = _both(m, lambda mod: mod.forward(x if package == "torch/rnn" else list(x)), count)
    _close(fast, slow, np.float64)


@pytest.mark.parametrize("make", [lambda: nn.LSTM(D, H), lambda: nn.FastLSTM(D, H, bn=True),
                                  lambda: nn.FastLSTM(D, H).maskZero(1), lambda: nn.RecGRU(D, H).maskZero(1)],
                         ids=["peepholes", "batchnorm", "maskzero_fast", "maskzero_recgru"])
def test_steps_what_it_does_not_compute(monkeypatch, make):
    count = _Count(monkeypatch)
    m = _evaluated(nn.Sequencer(make()))
    x = uniform((3, N, D), 14)
    x[1, 0] = 0
    y = m.forward(x).copy()
    assert count.taken == 0
    count.off = True
    np.testing.assert_array_equal(m.forward(x), y)


def test_errors_as_the_stepwise_path(monkeypatch):
    count = _Count(monkeypatch)
    messages = []
    for off in (False, True):
        count.off = off
        for x in (uniform((3, N, D + 1), 15), uniform((3, N, D), 15).astype(np.float32)):
            with pytest.raises((ValueError, TypeError)) as e:
                _evaluated(_model("GRU", True)).forward(x)
            messages.append(str(e.value))
    assert messages[:2] == messages[2:]
    assert count.taken == 0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("cell", CELLS)
def test_steps_on_a_device(monkeypatch, device, cell):
    """Weights on a CUDA device: the stepwise path, the host's values."""
    dev = device_named(device)
    count = _Count(monkeypatch)
    host = _evaluated(_model(cell, True))
    on_device = host.clone().cuda(dev)
    on_device.evaluate()
    x = uniform((3, N, D), 16)
    got = on_device.forward(dev.to_device(x)).numpy()
    assert count.taken == 0
    _close(got, host.forward(x), np.float64)
    assert count.taken == 1
