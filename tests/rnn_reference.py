"""Independent references for the recurrent modules: numpy transcriptions of
the rnn package's formulas (its Lua sources and README), written here
without nn_legacy, and torch.nn.LSTM / GRU set up with the same weights."""
import numpy as np


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def gru(xs, Wg, bg, Ug, Wn, bn, Un, h0):
    """The rnn package's GRU (GRU.lua's module tree, its README's equations):
    z, r from one Linear on x and one LinearNoBias on h; the candidate reads
    r * h through its own LinearNoBias; s = (1 - z) h~ + z s_prev.
    Wg [2H, D] and Ug [2H, H] hold r's rows, then z's."""
    H = Un.shape[0]
    h, out = h0, []
    for x in xs:
        gates = sigmoid(x @ Wg.T + bg + h @ Ug.T)
        r, z = gates[..., :H], gates[..., H:]
        cand = np.tanh(x @ Wn.T + bn + (r * h) @ Un.T)
        h = (1 - z) * cand + z * h
        out.append(h)
    return np.stack(out)


def lstm_peephole(xs, w, h0, c0, cell2gate=True):
    """The rnn package's LSTM (README equations 1-6): w[g] = (Wx, bx, Wh,
    wc) for the gates i, f, o (wc: the diagonal cell-to-gate weights), (Wx,
    bx, Wh) for the hidden z; the output gate sees the new cell."""
    def pre(g, x, h, c):
        Wx, bx, Wh = w[g][:3]
        a = x @ Wx.T + bx + h @ Wh.T
        return a + w[g][3] * c if cell2gate and g != "z" else a
    h, c, out = h0, c0, []
    for x in xs:
        i, f = sigmoid(pre("i", x, h, c)), sigmoid(pre("f", x, h, c))
        z = np.tanh(pre("z", x, h, c))
        c = f * c + i * z
        o = sigmoid(pre("o", x, h, c))
        h = o * np.tanh(c)
        out.append(h)
    return np.stack(out)


def lstm(W_ih, W_hh, b_ih, xs, h0=None, c0=None):
    """The textbook LSTM without peepholes, as torch.nn.LSTM defines it
    (weights with rows i, f, g, o; one bias) over xs [T, N, D], in numpy:
    the output [T, N, H].  The same arguments as torch_lstm, for the tests
    that must run on a machine without torch."""
    H = W_hh.shape[1]
    shape = xs.shape[1:-1] + (H,)
    h = np.zeros(shape) if h0 is None else h0
    c = np.zeros(shape) if c0 is None else c0
    out = []
    for x in xs:
        a = x @ W_ih.T + h @ W_hh.T + b_ih
        i, f, o = sigmoid(a[..., :H]), sigmoid(a[..., H:2 * H]), sigmoid(a[..., 3 * H:])
        c = f * c + i * np.tanh(a[..., 2 * H:3 * H])
        h = o * np.tanh(c)
        out.append(h)
    return np.stack(out)


def _torch():
    """torch, or the test skipped (torch is an optional reference)."""
    import pytest
    return pytest.importorskip("torch")


def torch_lstm(W_ih, W_hh, b_ih, xs, h0=None, c0=None):
    """torch.nn.LSTM (one layer) with these weights (rows i, f, g, o) over xs
    [T, N, D]: (output [T, N, H], the module, the input tensor) for backward."""
    torch = _torch()
    H = W_hh.shape[1]
    m = torch.nn.LSTM(W_ih.shape[1], H).double()
    with torch.no_grad():
        m.weight_ih_l0.copy_(torch.from_numpy(W_ih))
        m.weight_hh_l0.copy_(torch.from_numpy(W_hh))
        m.bias_ih_l0.copy_(torch.from_numpy(b_ih))
        m.bias_hh_l0.zero_()
    x = torch.tensor(xs, requires_grad=True)
    N = xs.shape[1]
    h = torch.tensor(np.zeros((1, N, H)) if h0 is None else h0[None], requires_grad=True)
    c = torch.tensor(np.zeros((1, N, H)) if c0 is None else c0[None], requires_grad=True)
    y, _ = m(x, (h, c))
    return y, m, x, h, c


def fast_to_torch_rows(H):
    """Rows of a FastLSTM gate matrix (i, z, f, o) in torch's order (i, f, g, o)."""
    return np.r_[0:H, 2 * H:3 * H, H:2 * H, 3 * H:4 * H]


