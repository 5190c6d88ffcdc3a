"""THNN's SeqLSTM_updateOutput and SeqGRU_updateOutput (the time loop of
SeqLSTM / SeqGRU in one kernel call) and their CUDA twins, against a numpy
transcription of the rnn package's equations written here (float64, step by
step), and the modules that call them: masks, given initial states,
remember(), batchfirst, one step and none, strided arguments, and the shapes
refused with the kernel's and the argument's names."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
import thnn.cuda as cuda
from layer_checks import raises_exactly
from nn_legacy._bases.seqrnn import SeqRecurrent

DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])


def _tol(dtype):
    return 1e-5 if np.dtype(dtype) == np.float32 else 1e-12


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def lstm_reference(pre, Wh, c0, h0, mask=None):
    """(gates, h, c) of every step, float64; pre [T, N, 4H] = x_t W_x + b."""
    pre, Wh, c, h = (np.asarray(a, np.float64) for a in (pre, Wh, c0, h0))
    T, N, G = pre.shape
    H = G // 4
    gates, hs, cs = np.zeros((T, N, G)), np.zeros((T, N, H)), np.zeros((T, N, H))
    for t in range(T):
        a = pre[t] + h @ Wh
        i, f, o = _sigmoid(a[:, :H]), _sigmoid(a[:, H:2 * H]), _sigmoid(a[:, 2 * H:3 * H])
        z = np.tanh(a[:, 3 * H:])
        c = f * c + i * z
        h = o * np.tanh(c)
        g = np.concatenate([i, f, o, z], axis=1)
        if mask is not None:
            keep = ~np.asarray(mask[t], bool)[:, None]
            c, h, g = c * keep, h * keep, g * keep
        gates[t], hs[t], cs[t] = g, h, c
    return gates, hs, cs


def gru_reference(pre, Wh, h0, mask=None):
    """(gates, h) of every step, float64; pre [T, N, 3H] = x_t W_x + b."""
    pre, Wh, h = (np.asarray(a, np.float64) for a in (pre, Wh, h0))
    T, N, G = pre.shape
    H = G // 3
    gates, hs = np.zeros((T, N, G)), np.zeros((T, N, H))
    for t in range(T):
        r = _sigmoid(pre[t][:, :H] + h @ Wh[:, :H])
        u = _sigmoid(pre[t][:, H:2 * H] + h @ Wh[:, H:2 * H])
        n = np.tanh(pre[t][:, 2 * H:] + (r * h) @ Wh[:, 2 * H:])
        h = (1 - u) * n + u * h
        g = np.concatenate([r, u, n], axis=1)
        if mask is not None:
            keep = ~np.asarray(mask[t], bool)[:, None]
            h, g = h * keep, g * keep
        gates[t], hs[t] = g, h
    return gates, hs


def _close(got, want, dtype):
    got = got.numpy() if isinstance(got, cuda.CudaTensor) else got
    assert got.shape == want.shape and got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(got, want, rtol=_tol(dtype), atol=_tol(dtype))


def _arrays(dtype, T, N, H, G, seed, masked):
    rng = np.random.default_rng(seed)
    u = lambda *s: rng.uniform(-1.5, 1.5, s).astype(dtype)   # noqa: E731
    mask = (rng.uniform(size=(T, N)) < 0.4).astype(np.int64) if masked else None
    return u(T, N, G * H), u(H, G * H), u(N, H), u(N, H), mask


# ---- the kernels against the transcription ----

@DTYPES
@pytest.mark.parametrize("T,N,H", [(3, 4, 5), (1, 1, 3), (0, 2, 3), (6, 3, 40), (3, 2, 32), (3, 3, 32)])
@pytest.mark.parametrize("masked", [False, True], ids=["", "masked"])
def test_lstm_kernel(dtype, T, N, H, masked):
    pre, Wh, c0, h0, mask = _arrays(dtype, T, N, H, 4, 1, masked)
    want = lstm_reference(pre, Wh, c0, h0, mask)
    gates = pre.copy()
    h, c = thnn.backend(dtype).SeqLSTM_updateOutput(gates, Wh, c0, h0, mask, None, None)
    for got, w in zip((gates, h, c), want):
        _close(got, w, dtype)
    if masked and T:
        assert not h[mask.astype(bool)].any() and not gates[mask.astype(bool)].any()


@DTYPES
@pytest.mark.parametrize("T,N,H", [(3, 4, 5), (1, 1, 3), (0, 2, 3), (6, 3, 40), (3, 2, 32), (3, 3, 32)])
@pytest.mark.parametrize("masked", [False, True], ids=["", "masked"])
def test_gru_kernel(dtype, T, N, H, masked):
    pre, Wh, _, h0, mask = _arrays(dtype, T, N, H, 3, 2, masked)
    want = gru_reference(pre, Wh, h0, mask)
    gates = pre.copy()
    h = thnn.backend(dtype).SeqGRU_updateOutput(gates, Wh, h0, mask, None)
    _close(gates, want[0], dtype)
    _close(h, want[1], dtype)


@pytest.mark.parametrize("layer", ["SeqLSTM", "SeqGRU"])
def test_strided_arguments_and_outputs_written_in_place(layer):
    """W_h a column slice of a wider matrix, transposed storage, states with
    a stride: read as they are; outputs that fit are written in place."""
    G = 4 if layer == "SeqLSTM" else 3
    pre, Wh, c0, h0, mask = _arrays(np.float64, 4, 3, 6, G, 3, True)
    wide = np.zeros((6, 2 * G * 6))
    wide[:, ::2] = Wh
    strided = dict(weight=wide[:, ::2], h0=np.asfortranarray(h0), c0=np.repeat(c0, 2, axis=1)[:, ::2])
    out = np.empty((4, 3, 6))
    gates = pre.copy()
    if layer == "SeqLSTM":
        want = lstm_reference(pre, Wh, c0, h0, mask)
        h, c = thnn.Double.SeqLSTM_updateOutput(gates, strided["weight"], strided["c0"], strided["h0"], mask, out,
                                                None)
        _close(c, want[2], np.float64)
    else:
        want = gru_reference(pre, Wh, h0, mask)
        h = thnn.Double.SeqGRU_updateOutput(gates, strided["weight"], strided["h0"], mask, out)
    assert h is out
    _close(h, want[1], np.float64)
    _close(gates, want[0], np.float64)


def test_bad_shapes_name_the_kernel_and_the_argument():
    D = thnn.Double
    g4, g3, w4, w3, s = np.zeros((3, 2, 8)), np.zeros((3, 2, 6)), np.zeros((2, 8)), np.zeros((2, 6)), np.zeros((2, 2))
    cases = [
        (lambda: D.SeqLSTM_updateOutput(np.zeros((2, 8)), w4, s, s, None, None, None),
         "SeqLSTM_updateOutput: gates must be 3D [seqlen, batch, 4*hiddenSize], got 2D of size [2, 8]"),
        (lambda: D.SeqLSTM_updateOutput(np.zeros((3, 2, 7)), w4, s, s, None, None, None),
         "SeqLSTM_updateOutput: gates must be 3D [seqlen, batch, 4*hiddenSize], got 3D of size [3, 2, 7]"),
        (lambda: D.SeqLSTM_updateOutput(np.zeros((3, 4, 8))[:, ::2], w4, s, s, None, None, None),
         "SeqLSTM_updateOutput: gates must be contiguous (it is written in place)"),
        (lambda: D.SeqLSTM_updateOutput(g4, np.zeros((3, 8)), s, s, None, None, None),
         "SeqLSTM_updateOutput: weight must be 2D of size [2, 8], got 2D of size [3, 8]"),
        (lambda: D.SeqLSTM_updateOutput(g4, w4, np.zeros((3, 2)), s, None, None, None),
         "SeqLSTM_updateOutput: c0 must be 2D of size [2, 2], got 2D of size [3, 2]"),
        (lambda: D.SeqLSTM_updateOutput(g4, w4, s, np.zeros(2), None, None, None),
         "SeqLSTM_updateOutput: h0 must be 2D of size [2, 2], got 1D of size [2]"),
        (lambda: D.SeqLSTM_updateOutput(g4, w4, s, s, np.zeros((2, 3), np.int64), None, None),
         "SeqLSTM_updateOutput: mask must be 2D of size [3, 2], got 2D of size [2, 3]"),
        (lambda: D.SeqGRU_updateOutput(np.zeros((3, 2, 7)), w3, s, None, None),
         "SeqGRU_updateOutput: gates must be 3D [seqlen, batch, 3*hiddenSize], got 3D of size [3, 2, 7]"),
        (lambda: D.SeqGRU_updateOutput(g3, np.zeros((2, 9)), s, None, None),
         "SeqGRU_updateOutput: weight must be 2D of size [2, 6], got 2D of size [2, 9]"),
        (lambda: D.SeqGRU_updateOutput(g3, w3, np.zeros((2, 3)), None, None),
         "SeqGRU_updateOutput: h0 must be 2D of size [2, 2], got 2D of size [2, 3]"),
        (lambda: D.SeqGRU_updateOutput(g3, w3, s, np.zeros(3, np.int64), None),
         "SeqGRU_updateOutput: mask must be 2D of size [3, 2], got 1D of size [3]"),
    ]
    for call, message in cases:
        with pytest.raises(thnn.THNNError) as info:
            call()
        assert str(info.value) == message


def test_another_dtype_is_refused():
    with raises_exactly(TypeError, "SeqGRU_updateOutput: weight must be float32 like the other tensors, got "
                                   "float64"):
        thnn.Float.SeqGRU_updateOutput(np.zeros((1, 1, 3), np.float32), np.zeros((1, 3)),
                                       np.zeros((1, 1), np.float32), None, None)


# ---- the modules ----

def _module(cls, D, H, dtype):
    nn.manualSeed(4)
    m = getattr(nn, cls)(D, H)
    return m.float() if dtype == np.float32 else m


def _reference(m, x, states, mask=None):
    """The module's output from the transcription: pre = x W_x + b."""
    D = m.weight.shape[0] - m.weight.shape[1] // m._gates
    W = m.weight.astype(np.float64)
    pre = np.asarray(x, np.float64) @ W[:D] + m.bias.astype(np.float64)
    if isinstance(m, nn.SeqLSTM):
        _, h, c = lstm_reference(pre, W[D:], *states, mask)
        return h, [c[-1], h[-1]]
    _, h = gru_reference(pre, W[D:], *states, mask)
    return h, [h[-1]]


