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


# ---- a merge over every step's table in one call; the cells' layouts kept while their weights hold ----
WHOLE_SEQUENCE = sys.modules["nn_legacy._bases.whole_sequence"]


class _Calls:
    """Counts module's own updateOutput calls (the per-step path's; not its clones')."""

    def __init__(self, monkeypatch, module):
        self.n = 0
        real = type(module).updateOutput

        def spy(this, input):
            self.n += this is module
            return real(this, input)
        monkeypatch.setattr(type(module), "updateOutput", spy)


@DTYPES
@pytest.mark.parametrize("merge", [lambda: nn.JoinTable(0, 1), lambda: nn.JoinTable(-1), lambda: nn.JoinTable(0),
                                   lambda: nn.CAddTable()], ids=["join_ninputdims", "join_last", "join_0", "cadd"])
@pytest.mark.parametrize("batch", [None, 1, 3])
@pytest.mark.parametrize("T", [1, 4])
def test_merge_of_every_step_at_once(monkeypatch, dtype, merge, batch, T):
    count = _Count(monkeypatch)
    module = merge()
    m = _evaluated(nn.Sequencer(module))
    shape = (T, H) if batch is None else (T, batch, H)
    x = [[a, b] for a, b in zip(uniform(shape, 20).astype(dtype), uniform(shape, 21).astype(dtype))]
    calls = _Calls(monkeypatch, module)
    fast, slow, ref = _both(m, lambda mod: mod.forward(x), count)
    assert calls.n == 0   # (the stepwise run is ref's, a copy)
    assert isinstance(fast, list) and len(fast) == T
    for a, b in zip(fast, slow):   # the same arithmetic: the same bits
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    assert m.module.step == ref.module.step == T + 1
    np.testing.assert_array_equal(m.module.output, ref.module.output)


def test_merge_steps_what_it_does_not_take(monkeypatch):
    """CAddTable in place, tables whose steps differ, a table that the
    module refuses: per step as before (the same error)."""
    tables = (lambda: [[uniform((N, H), 22 + t), uniform((N, H), 23)] for t in range(3)],   # (fresh: in place)
              lambda: [[uniform((N, H), 22), uniform((N, H), 23)], [uniform((N, H), 24), uniform((N, 2), 25)]])
    for module, x in zip((nn.CAddTable(True), nn.JoinTable(0, 1)), tables):
        m = _evaluated(nn.Sequencer(module))
        calls = _Calls(monkeypatch, module)
        expected = [a + b if module.inplace else np.concatenate([a, b], axis=1)
                    for a, b in x()] if isinstance(module, nn.CAddTable) else [np.concatenate(s, axis=1) for s in x()]
        _close(_copy(m.forward(x())), expected, np.float64)
        assert calls.n == len(expected)
    messages = []
    for merge in (WHOLE_SEQUENCE._table_merge, lambda module, kind, steps: None):   # (None: the per-step runs)
        monkeypatch.setattr(WHOLE_SEQUENCE, "_table_merge", merge)
        with pytest.raises(ValueError) as e:
            _evaluated(nn.Sequencer(nn.CAddTable())).forward([[uniform((N, H), 26), uniform((N, 2), 27)]] * 2)
        messages.append(str(e.value))
    assert messages[0] == messages[1] and "CAddTable: input[1] must be of size [2, 4]" in messages[0]


@pytest.mark.parametrize("odd", ["dtype", "shape", "array", "length", "tuple"])
@pytest.mark.parametrize("merge", [lambda: nn.JoinTable(0, 1), lambda: nn.CAddTable()], ids=["join", "cadd"])
def test_merge_of_a_table_with_an_odd_later_step(monkeypatch, merge, odd):
    """A merge whose last step's table differs from the first's (an entry
    of another dtype or shape, not a numpy array, another length; a tuple
    is a table like a list): per step as before, or at once for the tuple,
    with the stepwise path's values either way."""
    module = merge()
    m = _evaluated(nn.Sequencer(module))
    x = [[uniform((N, H), 34 + t), uniform((N, H), 37 + t)] for t in range(3)]
    a, b = x[-1]
    x[-1] = {"dtype": [a, b.astype(np.float32)], "shape": [a, b[:, :2]], "array": [a, b.tolist()],
             "length": [a], "tuple": (a, b)}[odd]
    expected, error = [], None
    with monkeypatch.context() as stepwise:   # (the reference: every step through the module)
        stepwise.setattr(WHOLE_SEQUENCE, "_table_merge", lambda module, kind, steps: None)
        try:
            expected = [np.copy(y) for y in _evaluated(nn.Sequencer(merge())).forward(x)]
        except (ValueError, TypeError) as e:
            error = e
    calls = _Calls(monkeypatch, module)
    if error is not None:
        with pytest.raises(type(error)) as got:
            m.forward(x)
        assert str(got.value) == str(error)
        return
    got = m.forward(x)
    assert calls.n == (0 if odd == "tuple" else len(x))
    for y, want in zip(got, expected):
        np.testing.assert_array_equal(y, want)