def seq_to_torch_rows(H):
    """Columns of SeqLSTM's weight (i, f, o, z) in torch's order (i, f, g, o)."""
    return np.r_[0:H, H:2 * H, 3 * H:4 * H, 2 * H:3 * H]


def autograd(formula, arrays, gs):
    """Gradients of sum(formula(*tensors) * gs) w.r.t. each array, by torch
    autograd (float64): the formulas above written with torch ops."""
    torch = _torch()
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y = formula(torch, *ts)
    (y * torch.from_numpy(gs)).sum().backward()
    return y.detach().numpy(), [t.grad.numpy() for t in ts]


def gru_formula(torch, xs, h0, Wg, bg, Ug, Wn, bn, Un):
    """gru() with torch ops."""
    H = Un.shape[0]
    h, out = h0, []
    for x in xs:
        gates = torch.sigmoid(x @ Wg.T + bg + h @ Ug.T)
        r, z = gates[..., :H], gates[..., H:]
        h = (1 - z) * torch.tanh(x @ Wn.T + bn + (r * h) @ Un.T) + z * h
        out.append(h)
    return torch.stack(out)


def lstm_peephole_formula(torch, xs, h0, c0, *w):
    """lstm_peephole() with torch ops; w: the arrays of the gates f, i, z, o
    in the rnn package's parameter order (Wx, bx, Wh[, wc] each)."""
    k, gate = 0, {}
    for g in "fizo":
        n = 3 if g == "z" or len(w) == 12 else 4
        gate[g] = w[k:k + n] + (None,) * (4 - n)
        k += n

    def pre(g, x, h, c):
        Wx, bx, Wh, wc = gate[g]
        a = x @ Wx.T + bx + h @ Wh.T
        return a if wc is None else a + wc * c
    h, c, out = h0, c0, []
    for x in xs:
        i, f = torch.sigmoid(pre("i", x, h, c)), torch.sigmoid(pre("f", x, h, c))
        c = f * c + i * torch.tanh(pre("z", x, h, c))
        h = torch.sigmoid(pre("o", x, h, c)) * torch.tanh(c)
        out.append(h)
    return torch.stack(out)


def batch_norm(a, gamma, beta, running, eps, momentum, train):
    """nn.BatchNormalization of a [N, F] batch: the batch's mean and biased
    variance while training (running = [mean, var] updated in place with the
    unbiased variance), the running averages in evaluation."""
    if train:
        mean, var = a.mean(0), a.var(0)
        n = a.shape[0]
        running[0] = momentum * mean + (1 - momentum) * running[0]
        running[1] = momentum * var * n / (n - 1) + (1 - momentum) * running[1]
    else:
        mean, var = running
    y = (a - mean) / np.sqrt(var + eps)
    return y if gamma is None else y * gamma + beta


def fast_lstm_bn(xs, p, running, eps=1e-5, momentum=0.1, train=True, h0=None, c0=None):
    """The rnn package's FastLSTM with bn = true (FastLSTM.nngraphModel, its
    README's equations after Cooijmans et al.): p holds W [4H, D], b [4H]
    (i2g), U [4H, H] (o2g), the BN affine pairs gx, bx / gh, bh / gc, bc
    (None when not affine) and bias [4H] (the nn.Add after BN_h); gate
    blocks i, z, f, o.  running: {'x', 'h', 'c'} -> [mean, var], shared by
    the steps and updated in place.  Output h [T, N, H]."""
    H = p["U"].shape[1]
    h = np.zeros(xs.shape[1:-1] + (H,)) if h0 is None else h0
    c = np.zeros_like(h) if c0 is None else c0
    out = []
    for x in xs:
        a = (batch_norm(x @ p["W"].T + p["b"], p["gx"], p["bx"], running["x"], eps, momentum, train)
             + batch_norm(h @ p["U"].T, p["gh"], p["bh"], running["h"], eps, momentum, train) + p["bias"])
        i, z, f, o = (a[:, k * H:(k + 1) * H] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(z)
        h = sigmoid(o) * np.tanh(batch_norm(c, p["gc"], p["bc"], running["c"], eps, momentum, train))
        out.append(h)
    return np.stack(out)