@DTYPES
@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
def test_modules_states_remember_mask_batchfirst(dtype, cls):
    rng = np.random.default_rng(5)
    T, N, D, H = 4, 3, 5, 6
    m = _module(cls, D, H, dtype)
    lstm = cls == "SeqLSTM"
    x = rng.uniform(-1, 1, (T, N, D)).astype(dtype)
    zeros = [np.zeros((N, H))] * (2 if lstm else 1)
    want, last = _reference(m, x, zeros)
    _close(m.forward(x), want, dtype)
    # one step
    _close(m.forward(x[:1]), _reference(m, x[:1], zeros)[0], dtype)
    # initial states in the input table
    states = [rng.uniform(-1, 1, (N, H)).astype(dtype) for _ in zeros]
    _close(m.forward(states + [x]), _reference(m, x, states)[0], dtype)
    # remember: the second call starts from the first's last states
    m.remember("both")
    m.forget()
    m.forward(x)
    _close(m.forward(x), _reference(m, x, last)[0], dtype)
    m.remember("neither")
    # maskZero: a step of all-zero input gives zero output and state
    m.maskZero()
    xm = x.copy()
    xm[1, 0] = 0
    xm[2, 2] = 0
    mask = ~np.any(xm != 0, axis=2)
    _close(m.forward(xm), _reference(m, xm, zeros, mask)[0], dtype)
    # batchfirst
    m.batchfirst = True
    _close(m.forward(xm.transpose(1, 0, 2).copy()), _reference(m, xm, zeros, mask)[0].transpose(1, 0, 2), dtype)


