"""nn_legacy.NormStabilizer (rnn package): the identity forward; backward
adds the gradient of beta * sum_t mean_b (||h_t|| - ||h_{t-1}||)^2, checked
against central differences of that penalty written in numpy; loaded from
torch/rnn's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly
from nn_legacy.serialization.t7 import T7Error, load_lua
from t7_writer import T7Object, t7_bytes

BETA, T, B, N = 0.7, 4, 3, 5


def _loss(xs, gs):
    """numpy: sum_t <g_t, h_t> + beta * sum_{t>=2} mean_b (n_t - n_{t-1})^2, h_t = x_t."""
    norms = [np.sqrt((x * x).sum(axis=1)) for x in xs]
    penalty = sum(((norms[t] - norms[t - 1]) ** 2).mean() for t in range(1, len(xs)))
    return sum((g * x).sum() for g, x in zip(gs, xs)) + BETA * penalty, penalty


def _bptt(m, xs, gs):
    outs = [m.forward(x).copy() for x in xs]
    grads = [None] * len(xs)
    for t in reversed(range(len(xs))):
        grads[t] = m.backward(xs[t], gs[t]).copy()
    return outs, grads


def test_backward_is_the_gradient_of_the_penalty():
    rng = np.random.default_rng(0)
    xs = [rng.uniform(-1, 1, (B, N)) for _ in range(T)]
    gs = [rng.uniform(-1, 1, (B, N)) for _ in range(T)]
    m = nn.NormStabilizer(BETA)
    outs, grads = _bptt(m, xs, gs)
    for x, y in zip(xs, outs):
        np.testing.assert_array_equal(y, x)
    eps = 1e-6
    for t in range(T):
        numeric = np.zeros((B, N))
        for i in np.ndindex(B, N):
            plus = [x.copy() for x in xs]
            minus = [x.copy() for x in xs]
            plus[t][i] += eps
            minus[t][i] -= eps
            numeric[i] = (_loss(plus, gs)[0] - _loss(minus, gs)[0]) / (2 * eps)
        np.testing.assert_allclose(grads[t], numeric, rtol=1e-7, atol=1e-8)
    assert m.updateLoss() == pytest.approx(BETA * _loss(xs, gs)[1] / T, rel=1e-12)


def test_a_zero_state_adds_nothing_and_evaluation_passes_the_input():
    m = nn.NormStabilizer()
    xs = [np.zeros((2, 3)), np.ones((2, 3))]
    _, grads = _bptt(m, xs, [np.zeros((2, 3))] * 2)
    assert not grads[0].any() and np.isfinite(grads[1]).all()
    m.evaluate()
    x = np.ones((2, 3), np.float32)
    assert m.forward(x) is x
    with raises_exactly(ValueError, "NormStabilizer: input must be a 2D float array [batch, size], got 1D of "
                                    "size [3]"):
        m.forward(np.ones(3))


def test_loaded_from_torch_rnn_s_layout(tmp_path):
    """NormStabilizer.lua: an AbstractRecurrent around a CopyGrad, beta."""
    base = {"output": np.zeros(0), "gradInput": np.zeros(0), "_type": "torch.DoubleTensor", "train": True}
    copy = T7Object("nn.CopyGrad", dict(base))
    fields = dict(base, beta=0.25, seqlen=99999.0, step=3.0, modules={1: copy}, sharedClones={1: copy},
                  outputs={1: np.ones((2, 3)), 2: np.ones((2, 3))}, gradInputs={}, _gradOutputs={}, gradOutputs={})
    f = tmp_path / "ns.t7"
    f.write_bytes(t7_bytes(T7Object("nn.NormStabilizer", fields)))
    m = load_lua(str(f))
    assert type(m) is nn.NormStabilizer and m.beta == 0.25 and m.step == 1
    assert type(m.recurrentModule) is nn.CopyGrad
    rng = np.random.default_rng(1)
    xs = [rng.uniform(-1, 1, (2, 3)) for _ in range(3)]
    gs = [rng.uniform(-1, 1, (2, 3)) for _ in range(3)]
    want = _bptt(nn.NormStabilizer(0.25), xs, gs)[1]
    for a, b in zip(_bptt(m, xs, gs)[1], want):
        np.testing.assert_array_equal(a, b)
    fields["beta"] = "x"
    f.write_bytes(t7_bytes(T7Object("nn.NormStabilizer", fields)))
    with pytest.raises(T7Error, match="NormStabilizer: beta in the file must be a number, got str"):
        load_lua(str(f))
