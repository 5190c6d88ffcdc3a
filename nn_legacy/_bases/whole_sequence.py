"""Sequencer's fast path in evaluation mode: a whole sequence through a
recurrent cell in one call of THNN's SeqLSTM / SeqGRU time loop, instead of
one step (a clone, its bookkeeping, its tables) per element.

It applies where the Sequencer's module (or the first module of what a
Recursor steps, ``Recursor(Sequential(cell, ...))``) is a cell whose step
module the Seq kernels compute:

- RecLSTM (StepLSTM) and RecGRU (StepGRU): SeqLSTM's / SeqGRU's own layout;
- FastLSTM (FastLSTMStep): gate blocks i, z, f, o of ``i2g`` / ``o2g``
  reordered to SeqLSTM's i, f, o, z (the same cell: no peepholes, one bias);
- GRU (GRUStep): its four matrices side by side are SeqGRU's weight (both
  apply the reset gate to h before W_hn; no recurrent bias on the
  candidate).

What follows the cell in the Recursor's Sequential (modules without a
recurrent one inside) takes every step's rows in one call when it is made
of Linear layers and activations (the Sequencer's ``_ROW_WISE``), else
runs per step on the cell's outputs; a Recursor of a
module without any recurrent module inside runs that module per step
without the clones, or, for a JoinTable or CAddTable (BiSequencer's
merge), once over every step's table stacked along time.  FastLSTM's and
GRU's re-laid-out weights are kept (when small) and used again while the
weights hold the very values they were built from.  Anything else (LSTM with
peepholes, batch-normalized FastLSTM, a maskZero'd step module, arrays on
a device, a dtype or shape the cell does not take, an initial state of
another shape) returns None: the caller steps as before.

Why evaluation mode only: in evaluation AbstractRecurrent keeps no clones
and refuses backward, so no backward can follow a forward computed here;
``training()`` forgets the state (as ``evaluate()`` does), so a training
forward after an evaluation one starts from the same state as it would
after the stepwise path.  The state carried to the next call (``remember``)
and what ``getHiddenState`` returns are set as the stepwise path sets them:
the last two steps' states and outputs, the step counters advanced by the
sequence's length.
"""
import weakref

import numpy as np

from .._helpers.arrays import quietly
from .recurrent import copy_of
from .seqrnn import _HOST_KERNELS, _zeros

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
#: FastLSTM's gate blocks (i, z, f, o) in SeqLSTM's order (i, f, o, z)
_FAST_LSTM_BLOCKS = (0, 2, 3, 1)
_NONE = object()


def seq_layout(step):
    """RecLSTM's StepLSTM, RecGRU's StepGRU: the Seq kernels' own layout (their layers' _seq_layout)."""
    w, D = step.weight, step.inputsize
    if not _on_host(w, step.bias):
        return None
    return ("SeqLSTM" if step._gates == 4 else "SeqGRU"), w[:D], w[D:], step.bias


def fast_lstm_layout(step):
    """FastLSTM's FastLSTMStep: i2g's and o2g's rows (gate blocks i, z, f, o) in SeqLSTM's order i, f, o, z."""
    i2g, o2g = step.i2g, step.o2g

    def build(wx, bx, wh):
        rows = _fast_lstm_rows(step.outputSize)
        return "SeqLSTM", wx[rows].T, wh[rows].T, bx[rows]
    return _cached(step, (i2g.weight, i2g.bias, o2g.weight), build)


def gru_layout(step):
    """GRU's GRUStep: [i2g | W_xn] is W_x, [o2g | W_hn] W_h (both apply the reset gate to h before W_hn)."""
    i2g, o2g, xn, hn = step.modules

    def build(wr, br, wz, wxn, bxn, whn):
        return "SeqGRU", np.concatenate([wr, wxn]).T, np.concatenate([wz, whn]).T, np.concatenate([br, bxn])
    return _cached(step, (i2g.weight, i2g.bias, o2g.weight, xn.weight, xn.bias, hn.weight), build)


def _on_host(*arrays):
    """Whether the arrays are all numpy arrays (not on a device, none missing: a Linear without its bias)."""
    return all(type(a) is np.ndarray for a in arrays)


#: step module -> (what its weights held, the layout built from them) for _cached
_LAYOUTS = weakref.WeakKeyDictionary()
#: the weights of at most this many elements in all are kept (as bytes) to tell whether a layout is still theirs:
#: comparing costs less than the re-layout there; above, the re-layout is a small part of the time loop's cost
_CACHED_ELEMENTS = 1 << 16