@DTYPES
@pytest.mark.parametrize("package", ["Element-Research/rnn", "torch/rnn"])
@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("T", [1, 2, 5])
def test_bisequencer_forms_lengths_and_batches(monkeypatch, dtype, package, cell, batch, T):
    """Both BiSequencers over the fast path (cells and, in Element-Research's
    form, the merge), against the stepwise path: the merge's bits exactly
    where its inputs are equal."""
    count = _Count(monkeypatch)
    nn.manualSeed(2)
    m = _evaluated(nn.BiSequencer(_cell(cell), package=package))
    m = m.float() if dtype == np.float32 else m
    x = uniform((T, batch, D), 28).astype(dtype)
    x = x if package == "torch/rnn" else list(x)
    if package == "Element-Research/rnn":
        calls = _Calls(monkeypatch, m.mergeSeq.module.recurrentModule)
    fast, slow, ref = _both(m, lambda mod: mod.forward(x), count)
    _close(fast, slow, dtype)
    if package == "Element-Research/rnn":
        assert calls.n == 0
        for t in range(T):   # the merge of the steps' outputs the cells gave
            np.testing.assert_array_equal(fast[t], np.concatenate([m.fwdSeq.output[t], m.bwdSeq.output[T - 1 - t]],
                                                                  axis=-1))


@pytest.mark.parametrize("cell", ["FastLSTM", "GRU"])
def test_layout_kept_while_the_weights_hold(monkeypatch, cell):
    """FastLSTM's and GRU's re-laid-out weights are built once and used
    while the weights hold the same values; a weight changed in place,
    replaced or converted is laid out again (never a stale result)."""
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, False))
    x = uniform((3, N, D), 29)
    first = m.module._seq_layout()
    assert m.module._seq_layout() is first
    assert not any(a.flags.writeable for a in first[1:])

    def check():
        fast, slow, _ = _both(m, lambda mod: mod.forward(x), count)
        _close(fast, slow, x.dtype)
        return fast
    before = check()
    step = m.module.recurrentModule
    linears = [step.i2g, step.o2g] if cell == "FastLSTM" else list(step.modules)
    for k, lin in enumerate(linears):
        lin.weight[0, -1] += 0.25            # in place
        after = check()
        assert not np.allclose(after, before)
        before = after
        if lin.bias is not None:
            lin.bias[-1] -= 0.5
            after = check()
            assert not np.allclose(after, before)
            before = after
        lin.weight = lin.weight * 1.5        # replaced
        after = check()
        assert not np.allclose(after, before)
        before = after
    m.float()
    x = x.astype(np.float32)
    np.testing.assert_allclose(check(), before, rtol=1e-5, atol=1e-5)
    assert m.module._seq_layout()[1].dtype == np.float32


def test_layout_kept_only_for_weights_of_the_same_dtype_shape_and_bytes():
    """The kept layout's test, weight by weight: a weight of the same bytes
    but another shape or dtype (a reshape, a view as integers) or one whose
    last byte differs is laid out again; the same values in a new array
    are not."""
    built = []

    def build(*weights):
        built.append(weights)
        return ("SeqLSTM",) + tuple(np.ascontiguousarray(w) for w in weights)
    step = nn.Linear(2, 2)
    weights = [uniform((4, 3), 31), uniform((4,), 32), uniform((4, 2), 33)]
    first = WHOLE_SEQUENCE._cached(step, weights, build)
    assert WHOLE_SEQUENCE._cached(step, [w.copy() for w in weights], build) is first and len(built) == 1
    for k, changed in [(0, weights[0].reshape(3, 4)), (1, weights[1].view(np.int64)),
                       (2, weights[2].reshape(2, 4)), (2, weights[2] + np.eye(4, 2)[::-1] * 1e-3)]:
        again = list(weights)
        again[k] = changed
        count = len(built)
        layout = WHOLE_SEQUENCE._cached(step, again, build)
        assert len(built) == count + 1 and layout is not first
        assert all(a.shape == w.shape and a.dtype == w.dtype and np.array_equal(a, w)
                   for a, w in zip(layout[1:], again))
        assert WHOLE_SEQUENCE._cached(step, weights, build) is not layout   # (the first weights: built again)


