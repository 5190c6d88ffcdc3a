"""Gradient checks through time for the recurrent modules.

Each check builds a scalar loss ``L = sum_t <w_t, y_t>`` (fixed random w_t)
over a module's outputs, gets the analytic gradients from the module's
backward verbs (gradOutput w_t at step t, last step first) and compares
them with central differences of L (float64, step 1e-6) for every input
element, the initial state and every parameter element.  The checks return
the largest absolute error; the tests want it under 1e-5 (DEVELOPERS.md).

- ``check_steps``: an AbstractRecurrent fed one step per forward; with
  ``window=k`` only the last k steps are backpropagated (truncated BPTT, rho
  = k): the reference then holds the state before those steps constant,
  and the gradient w.r.t. that state is checked too.
- ``check_sequence``: any module fed a whole sequence per forward
  (Sequencer, SeqLSTM, BiSequencer...), input an array or a table.
- ``check_remembered``: a sequencer with ``remember()`` fed a second
  sequence after a first: the state carried in is a constant.
"""
import numpy as np

EPS = 1e-6
TOL = 1e-5


def _arrays(value):
    """The arrays of an array or nested table, in order."""
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _arrays(v)]
    return [value]


def numeric(loss, array, skip=None):
    """dL/d array by central differences (array is perturbed in place and
    restored); entries where skip is True stay 0."""
    grad = np.zeros(array.shape)
    flat, gflat = array.reshape(-1), grad.reshape(-1)
    assert np.shares_memory(flat, array), "perturb the array itself"
    skip = np.zeros(array.size, bool) if skip is None else np.broadcast_to(skip, array.shape).reshape(-1)
    for i in range(array.size):
        if skip[i]:
            continue
        orig = flat[i]
        flat[i] = orig + EPS
        plus = loss()
        flat[i] = orig - EPS
        minus = loss()
        flat[i] = orig
        gflat[i] = (plus - minus) / (2 * EPS)
    return grad


def _dot(ys, ws):
    return sum(float(np.sum(np.asarray(y) * w)) for y, w in zip(_arrays(ys), _arrays(ws)))


def _weights_like(ys, rng):
    if isinstance(ys, (list, tuple)):
        return [_weights_like(y, rng) for y in ys]
    return rng.standard_normal(np.shape(ys))


def _copy(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return np.array(value, copy=True)


def _max_error(pairs):
    return max((float(np.max(np.abs(a - n))) if np.size(a) else 0.0) for a, n in pairs)


def check_steps(module, xs, start=None, window=None, masked=None, seed=0):
    """Max error of module's BPTT: module (an AbstractRecurrent) fed the
    steps xs from the initial state start (None: zeros); the loss and the
    backward pass cover the last ``window`` steps (all when None).
    masked[t]: a bool array of the samples whose step t is padding (not
    differentiable there: left out of the numeric input gradient)."""
    T = len(xs)
    k = T if window is None else window
    rng = np.random.default_rng(seed)

    def run(steps, state):
        module.forget()
        module.setStartState(state)
        return [_copy(module.forward(x)) for x in steps]

    ys = run(xs, start)
    ws = [_weights_like(y, rng) for y in ys]
    # analytic: the whole sequence forward, the last k steps backward
    params, grads = module.parameters()
    run(xs, start)
    boundary = _copy(module.getHiddenState(T - k)) if k < T else start
    module.zeroGradParameters()
    gx = [None] * T
    for t in reversed(range(T - k, T)):
        gx[t] = _copy(module.backward(xs[t], ws[t]))
    g_state = _copy(module.getGradHiddenState(T - k))
    g_params = [g.copy() for g in grads]

    # reference: the last k steps from the state before them, held constant
    window_xs = [x.copy() for x in xs[T - k:]]
    state = _copy(boundary) if boundary is not None else None

    def loss():
        return _dot(run(window_xs, state), ws[T - k:])

    pairs = []
    for t in range(k):
        skip = None if masked is None or masked[T - k + t] is None else masked[T - k + t][:, None]
        pairs.append((np.where(skip, 0, gx[T - k + t]) if skip is not None else gx[T - k + t],
                      numeric(loss, window_xs[t], skip)))
    if state is not None and g_state is not None:
        pairs += [(a, numeric(loss, s)) for a, s in zip(_arrays(g_state), _arrays(state))]
    pairs += [(g, numeric(loss, p)) for p, g in zip(params, g_params)]
    module.setStartState(None)
    return _max_error(pairs)


def check_sequence(module, input, seed=0, skip=None):
    """Max error of a whole-sequence module's backward (gradInput for every
    array of the input, and every parameter), its forward being a function
    of its input alone (the sequencer forgets between calls)."""
    rng = np.random.default_rng(seed)
    ws = _weights_like(module.forward(input), rng)

    def loss():
        return _dot(module.forward(input), ws)

    module.forward(input)
    module.zeroGradParameters()
    gin = _copy(module.backward(input, ws))
    g_params = [g.copy() for g in module.parameters()[1]]
    pairs = [(a, numeric(loss, x, None if skip is None else skip.get(i)))
             for i, (a, x) in enumerate(zip(_arrays(gin), _arrays(input)))]
    pairs += [(g, numeric(loss, p)) for p, g in zip(*[module.parameters()[0], g_params])]
    return _max_error(pairs)


def check_remembered(module, first, second, state_of, fresh, seed=0):
    """Max error of a remembering sequencer's backward over its second
    sequence (its input and every parameter), against the same computation
    done by ``fresh(state)`` (a module sharing module's parameters, that
    starts from state and forgets) from the state the first sequence left
    (``state_of(module)`` after it), held constant; and the outputs agree."""
    rng = np.random.default_rng(seed)
    module.forget()
    module.forward(first)
    state = _copy(state_of(module))
    y2 = _copy(module.forward(second))
    ws = _weights_like(y2, rng)
    module.forget()
    module.forward(first)
    module.forward(second)
    module.zeroGradParameters()
    gin = _copy(module.backward(second, ws))
    g_params = [g.copy() for g in module.parameters()[1]]
    ref = fresh(state)
    assert np.allclose(_copy(ref.forward(second)), y2, rtol=0, atol=1e-12), "the second call did not continue"

    def loss():
        return _dot(ref.forward(second), ws)

    pairs = [(a, numeric(loss, x)) for a, x in zip(_arrays(gin), _arrays(second))]
    pairs += [(g, numeric(loss, p)) for p, g in zip(ref.parameters()[0], g_params)]
    return _max_error(pairs)


def run_bptt(module, xs, gs, start=None):
    """An AbstractRecurrent over the steps xs from start, then BPTT with the
    gradients gs: (outputs [T, ...], gradInputs [T, ...], gradient w.r.t.
    the initial state, copies of the parameter gradients)."""
    module.forget()
    module.setStartState(start)
    ys = np.stack([np.array(module.forward(x), copy=True) for x in xs])
    module.zeroGradParameters()
    gx = [None] * len(xs)
    for t in reversed(range(len(xs))):
        gx[t] = np.array(module.backward(xs[t], gs[t]), copy=True)
    g0 = _copy(module.getGradHiddenState(0))
    module.setStartState(None)
    return ys, np.stack(gx), g0, [g.copy() for g in module.parameters()[1]]