def _cached(step, weights, build):
    """build(*weights): the kernel's layout of a step module's weights,
    or None when they are not all host arrays; for small weights the one
    built by the previous call when the weights hold exactly the values
    they held then (same dtypes, shapes and bytes: a weight changed in
    place, replaced or converted is laid out again)."""
    size = 0
    for w in weights:   # (one loop for both tests: this runs every forward)
        if type(w) is not np.ndarray:
            return None
        size += w.size
    if size > _CACHED_ELEMENTS:
        return build(*weights)
    key = [(w.dtype, w.shape, w.tobytes()) for w in weights]
    kept = _LAYOUTS.get(step)
    if kept is not None and kept[0] == key:
        return kept[1]
    name, *arrays = build(*weights)
    layout = (name,) + tuple(_read_only(np.ascontiguousarray(a)) for a in arrays)
    _LAYOUTS[step] = (key, layout)
    return layout


def _read_only(a):
    a.flags.writeable = False
    return a


_ROWS = {}


def _fast_lstm_rows(H):
    rows = _ROWS.get(H)
    if rows is None:
        rows = _ROWS[H] = np.concatenate([np.arange(k * H, (k + 1) * H) for k in _FAST_LSTM_BLOCKS])
    return rows


def _sequence(input, steps, D, dtype):
    """The sequence as one array [T, N, D] and whether its steps are
    batches, or None when they are not host arrays of one shape [N, D] or
    [D] of dtype."""
    first = steps[0]
    if type(first) is not np.ndarray or first.dtype != dtype or first.ndim not in (1, 2) or first.shape[-1] != D:
        return None
    if type(input) is np.ndarray:
        x = input
    else:
        shape = first.shape
        for s in steps:   # (a loop, not any() over a generator: this runs every forward)
            if type(s) is not np.ndarray or s.shape != shape or s.dtype != dtype:
                return None
        x = np.array(steps)
    return (x if first.ndim == 2 else x[:, None, :]), first.ndim == 2


def _as_batch(state, shape, batched, dtype):
    """A state of the stepwise path ([N, H], or [H] for one sample) as the
    kernel takes it ([N, H]), or None when it is not of that form."""
    if type(state) is not np.ndarray or state.dtype != dtype or state.shape != (shape if batched else shape[1:]):
        return None
    return np.ascontiguousarray(state.reshape(shape))


def _run_cell(cell, layout, input, steps):
    """The cell over the whole sequence in one kernel call: (its outputs
    h_t, [T, N, H] or [T, H] as the steps come, a new array; the states of
    the last two steps), or None when the cell or the input does not fit
    the kernels."""
    kernel, Wx, Wh, bias = layout
    if Wx.dtype not in _FLOATS:
        return None
    found = _sequence(input, steps, Wx.shape[0], Wx.dtype)
    if found is None:
        return None
    x, batched = found
    T, N, D = x.shape
    H, G = Wh.shape
    lstm = kernel == "SeqLSTM"
    states = _start_states(cell, steps[0], (N, H), batched, x.dtype, 2 if lstm else 1)
    if states is None:
        return None
    gates = np.dot(x.reshape(T * N, D), Wx).reshape(T, N, G)   # (matmul's product, without its dispatch)
    gates += bias
    run = _HOST_KERNELS[kernel, x.dtype]
    if lstm:
        h0, c0 = states
        h, c = run(gates, Wh, c0, h0, None, None, None)
    else:
        h = run(gates, Wh, states[0], None, None)
    if not batched:
        h = h[:, 0]
        c = c[:, 0] if lstm else None
    first = max(T - 2, 0)   # (copies: the caller may change the outputs it gets)
    last = [[a, b] for a, b in zip(h[first:].copy(), c[first:].copy())] if lstm else list(h[first:].copy())
    if lstm:
        cell.cell = last[-1][1]
    return h, last


def _start_states(cell, first, shape, batched, dtype, count):
    """The states the sequence starts from (getHiddenState of the step
    before it), count arrays [N, H] as the kernel takes them, or None when
    they are not of that form.  The usual case, a forgotten cell without
    a start state of the user's (setHiddenState(0), setStartState,
    userPrevOutput / userPrevCell): the zeros the stepwise path would make,
    one kept read-only array (the kernel only reads them)."""
    cell._steps()
    if cell.step == 1 and 0 not in cell._states and cell.startState is None and cell._user_state(None) is None:
        return [_zeros(shape, dtype)] * count
    try:
        prev = cell.getHiddenState(cell.step - 1, first)
    except (ValueError, TypeError, RuntimeError):   # the stepwise path says what is wrong, naming the module
        return None
    states = prev if count == 2 else [prev]
    if not isinstance(states, (list, tuple)) or len(states) != count:
        return None
    states = [_as_batch(s, shape, batched, dtype) for s in states]
    return None if any(s is None for s in states) else states


