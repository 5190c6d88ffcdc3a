"""nn_legacy.Bilinear: y_k = x1^T W_k x2 + b_k for a table input [x1, x2], in numpy.

The shared checks take one input array; they see Bilinear through
PairFromColumns, which splits its input's columns into [x1, x2]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_acc_update,
                          raises_exactly, torch_or_skip, uniform)

N1, N2, N_OUT = 3, 4, 2


class PairFromColumns(nn.Container):
    """Bilinear on [x[..., :n1], x[..., n1:]]; gradInput joined the same way."""

    def __init__(self, bilinear):
        super().__init__(bilinear)
        self.n1 = bilinear.weight.shape[1]

    def _pair(self, input):
        return [input[..., :self.n1], input[..., self.n1:]]

    def updateOutput(self, input):
        self.output = self.modules[0].forward(self._pair(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = np.concatenate(self.modules[0].updateGradInput(self._pair(input), gradOutput), axis=-1)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.modules[0].accGradParameters(self._pair(input), gradOutput, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self.modules[0].accUpdateGradParameters(self._pair(input), gradOutput, lr)


def make(bias=True):
    return nn.Bilinear(N1, N2, N_OUT, bias)


def pair(batch=(5,), seed=1):
    return [uniform(batch + (N1,), seed), uniform(batch + (N2,), seed + 10)]


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
@pytest.mark.parametrize("batch", [(), (5,)], ids=["1D", "2D"])
def test_matches_numpy(batch, bias):
    m = make(bias)
    x1, x2 = pair(batch)
    g = uniform(batch + (N_OUT,), 2)
    W = m.weight
    y = np.stack([np.sum((x1 @ W[k]) * x2, axis=-1) for k in range(N_OUT)], axis=-1)
    if bias:
        y = y + m.bias
    np.testing.assert_allclose(m.forward([x1, x2]), y, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    g1, g2 = m.backward([x1, x2], g, 0.5)
    want1 = sum(g[..., k:k + 1] * (x2 @ W[k].T) for k in range(N_OUT))
    want2 = sum(g[..., k:k + 1] * (x1 @ W[k]) for k in range(N_OUT))
    np.testing.assert_allclose(g1, want1, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(g2, want2, rtol=1e-13, atol=1e-15)
    a1, a2, ag = np.atleast_2d(x1), np.atleast_2d(x2), np.atleast_2d(g)
    want_w = 0.5 * np.stack([(a1 * ag[:, k:k + 1]).T @ a2 for k in range(N_OUT)])
    np.testing.assert_allclose(m.gradWeight, want_w, rtol=1e-13, atol=1e-15)
    if bias:
        np.testing.assert_allclose(m.gradBias, 0.5 * ag.sum(axis=0), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_matches_torch(bias):
    torch = torch_or_skip()
    m = make(bias)
    x1, x2 = pair()
    g = uniform((5, N_OUT), 2)
    t1, t2 = (torch.from_numpy(a.copy()).requires_grad_(True) for a in (x1, x2))
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True) if bias else None
    out = torch.nn.functional.bilinear(t1, t2, w, b)
    out.backward(torch.from_numpy(g))
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward([x1, x2]), out.detach().numpy(), rtol=1e-13, atol=1e-15)
    g1, g2 = m.backward([x1, x2], g)
    np.testing.assert_allclose(g1, t1.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(g2, t2.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-13, atol=1e-15)
    if bias:
        np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-13, atol=1e-15)


def test_accUpdateGradParameters():
    check_acc_update(PairFromColumns(make()), uniform((3, N1 + N2), 1), uniform((3, N_OUT), 2), lr=0.3)
    x1, x2 = pair((3,))
    g = uniform((3, N_OUT), 2)
    m = make()
    before = m.weight.copy()
    reference = m.clone()
    reference.zeroGradParameters()
    reference.forward([x1, x2])
    reference.backward([x1, x2], g)
    m.forward([x1, x2])
    m.accUpdateGradParameters([x1, x2], g, 0.3)
    np.testing.assert_allclose(m.weight, before - 0.3 * reference.gradWeight, rtol=1e-12, atol=1e-15)


def test_reset_draws_from_the_torch7_range():
    m = nn.Bilinear(16, 3, 20)
    assert np.all(np.abs(m.weight) <= 1 / 4) and np.all(np.abs(m.bias) <= 1 / 4) and m.weight.std() > 1 / 16


def test_buffer_reuse_across_batch_sizes():
    m = make()
    fresh = m.clone()
    big, small = pair((6,), 1), pair((2,), 3)
    g_big, g_small = uniform((6, N_OUT), 2), uniform((2, N_OUT), 4)
    out1 = m.forward(big)
    kept_out = out1.copy()
    grads1 = m.backward(big, g_big)
    kept_grads = [a.copy() for a in grads1]
    out2 = m.forward(small)
    grads2 = m.backward(small, g_small)
    np.testing.assert_array_equal(out1, kept_out)
    for a, kept in zip(grads1, kept_grads):
        np.testing.assert_array_equal(a, kept)
    again = [a[::-1].copy() for a in small]
    assert m.forward(again) is out2
    np.testing.assert_array_equal(out2, fresh.forward(again))
    grads3 = m.backward(again, g_small)
    assert all(a is b for a, b in zip(grads3, grads2))
    for a, b in zip(grads3, fresh.backward(again, g_small)):
        np.testing.assert_array_equal(a, b)


def test_bad_table_inputs():
    m = make()
    x1, x2 = pair((3,))
    with raises_exactly(TypeError, "Bilinear: input must be a list of two arrays [x1, x2], got ndarray"):
        m.forward(x1)
    with raises_exactly(TypeError, "Bilinear: input must be a list of two arrays [x1, x2], got a list of 3"):
        m.forward([x1, x2, x2])
    with raises_exactly(TypeError, "Bilinear: input[1] must be a numpy array, got list"):
        m.forward([x1, x2.tolist()])
    with raises_exactly(TypeError, "Bilinear: input[0] must be float32 or float64, got int64"):
        m.forward([x1.astype(np.int64), x2])
    with raises_exactly(TypeError, "Bilinear: input[1] is float32 but the module is float64; convert the input "
                                   "or call module.float()"):
        m.forward([x1, x2.astype(np.float32)])
    with raises_exactly(ValueError, "Bilinear: input[1] must be 1D [4] or 2D [batch, 4], got 2D of size [3, 3]"):
        m.forward([x1, x1])
    with raises_exactly(ValueError, "Bilinear: input[1] must hold as many samples as input[0] (2D of size [3, 3]), "
                                    "got 2D of size [2, 4]"):
        m.forward([x1, x2[:2]])
    with raises_exactly(ValueError, "Bilinear: input[1] must hold as many samples as input[0] (2D of size [3, 3]), "
                                    "got 1D of size [4]"):
        m.forward([x1, x2[0]])
    m.forward([x1, x2])
    with raises_exactly(ValueError, "Bilinear: gradOutput must be of size [3, 2] like the output, "
                                    "got 2D of size [2, 3]"):
        m.backward([x1, x2], uniform((2, 3)))
    with raises_exactly(TypeError, "Bilinear: gradOutput is float32 but the input is float64"):
        m.backward([x1, x2], uniform((3, 2)).astype(np.float32))
    with raises_exactly(ValueError, "Bilinear: sizes must be positive integers, got (3, 0, 2)"):
        nn.Bilinear(3, 0, 2)


def test_repr():
    assert repr(nn.Bilinear(3, 4, 2)) == "nn.Bilinear(3, 4 -> 2)"
    assert repr(nn.Bilinear(3, 4, 2, bias=False)) == "nn.Bilinear(3, 4 -> 2, without bias)"