@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
def test_modules_refuse_no_steps_and_bad_states(cls):
    m = _module(cls, 3, 4, np.float64)
    with raises_exactly(ValueError, f"{cls}: x must have at least one time step, got 3D of size [0, 2, 3]"):
        m.forward(np.zeros((0, 2, 3)))
    with raises_exactly(ValueError, f"{cls}: h0 must be float64 of size [2, 4], got float64 of size [2, 5]"):
        m.forward([np.zeros((2, 5)), np.zeros((1, 2, 3))])


class _Plain:
    """Counts the forwards that took SeqRecurrent's usual-case path
    (_plain_sequence found x); off: every forward takes the general path."""

    def __init__(self, monkeypatch):
        self.taken, self.off = 0, False
        real = SeqRecurrent._plain_sequence

        def spy(module, input):
            found = None if self.off else real(module, input)
            self.taken += found is not None
            return found
        monkeypatch.setattr(SeqRecurrent, "_plain_sequence", spy)


@DTYPES
@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
@pytest.mark.parametrize("T,N", [(1, 1), (4, 1), (3, 5)])
@pytest.mark.parametrize("batchfirst", [False, True], ids=["", "batchfirst"])
@pytest.mark.parametrize("train", [False, True], ids=["evaluation", "training"])
def test_usual_case_path_as_the_general_one(monkeypatch, dtype, cls, T, N, batchfirst, train):
    """A plain sequence (no states given or kept, no mask) skips the general
    path's checks and table handling: the same output bits, the same
    states kept for remember, and a backward after it gives the general
    path's gradients, bit for bit."""
    plain = _Plain(monkeypatch)
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (N, T, 5) if batchfirst else (T, N, 5)).astype(dtype)
    g = rng.uniform(-1, 1, (N, T, 6) if batchfirst else (T, N, 6)).astype(dtype)
    results = []
    for off in (False, True):
        plain.off = off
        m = _module(cls, 5, 6, dtype)
        m.batchfirst = batchfirst
        m.training() if train else m.evaluate()
        y = m.forward(x).copy()
        last = [s.copy() for s in m._last]
        m.training()
        m.forward(x)
        m.zeroGradParameters()
        grads = [m.backward(x, g).copy(), m.gradWeight.copy(), m.gradBias.copy()]
        results.append((y, last, grads))
    assert plain.taken == 2
    (y, last, grads), (y0, last0, grads0) = results
    for a, b in zip([y] + last + grads, [y0] + last0 + grads0):
        assert a.dtype == b.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