def _advance(module, T, records):
    """The step records of a recurrent module after T steps computed here:
    records holds (output, state) of the last steps (two at most, the
    window evaluation keeps), the step counter moves on by T."""
    module._steps()
    end = module.step + T - 1
    for kept in (module._states, module._outputs, module._gradInputs, module._gradStates, module._gradOutputs):
        if kept:   # every step's record goes, but step 0's (an initial state setHiddenState(0) gave)
            start = kept.get(0, _NONE)
            kept.clear()
            if start is not _NONE:
                kept[0] = start
    for k, (output, state) in enumerate(records):
        step = end - len(records) + 1 + k
        module._states[step], module._outputs[step] = state, output
    module.output = records[-1][0]
    module.step = end + 1
    module.updateGradInputStep = module.accGradParametersStep = None


def whole_sequence(sequencer, input, steps, plan):
    """The outputs of sequencer's module over input (steps: its list of
    step inputs) computed by the fast path: a list of the steps' outputs,
    each its own array as the stepwise evaluation gives them, or for an
    array input the output array [seqlen, ...] itself; None when the fast
    path does not apply (training, or a module it does not take: the
    caller steps).  The module must have been told the sequence
    (maxBPTTstep, forget) as for the stepwise path.  plan: (the Recursor
    or None, the cell or None, its ``_seq_layout()`` (without a cell: the
    kind of table merge the Recursor's module is, "join" or "add", or
    None), the modules after it, whether those map a batch row by row),
    from the Sequencer, or None (not evaluation, or no module the path
    takes)."""
    if plan is None:
        return None
    recursor, cell, layout, rest, row_wise = plan
    T = len(steps)
    if cell is not None:
        ran = _run_cell(cell, layout, input, steps)
        if ran is None:
            return None
        outs, last = ran
        _advance(cell, T, [(s[0] if isinstance(s, list) else s, s) for s in last])
        if rest and row_wise:
            # the rows of every step at once: [T * N, H] -> [T * N, O] is the T products of [N, H]
            rows = _apply(sequencer, rest, outs.reshape((-1,) + outs.shape[2:]) if outs.ndim == 3 else outs)
            outs, rest = rows.reshape(outs.shape[:-1] + rows.shape[-1:]), []
        if not rest and type(input) is np.ndarray:
            if recursor is not None:
                _advance(recursor, T, [(y, None) for y in outs[-2:]])
            return outs
        outs = list(outs)
    else:
        merged = _table_merge(rest[0], layout, steps) if layout is not None else None
        if merged is not None:
            _advance(recursor, T, [(y, None) for y in merged[-2:]])
            return list(merged)
        outs = steps
    if rest:
        outs = [_apply(sequencer, rest, y) for y in outs]
    if recursor is not None:
        _advance(recursor, T, [(y, None) for y in outs[-2:]])
    return outs


def _apply(sequencer, modules, value):
    """value through modules in turn, a copy of the result (the modules'
    buffers serve the next step); an error is named as the Sequencer
    names one of its module's."""
    try:
        for m in modules:
            value = m.updateOutput(value)
    except (ValueError, TypeError, RuntimeError, IndexError) as e:
        raise sequencer._child_error(0, "updateOutput", e) from e
    return copy_of(value)


def _table_merge(module, kind, steps):
    """A JoinTable (kind "join") or CAddTable not in place (kind "add")
    over every step's table in one call: the tables' entries stacked along
    time, [T, ...], then joined one dim further on than a step's join, or
    summed in the same order; the array [T, ...] of the steps' outputs, or
    None where the steps are not tables of host arrays that stack (or the
    module refuses the first step's table: then the caller's per-step path
    says why)."""
    first = steps[0]
    if not isinstance(first, (list, tuple)) or not first:
        return None
    n = len(first)
    for s in steps:   # (loops, not any() over generators: this runs every forward)
        if not isinstance(s, (list, tuple)) or len(s) != n:
            return None
    columns = [[s[k] for s in steps] for k in range(n)]
    for column in columns:
        like = column[0]
        if type(like) is not np.ndarray:
            return None
        shape, dtype = like.shape, like.dtype
        for a in column:
            if type(a) is not np.ndarray or a.shape != shape or a.dtype != dtype:
                return None
    try:   # every step's table is laid out as the first one: its checks are all of theirs
        if kind == "join":
            d = module._layout(first)[0]
        else:
            module._inputs(first)
    except (ValueError, TypeError):
        return None
    entries = [np.array(column) for column in columns]   # (each [T, ...], a new array)
    if kind == "join":
        return np.concatenate(entries, axis=d + 1)
    quietly(_sum_into, entries[0], entries[1:])   # inf and nan as the arithmetic gives them, as CAddTable's own
    return entries[0]


def _sum_into(out, terms):
    for t in terms:
        out += t
