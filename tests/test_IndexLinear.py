"""nn_legacy.IndexLinear and the IndexLinear_* kernels: y[j] = b + sum of
v W[k + keysOffset] over the (key, value) pairs of sample j."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_float32_close, assert_input_jacobian, assert_parameter_jacobians,
                          raises_exactly, torch_or_skip, uniform)

N_IN, N_OUT = 8, 3


def make(normalize=False, keysOffset=0, doGradInput=None):
    doGradInput = not normalize if doGradInput is None else doGradInput
    return nn.IndexLinear(N_IN, N_OUT, doGradInput=doGradInput, keysOffset=keysOffset,
                          normalize=normalize).reset()


def batch(sizes=(3, 0, 4, 2), seed=0, offset=0):
    """Flat (keys, values, sizes) with repeated keys; keys + offset in [0, N_IN)."""
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    return rng.integers(0, N_IN, size=n) - offset, rng.uniform(-2, 2, size=n), np.array(sizes)


def as_lists(keys, values, sizes):
    cuts = np.cumsum(sizes)[:-1]
    return list(np.split(keys, cuts)), list(np.split(values, cuts))


def dense(keys, values, sizes, offset=0):
    """The dense [batch, N_IN] input the pairs stand for (repeats add up)."""
    x = np.zeros((len(sizes), N_IN))
    np.add.at(x, (np.repeat(np.arange(len(sizes)), sizes), keys + offset), values)
    return x


class AsDenseLayer(nn.Module):
    """IndexLinear seen as an ordinary layer of its values (keys fixed), with
    a dense gradWeight, so the harness's Jacobian checks apply: forward
    perturbs values, accGradParameters collects the module's per-key rows
    into the dense gradient, accUpdateGradParameters runs the module's own
    kernel.  `weight` is the module's weight from column `first` on (a copy,
    written back before each forward), so the normalisation state columns can
    be left out."""

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, layer, keys, sizes, first=0):
        super().__init__()
        self.layer, self.keys, self.sizes, self.first = layer, keys, sizes, first
        self.weight = layer.weight[:, first:].copy()
        self.bias = layer.bias
        self.gradWeight, self.gradBias = np.zeros_like(self.weight), np.zeros_like(self.bias)

    def updateOutput(self, values):
        self.layer.weight[:, self.first:] = self.weight
        self.output = self.layer.forward((self.keys, values, self.sizes))
        return self.output

    def updateGradInput(self, values, gradOutput):
        self.gradInput = np.zeros_like(values)
        if not self.layer.normalize:   # Torch7 has no gradInput with normalisation
            dense_grad = self.layer.updateGradInput(None, gradOutput)[1]
            rows = self.keys + self.layer.keysOffset
            self.gradInput = dense_grad[np.repeat(np.arange(len(self.sizes)), self.sizes), rows]
        return self.gradInput

    def accGradParameters(self, values, gradOutput, scale=1):
        self.layer.zeroGradParameters()
        self.layer.accGradParameters(None, gradOutput, scale)
        self.gradWeight += self.layer.gradWeight[:, self.first:]
        self.gradBias += self.layer.gradBias

    def accUpdateGradParameters(self, values, gradOutput, lr):
        self.layer.weight[:, self.first:] = self.weight
        self.layer.accUpdateGradParameters(None, gradOutput, lr)
        self.weight[...] = self.layer.weight[:, self.first:]


def normalized_reference(m, keys, values, sizes):
    """Forward of a normalized module by the docstring's formula, from its
    weight as it is (no training update)."""
    w = m.weight[keys + m.keysOffset]
    u = np.where(np.abs(values) > w[:, 0], np.sign(values), values * w[:, 1]) + w[:, 3]
    out = np.tile(m.bias, (len(sizes), 1))
    np.add.at(out, np.repeat(np.arange(len(sizes)), sizes), u[:, None] * w[:, 4:])
    return out, u


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("form", ["flat", "lists", "single"])
@pytest.mark.parametrize("offset", [0, 2])
def test_forward_and_backward_match_dense_numpy(form, offset):
    m = make(keysOffset=offset)
    keys, values, sizes = batch(offset=offset) if form != "single" else batch((5,), offset=offset)
    x = {"flat": (keys, values, sizes), "lists": as_lists(keys, values, sizes), "single": (keys, values)}[form]
    xd = dense(keys, values, sizes, offset)
    g = uniform((len(sizes), N_OUT), 2)
    want = xd @ m.weight + m.bias
    np.testing.assert_allclose(m.forward(x), want[0] if form == "single" else want, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    gin = m.backward(x, g[0] if form == "single" else g, 0.5)
    np.testing.assert_allclose(m.gradWeight, 0.5 * xd.T @ g, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, 0.5 * g.sum(0), rtol=1e-13, atol=1e-15)
    all_keys = np.arange(N_IN) - offset
    if form == "single":
        np.testing.assert_array_equal(gin[0], all_keys)
        np.testing.assert_allclose(gin[1], g[0] @ m.weight.T, rtol=1e-13, atol=1e-15)
    elif form == "flat":
        np.testing.assert_array_equal(gin[0], np.tile(all_keys, (len(sizes), 1)))
        np.testing.assert_allclose(gin[1], g @ m.weight.T, rtol=1e-13, atol=1e-15)
    else:
        assert len(gin[0]) == len(gin[1]) == len(sizes)
        for j in range(len(sizes)):
            np.testing.assert_array_equal(gin[0][j], all_keys)
            np.testing.assert_allclose(gin[1][j], g[j] @ m.weight.T, rtol=1e-13, atol=1e-15)


def test_starts_at_zero_like_torch7_and_reset_draws_weights():
    m = nn.IndexLinear(N_IN, N_OUT)
    assert not m.weight.any() and not m.bias.any()
    m.reset()
    bound = 1 / np.sqrt(N_OUT)
    assert np.all(np.abs(m.weight) <= bound) and m.weight.std() > bound / 4
    assert np.all(np.abs(m.bias) <= bound * 1e-6)
    n = nn.IndexLinear(N_IN, N_OUT, normalize=True).reset()
    assert not n.weight[:, :4].any() and np.all(np.abs(n.weight[:, 4:]) <= 1 / np.sqrt(4 + N_OUT))


def test_given_weight_and_bias_are_used_as_they_are():
    w, b = uniform((N_IN, N_OUT), 1), uniform((N_OUT,), 2)
    m = nn.IndexLinear(N_IN, N_OUT, weight=w, bias=b)
    assert m.weight is w and m.bias is b
    np.testing.assert_allclose(m.forward((np.array([2]), np.array([3.0]))), 3 * w[2] + b, rtol=1e-15)


def test_updateParameters_is_a_dense_sgd_step_with_sparse_decay():
    m = make()
    m.weightDecay = 0.01
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    W, b = m.weight.copy(), m.bias.copy()
    m.zeroGradParameters()
    m.forward((keys, values, sizes))
    m.backward((keys, values, sizes), g)
    m.updateParameters(0.1)
    for k, v, j in zip(keys, values, np.repeat(np.arange(len(sizes)), sizes)):
        W[k] -= 0.01 * W[k] + 0.1 * v * g[j]  # pair by pair: decay of the row as it is, then the step
    np.testing.assert_allclose(m.bias, b - 0.1 * g.sum(0), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.weight, W, rtol=1e-13, atol=1e-15)
    m.weightDecay = 0
    m.updateParameters(0.1)
    np.testing.assert_allclose(m.weight, W - 0.1 * dense(keys, values, sizes).T @ g, rtol=1e-13, atol=1e-15)


def test_gradients_of_several_backwards_add_up_until_zeroGradParameters():
    m = make()
    (k1, v1, s1), (k2, v2, s2) = batch(seed=1), batch((2, 5), seed=2)
    g1, g2 = uniform((4, N_OUT), 3), uniform((2, N_OUT), 4)
    m.zeroGradParameters()
    m.forward((k1, v1, s1))
    m.backward((k1, v1, s1), g1)
    m.forward((k2, v2, s2))
    m.backward((k2, v2, s2), g2)
    np.testing.assert_allclose(m.gradWeight, dense(k1, v1, s1).T @ g1 + dense(k2, v2, s2).T @ g2,
                               rtol=1e-13, atol=1e-15)
    before = m.weight.copy()
    m.updateParameters(0.1)
    np.testing.assert_allclose(m.weight, before - 0.1 * (dense(k1, v1, s1).T @ g1 + dense(k2, v2, s2).T @ g2),
                               rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    assert not m.gradWeight.any() and not m.gradBias.any()
    before = m.weight.copy()
    m.updateParameters(0.1)
    np.testing.assert_array_equal(m.weight, before)


def test_accUpdateGradParameters_equals_accGrad_then_update():
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    for normalize in (False, True):
        a = make(normalize)
        a.weightDecay = 0.01
        a.forward((keys, values, sizes))  # training: sets the normalisation columns
        b = a.clone()
        a.accUpdateGradParameters(None, g, 0.3)
        b.zeroGradParameters()
        b.accGradParameters(None, g)
        b.updateParameters(0.3)
        np.testing.assert_allclose(a.weight, b.weight, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(a.bias, b.bias, rtol=1e-14, atol=1e-15)


# ---------------------------------------------------------------- normalisation
def test_normalized_forward_tracks_the_max_in_training_and_clamps_outside():
    m = make(normalize=True)
    m.weight[:, 3] = uniform((N_IN,), 5)  # feature biases
    keys, values = np.array([1, 2, 1]), np.array([0.5, -3.0, -2.0])
    out = m.forward((keys, values))
    np.testing.assert_array_equal(m.weight[[1, 2], 0], [2.0, 3.0])
    np.testing.assert_array_equal(m.weight[[1, 2], 1], [0.5, 1 / 3])
    np.testing.assert_array_equal(m.weight[[1, 2], 2], [1, 1])
    assert not m.weight[[0, 3, 4, 5, 6, 7], :3].any()
    # entries are normalised as they come: 0.5 saw the max 0.5 (u = 1), -2 saw 2 (u = -1)
    u = np.array([1.0, -1.0, -1.0]) + m.weight[keys, 3]
    np.testing.assert_allclose(out, m.bias + (u[:, None] * m.weight[keys, 4:]).sum(0), rtol=1e-14)
    np.testing.assert_allclose(m.normalizedValues, u, rtol=1e-15)
    m.evaluate()
    before = m.weight.copy()
    keys, values, sizes = np.array([1, 2, 1]), np.array([5.0, -1.5, 1.0]), np.array([2, 1])
    want, u = normalized_reference(m, keys, values, sizes)
    np.testing.assert_allclose(m.forward((keys, values, sizes)), want, rtol=1e-14)
    np.testing.assert_allclose(u[:2], [1 + m.weight[1, 3], -0.5 + m.weight[2, 3]], rtol=1e-15)  # 5 clamps
    np.testing.assert_array_equal(m.weight, before)


def test_normalized_update_scales_by_the_update_column_and_steps_the_feature_bias():
    m = make(normalize=True)
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    m.forward((keys, values, sizes))
    m.weight[:, 2] = 0.5  # update scales
    W = m.weight.copy()
    u = m.normalizedValues.copy()
    m.zeroGradParameters()
    m.accGradParameters(None, g)
    m.updateParameters(0.1)
    rows_of = np.repeat(np.arange(len(sizes)), sizes)
    want = W.copy()
    for k, uj, j in zip(keys, u, rows_of):
        want[k, 3] -= 0.1 * 0.5 * g[j] @ W[k, 4:]   # from the weights before the step
        want[k, 4:] -= 0.1 * 0.5 * uj * g[j]
    np.testing.assert_allclose(m.weight, want, rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- torch
def test_matches_torch_on_the_dense_equivalent():
    torch = torch_or_skip()
    m = make()
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    xd = torch.from_numpy(dense(keys, values, sizes)).requires_grad_(True)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out = torch.nn.functional.linear(xd, w.T, b)
    out.backward(torch.from_numpy(g))
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward((keys, values, sizes)), out.detach().numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.backward((keys, values, sizes), g)[1], xd.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("offset", [0, 3])
def test_jacobians(offset):
    m = make(keysOffset=offset)
    keys, values, sizes = batch(offset=offset)
    layer = AsDenseLayer(m, keys, sizes)
    assert_input_jacobian(layer, values)
    assert_parameter_jacobians(layer, values)


def test_jacobians_normalized():
    """The trained columns (feature bias c and the weights) only: the first
    three hold normalisation state, not parameters."""
    m = make(normalize=True)
    m.weight[:, 3] = uniform((N_IN,), 7)
    keys, values, sizes = batch()
    m.forward((keys, values * 1.5, sizes))  # training: maxima above every value below, update scales 1
    m.evaluate()
    assert_parameter_jacobians(AsDenseLayer(m, keys, sizes, first=3), values)


# ---------------------------------------------------------------- generic properties
def test_float32_matches_float64():
    for normalize in (False, True):
        m = make(normalize)
        m32 = m.clone().float()
        keys, values, sizes = batch()
        g = uniform((len(sizes), N_OUT), 2)
        assert_float32_close(m32.forward((keys, values.astype(np.float32), sizes)),
                             m.forward((keys, values, sizes)), "output")
        m.zeroGradParameters()
        m32.zeroGradParameters()
        m.backward(None, g)
        m32.backward(None, g.astype(np.float32))
        assert_float32_close(m32.gradWeight, m.gradWeight, "gradWeight")
        assert_float32_close(m32.gradBias, m.gradBias, "gradBias")
        m.updateParameters(0.1)
        m32.updateParameters(0.1)
        assert_float32_close(m32.weight, m.weight, "weight after the update")


def reference_pass(m):
    """One forward and backward pass of m on batch() from zeroed gradients:
    (keys, values, sizes, gradOutput, output, (gradWeight, gradBias))."""
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    m.zeroGradParameters()
    out = m.forward((keys, values, sizes)).copy()
    m.backward(None, g)
    return keys, values, sizes, g, out, (m.gradWeight.copy(), m.gradBias.copy())


def test_noncontiguous_keys_values_sizes_and_gradOutput():
    m = make()
    keys, values, sizes, g, out, grads = reference_pass(m)

    def strided(a):
        big = np.full(2 * a.size, -7 if a.dtype.kind == "i" else np.nan, dtype=a.dtype)
        big[::2] = a
        return big[::2]

    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward((strided(keys), strided(values), strided(sizes))), out)
    m.backward(None, np.asfortranarray(g))
    np.testing.assert_array_equal(m.gradWeight, grads[0])
    np.testing.assert_array_equal(m.gradBias, grads[1])


def test_batch_equals_samples():
    m = make()
    keys, values, sizes, g, out, grads = reference_pass(m)
    m.zeroGradParameters()
    for j, (k, v) in enumerate(zip(*as_lists(keys, values, sizes))):
        np.testing.assert_allclose(m.forward((k, v)), out[j], rtol=1e-13, atol=1e-15)
        m.backward((k, v), g[j])
    np.testing.assert_allclose(m.gradWeight, grads[0], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, grads[1], rtol=1e-13, atol=1e-15)


def test_output_buffer_reuse():
    m = make()
    keys, values, sizes = batch()
    out1 = m.forward((keys, values, sizes))
    kept = out1.copy()
    out2 = m.forward(batch((2, 2), seed=5))
    np.testing.assert_array_equal(out1, kept)
    assert m.forward(batch((1, 4), seed=6)) is out2
    single = m.forward(batch((3,), seed=7)[:2])
    assert single.shape == (N_OUT,) and m.forward(batch((5,), seed=8)[:2]) is single


def test_pickle_clone_and_clearState_keep_the_accumulated_gradient():
    m = make(normalize=True)
    keys, values, sizes = batch()
    g = uniform((len(sizes), N_OUT), 2)
    m.forward((keys, values, sizes))  # training: the maxima
    m.evaluate()
    m.zeroGradParameters()
    out = m.forward((keys, values, sizes)).copy()
    m.backward(None, g)
    for other in (pickle.loads(pickle.dumps(m)), m.clone()):
        np.testing.assert_array_equal(other.gradWeight, m.gradWeight)
        np.testing.assert_array_equal(other.weight, m.weight)
        np.testing.assert_array_equal(other.forward((keys, values, sizes)), out)
    m.clearState()
    assert m.output is None and m.keys is None and m.normalizedValues is None
    assert m.gradWeight.any()
    np.testing.assert_array_equal(m.forward((keys, values, sizes)), out)


def test_gradWeight_is_a_read_only_view():
    m = make()
    with pytest.raises(ValueError, match="read-only"):
        m.gradWeight.fill(0)
    message = ("IndexLinear keeps its weight gradient as per-key rows (Torch7's design); "
               "gradWeight is a read-only dense view and cannot be assigned or flattened")
    with raises_exactly(AttributeError, message):
        m.gradWeight = np.zeros_like(m.weight)
    with raises_exactly(AttributeError, message):
        m.flattenParameters()


def test_training_never_builds_the_dense_gradient():
    """The point of the per-key rows: no array the size of weight is made
    by forward, backward or the updates."""
    class NoDenseGradient(nn.IndexLinear):
        @property
        def gradWeight(self):
            raise AssertionError("the dense gradient was built")

    for normalize in (False, True):
        m = NoDenseGradient(N_IN, N_OUT, normalize=normalize)
        keys, values, sizes = batch()
        m.zeroGradParameters()
        m.forward((keys, values, sizes))
        m.backward((keys, values, sizes), uniform((len(sizes), N_OUT), 2))
        m.updateParameters(0.1)
        m.backwardUpdate((keys, values, sizes), uniform((len(sizes), N_OUT), 2), 0.1)
        m.float().forward((keys, values.astype(np.float32), sizes))


def test_repr():
    assert repr(make()) == "nn.IndexLinear(8 -> 3)"
    assert repr(make(normalize=True)) == "nn.IndexLinear(8 -> 3, normalized)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("keys, offset, message", [
    (np.array([1, 8]), 0, "keys[1] = 8 with keysOffset 0 is out of range: rows are [0, 8)"),
    (np.array([-1, 2]), 0, "keys[0] = -1 with keysOffset 0 is out of range: rows are [0, 8)"),
    (np.array([0, 6]), 2, "keys[1] = 6 with keysOffset 2 is out of range: rows are [0, 8)"),
    (np.array([2 ** 63 - 1]), 5, "keys[0] = 9223372036854775807 with keysOffset 5 is out of range: rows are [0, 8)"),
])
def test_out_of_range_keys(keys, offset, message):
    m = make(keysOffset=offset)
    before = m.weight.copy()
    with raises_exactly(thnn.THNNError, "IndexLinear_updateOutput: " + message):
        m.forward((keys, np.ones(len(keys))))
    with raises_exactly(thnn.THNNError, "IndexLinear_accUpdateGradParameters: " + message):
        thnn.Double.IndexLinear_accUpdateGradParameters(keys, offset, np.ones(len(keys)), np.array([len(keys)]),
                                                        np.ones((1, N_OUT)), m.weight, m.bias, 0.0, 1.0)
    with raises_exactly(thnn.THNNError, "IndexLinear_updateParameters: " + message):
        thnn.Double.IndexLinear_updateParameters(np.ones((len(keys), N_OUT)), np.ones(N_OUT), m.weight, m.bias,
                                                 keys, offset, 0.0, 1.0)
    np.testing.assert_array_equal(m.weight, before)


@pytest.mark.parametrize("sizes, message", [
    (np.array([1, 1]), "sizes sum to 2 but there are 3 keys"),
    (np.array([2, 2]), "sizes[1] = 2: sizes must be non-negative and sum to the 3 keys"),
    (np.array([4, -1]), "sizes[0] = 4: sizes must be non-negative and sum to the 3 keys"),
    (np.array([3, -1]), "sizes[1] = -1: sizes must be non-negative and sum to the 3 keys"),
])
def test_sizes_must_add_up(sizes, message):
    with raises_exactly(thnn.THNNError, "IndexLinear_updateOutput: " + message):
        make().forward((np.array([1, 2, 3]), np.ones(3), sizes))


def test_bad_input_forms():
    m = make()
    k, v = np.array([1, 2]), np.ones(2)
    with raises_exactly(TypeError, "IndexLinear: input must be (keys, values), ([keys...], [values...]) or "
                                   "(keys, values, sizes), got ndarray"):
        m.forward(v)
    with raises_exactly(TypeError, "IndexLinear: input must be (keys, values), ([keys...], [values...]) or "
                                   "(keys, values, sizes), got list of length 1"):
        m.forward([k])
    with raises_exactly(TypeError, "IndexLinear: keys must be an integer array, got float64"):
        m.forward((v, v))
    with raises_exactly(TypeError, "IndexLinear: keys must be an integer array, got list"):
        m.forward(([1, 2], v))
    with raises_exactly(TypeError, "IndexLinear: keys[1] must be an integer array, got list"):
        m.forward(([k, [1]], [v, v]))
    with raises_exactly(ValueError, "IndexLinear: values must be 1D [2] like its keys, got shape [3]"):
        m.forward((k, np.ones(3)))
    with raises_exactly(ValueError, "IndexLinear: keys must be 1D, got shape [1, 2]"):
        m.forward((k[None], v))
    with raises_exactly(ValueError, "IndexLinear: 2 key arrays but 1 value arrays"):
        m.forward(([k, k], [v]))
    with raises_exactly(TypeError, "IndexLinear: values is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        m.forward((k, v.astype(np.float32)))
    with raises_exactly(TypeError, "IndexLinear: values must be float32 or float64, got int64"):
        m.forward((k, k))
    with raises_exactly(TypeError, "IndexLinear: sizes must be an integer array, got list"):
        m.forward((k, v, [2]))
    np.testing.assert_array_equal(m.forward((k, v, 2)), m.forward((k, v))[None])


def test_backward_needs_a_forward_and_a_matching_gradOutput():
    m = make()
    with raises_exactly(ValueError, "IndexLinear: call forward before the backward verbs"):
        m.backward(None, np.zeros((1, N_OUT)))
    m.forward(batch((2, 1)))
    with raises_exactly(ValueError, "IndexLinear: gradOutput must be of shape [2, 3], got [3]"):
        m.backward(None, np.zeros(N_OUT))
    with raises_exactly(TypeError, "IndexLinear: gradOutput is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        m.backward(None, np.zeros((2, N_OUT), dtype=np.float32))
    with raises_exactly(thnn.THNNError, "IndexLinear_accGradParameters: gradOutput must be 2D of size [2, 3], "
                                        "got 2D of size [2, 4]"):
        thnn.Double.IndexLinear_accGradParameters(m.keys, 0, m.values, m.sizes, np.zeros((2, 4)), None,
                                                  m.gradBias, m.weight, m.bias, 1.0)


def test_no_gradInput_with_normalize_or_without_doGradInput():
    with raises_exactly(ValueError, "IndexLinear: doGradInput is not available with normalize "
                                    "(nor was it in Torch7)"):
        make(normalize=True, doGradInput=True)
    m = make(normalize=True)
    m.doGradInput = True
    m.forward(batch((2, 1)))
    with raises_exactly(NotImplementedError, "IndexLinear: updateGradInput is not implemented with normalize "
                                             "(nor was it in Torch7)"):
        m.backward(None, np.zeros((2, N_OUT)))
    m = make(doGradInput=False)
    m.forward(batch((2, 1)))
    assert m.backward(None, np.zeros((2, N_OUT))) == []


def test_constructor_checks_the_weight_it_is_given():
    with raises_exactly(ValueError, "IndexLinear: weight must be [inputSize, 4 + outputSize] for bias "
                                    "[outputSize], got [8, 3] and [3]"):
        nn.IndexLinear(8, 3, weight=np.zeros((8, 3)), normalize=True)
    with raises_exactly(thnn.THNNError, "IndexLinear_updateOutput: weight must be 2D [nIn, 3] or [nIn, 7] "
                                        "(normalized), got 2D of size [8, 5]"):
        thnn.Double.IndexLinear_updateOutput(np.array([1]), 0, np.ones(1), np.array([1]), None,
                                             np.zeros((8, 5)), np.zeros(3), None, True)


# ---------------------------------------------------------------- Torch7 files
@pytest.mark.parametrize("normalize", [False, True])
def test_a_torch7_index_linear_loads_with_0_based_keys(tmp_path, normalize):
    from t7_writer import T7Object, t7_bytes
    m = make(normalize=normalize, keysOffset=2)
    m.forward(batch(offset=2))  # training: normalisation columns in use
    fields = {"weight": m.weight, "bias": m.bias, "gradWeight": np.zeros(0), "gradBias": np.full(N_OUT, np.nan),
              "inputSize": float(N_IN), "outputSize": float(N_OUT), "normalize": 4.0 if normalize else 0.0,
              "offset": 1.0,  # Torch7 keysOffset 2: Lua key k -> row k + 1 (0-based), 0-based key k -> row k + 2
              "weightDecay": 0.0, "doGradInput": False, "running": {"counter": 1.0, "keys": {}}, "train": True}
    (tmp_path / "il.t7").write_bytes(t7_bytes(T7Object("nn.IndexLinear", fields)))
    loaded = nn.load_lua(str(tmp_path / "il.t7"))
    assert isinstance(loaded, nn.IndexLinear) and loaded.keysOffset == 2 and loaded.normalize == (4 if normalize else 0)
    assert (loaded.inputSize, loaded.outputSize) == (N_IN, N_OUT) and not hasattr(loaded, "running")
    m.evaluate(), loaded.evaluate()
    x = batch(seed=4, offset=2)
    np.testing.assert_array_equal(loaded.forward(x), m.forward(x))
    g = uniform((4, N_OUT), 2)
    m.zeroGradParameters(), loaded.zeroGradParameters()
    m.accGradParameters(x, g), loaded.accGradParameters(x, g)
    m.updateParameters(0.1), loaded.updateParameters(0.1)
    np.testing.assert_array_equal(loaded.weight, m.weight)
    with raises_exactly(AttributeError, "IndexLinear: inputSize is weight.shape[0]"):
        loaded.inputSize = 3