def test_usual_case_path_leaves_the_rest_to_the_general_one(monkeypatch, cls):
    """States given, kept (remember) or set (userPrevOutput), maskzero, a
    table, another dtype, a wrong size, no step: the general path, which
    computes or names them as before."""
    plain = _Plain(monkeypatch)
    m = _module(cls, 3, 4, np.float64)
    x = np.random.default_rng(8).uniform(-1, 1, (2, 3, 3))
    states = [np.zeros((3, 4))] * len(m._state_names)
    m.forward(states + [x])
    m.remember("both")
    m.forward(x)
    m.remember("neither")
    m.userPrevOutput = np.zeros((3, 4))
    m.forward(x)
    m.maskZero()
    m.forward(x)
    assert plain.taken == 0
    m = _module(cls, 3, 4, np.float64)
    for bad in (x.astype(np.float32), x[..., :2], np.zeros((0, 3, 3))):
        with pytest.raises((TypeError, ValueError)):
            m.forward(bad)
    assert plain.taken == 0
    m.forward(x)
    assert plain.taken == 1


# ---- the CUDA twins (the emulator, and a GPU where there is one) ----

@DTYPES
@pytest.mark.parametrize("layer", ["SeqLSTM", "SeqGRU"])
def test_twins_across_blocks_with_masks(dev, dtype, layer):
    """batch * hiddenSize past the emulator's three blocks of threads, masks,
    strided W_h: the twin against the transcription."""
    G = 4 if layer == "SeqLSTM" else 3
    pre, Wh, c0, h0, mask = _arrays(dtype, 3, 7, 130, G, 6, True)
    up = dev.to_device
    wide = np.zeros((130, 2 * G * 130), dtype)
    wide[:, ::2] = Wh
    weight = up(wide)[:, ::2]
    gates = up(pre)
    if layer == "SeqLSTM":
        want = lstm_reference(pre, Wh, c0, h0, mask)
        h, c = dev.backend(dtype).SeqLSTM_updateOutput(gates, weight, up(c0), up(h0), up(mask), None, None)
        _close(c, want[2], dtype)
    else:
        want = gru_reference(pre, Wh, h0, mask)
        h = dev.backend(dtype).SeqGRU_updateOutput(gates, weight, up(h0), up(mask), None)
    tol = 1e-4 if dtype == np.float32 else 1e-12
    for got, w in ((gates, want[0]), (h, want[1])):
        np.testing.assert_allclose(got.numpy(), w, rtol=tol, atol=tol)