def test_large_layouts_built_every_call(monkeypatch):
    count = _Count(monkeypatch)
    monkeypatch.setattr(WHOLE_SEQUENCE, "_CACHED_ELEMENTS", 0)
    m = _evaluated(_model("FastLSTM", False))
    assert m.module._seq_layout() is not m.module._seq_layout()
    x = uniform((3, N, D), 30)
    fast, slow, _ = _both(m, lambda mod: mod.forward(x), count)
    _close(fast, slow, np.float64)
    m.module.recurrentModule.i2g.weight[1, 1] -= 1
    fast, slow, _ = _both(m, lambda mod: mod.forward(x), count)
    _close(fast, slow, np.float64)


class _Numpy:
    """numpy, with some of its functions replaced (for WHOLE_SEQUENCE.np)."""

    def __init__(self, **replaced):
        self.__dict__.update(replaced)

    def __getattr__(self, name):
        return getattr(np, name)


@DTYPES
@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("batch,T", [(1, 1), (1, 4), (3, 5)])
def test_input_gates_are_matmuls_bits_without_its_dispatch(monkeypatch, dtype, cell, batch, T):
    """The fast path's input side of the gates is np.dot's product (no
    np.matmul call, a few microseconds of dispatch less), the bits
    np.matmul gives: the outputs are those of the same path with
    np.matmul in its place, bit for bit."""
    count = _Count(monkeypatch)
    x = uniform((T, batch, D), 4).astype(dtype)
    outputs = []
    for numpy in (_Numpy(matmul=lambda *a, **k: pytest.fail("np.matmul called")), _Numpy(dot=np.matmul)):
        m = _evaluated(_model(cell, False, dtype))
        monkeypatch.setattr(WHOLE_SEQUENCE, "np", numpy)
        outputs.append(_copy(m.forward(x)))
        monkeypatch.setattr(WHOLE_SEQUENCE, "np", np)
    assert count.taken == 2
    np.testing.assert_array_equal(outputs[0], outputs[1])


@DTYPES
@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("batch", [1, 8])
@pytest.mark.parametrize("start", ["zeros", "setStartState", "remember"])
def test_usual_start_from_kept_zeros(monkeypatch, dtype, cell, batch, start):
    """A forgotten cell without a start state of the user's starts from one
    kept read-only array of zeros (the stepwise path's getHiddenState(0)
    and its new zero arrays are not called for); a start state of the
    user's or one carried from the previous call (remember) goes through
    getHiddenState as before.  Outputs as the stepwise path's either way, and what
    getHiddenState(0) gives afterwards is the stepwise path's: new,
    writable zeros."""
    count = _Count(monkeypatch)
    m = _evaluated(_model(cell, True, dtype))
    cls = type(m.module.recurrentModule.modules[0])
    calls = []
    real = cls.getHiddenState

    def spy(self, *args, **kwargs):
        calls.append(args)
        return real(self, *args, **kwargs)
    monkeypatch.setattr(cls, "getHiddenState", spy)
    x = uniform((3, batch, D), 31).astype(dtype)
    lstm = "LSTM" in cell
    if start == "setStartState":
        h0, c0 = uniform((batch, H), 32).astype(dtype), uniform((batch, H), 33).astype(dtype)
        m.module.recurrentModule.modules[0].setStartState([h0, c0] if lstm else h0)
    elif start == "remember":
        m.remember("eval")
        m.forward(x)
    ref = m.clone()
    calls.clear()
    before = count.taken
    fast = _copy(m.forward(x))
    assert count.taken == before + 1, "the fast path was not taken"
    asked = len(calls)
    count.off = True
    slow = _copy(ref.forward(x))
    _close(fast, slow, dtype)
    if start == "zeros":
        assert asked == 0
        zero = m.module.recurrentModule.modules[0].getHiddenState(0, x[0])
        for a in (zero if lstm else [zero]):
            assert type(a) is np.ndarray and a.flags.writeable and a.shape == (batch, H) and not a.any()
    else:
        assert asked == 1
        assert not np.allclose(fast, _evaluated(_model(cell, True, dtype)).forward(x))


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("odd", ["batch", "dtype", "list"])
def test_table_with_an_odd_later_step_steps(monkeypatch, cell, odd):
    """A table whose first step the kernels take but a later one not (of
    another batch or dtype, or not an array): the stepwise path runs it,
    with its outputs or its error."""
    count = _Count(monkeypatch)
    steps = list(uniform((3, N, D), 34))
    steps[2] = {"batch": steps[2][:1], "dtype": steps[2].astype(np.float32), "list": steps[2].tolist()}[odd]
    results = []
    for off in (False, True):
        count.off = off
        try:
            results.append(_copy(_evaluated(_model(cell, True)).forward(steps)))
        except (ValueError, TypeError, RuntimeError) as e:
            results.append((type(e), str(e)))
    assert count.taken == 0
    if isinstance(results[0], tuple):
        assert results[0] == results[1]
    else:
        _close(results[0], results[1], np.float64)