@pytest.mark.parametrize("layer", ["SeqLSTM", "SeqGRU"])
def test_twins_refuse_as_the_cpu(dev, layer):
    up = dev.to_device
    if layer == "SeqLSTM":
        args = (np.zeros((3, 2, 8)), np.zeros((2, 8)), np.zeros((2, 2)), np.zeros((3, 2)), None, None, None)
    else:
        args = (np.zeros((3, 2, 6)), np.zeros((2, 6)), np.zeros((2, 2)), np.zeros((2, 3), np.int64), None)
    with pytest.raises(thnn.THNNError) as cpu:
        getattr(thnn.Double, f"{layer}_updateOutput")(*args)
    with pytest.raises(cuda.CudaError) as twin:
        getattr(dev.CudaDouble, f"{layer}_updateOutput")(*[None if a is None else up(a) for a in args])
    assert str(twin.value) == str(cpu.value)


@DTYPES
@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
@pytest.mark.parametrize("T,N", [(1, 1), (4, 1), (3, 5)])
def test_host_input_gates_are_matmuls_bits_without_its_dispatch(monkeypatch, dtype, cls, T, N):
    """On the host the input side of the gates is np.dot's product into the
    kept work buffer (no array-namespace dispatch, no reuse() call): the
    output is the kernel's on x W_x + b computed by np.matmul, bit for
    bit, and the buffer is the one kept from the previous call."""
    import nn_legacy._bases.seqrnn as seqrnn
    m = _module(cls, 5, 6, dtype)
    m.evaluate()
    x = np.random.default_rng(T * N).uniform(-1, 1, (T, N, 5)).astype(dtype)
    m.forward(x)
    kept = m._gates_buffer
    monkeypatch.setattr(seqrnn, "array_namespace", lambda a: pytest.fail("array_namespace called"))
    monkeypatch.setattr(seqrnn, "reuse", lambda *a: pytest.fail("reuse called"))
    y = m.forward(x)
    assert m._gates_buffer is kept
    monkeypatch.undo()
    gates = (np.matmul(x.reshape(T * N, 5), m.weight[:5]).reshape(T, N, -1) + m.bias).astype(dtype)
    zeros = np.zeros((N, 6), dtype)
    kernel = getattr(thnn.backend(np.dtype(dtype)), f"{cls}_updateOutput")
    want = kernel(gates, m.weight[5:], zeros, None, None) if cls == "SeqGRU" else \
        kernel(gates, m.weight[5:], zeros, zeros, None, None, None)[0]
    np.testing.assert_array_equal(y, want)
