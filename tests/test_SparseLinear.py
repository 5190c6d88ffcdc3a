"""nn_legacy.SparseLinear and the SparseLinear_* kernels: y = W x + b for x
given by its (feature, value) pairs."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, raises_exactly, torch_or_skip, uniform)

N_IN, N_OUT = 9, 3


def make(doGradInput=True):
    return nn.SparseLinear(N_IN, N_OUT, doGradInput)


def pairs(shape, seed=0, n_in=N_IN):
    """(feature, value) pairs: float array [..., nnz, 2], features drawn with repeats."""
    rng = np.random.default_rng(seed)
    out = np.empty(shape + (2,))
    out[..., 0] = rng.integers(0, n_in, size=shape)
    out[..., 1] = rng.uniform(-2, 2, size=shape)
    return out


def dense(samples, n_in=N_IN):
    """The dense [batch, nIn] matrix the pairs of each sample stand for (repeats add up)."""
    x = np.zeros((len(samples), n_in))
    for h, s in enumerate(samples):
        np.add.at(x[h], s[:, 0].astype(int), s[:, 1])
    return x


class ValuesOnly(nn.Module):
    """The layer as a function of the pair values alone, the features held
    fixed, so the harness can perturb the values (perturbing a feature index
    makes no sense).  d output / d (value of pair (k, v) of sample h) is
    entry k of sample h of the dense gradInput."""

    def __init__(self, layer, features):
        super().__init__()
        self.layer, self.features = layer, features

    def _input(self, values):
        return np.stack([self.features.astype(values.dtype), values], axis=-1)

    def updateOutput(self, values):
        self.output = self.layer.forward(self._input(values))
        return self.output

    def updateGradInput(self, values, gradOutput):
        dense_grad = self.layer.updateGradInput(self._input(values), gradOutput)[..., 1]
        self.gradInput = np.take_along_axis(dense_grad, self.features.astype(np.int64), axis=-1)
        return self.gradInput


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("form", ["single", "legacy", "list"])
def test_forward_and_backward_match_dense_numpy(form):
    m = make()
    if form == "single":
        x = pairs((6,), 1)
        samples, g = [x], uniform((N_OUT,), 2)
    elif form == "legacy":
        x = pairs((4, 6), 1)
        samples, g = list(x), uniform((4, N_OUT), 2)
    else:
        x = [pairs((n,), s) for s, n in enumerate((3, 0, 7, 1))]
        samples, g = x, uniform((4, N_OUT), 2)
    xd, g2 = dense(samples), np.atleast_2d(g)
    expected = xd @ m.weight.T + m.bias
    np.testing.assert_allclose(m.forward(x), expected[0] if form == "single" else expected, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    np.testing.assert_allclose(m.gradWeight, 0.5 * g2.T @ xd, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, 0.5 * g2.sum(0), rtol=1e-13, atol=1e-15)
    want = g2 @ m.weight
    if form == "list":
        assert len(gin) == 4
        for h, gi in enumerate(gin):
            np.testing.assert_array_equal(gi[:, 0], np.arange(N_IN))
            np.testing.assert_allclose(gi[:, 1], want[h], rtol=1e-13, atol=1e-15)
    else:
        np.testing.assert_array_equal(gin[..., 0], np.broadcast_to(np.arange(N_IN), gin.shape[:-1]))
        np.testing.assert_allclose(gin[..., 1], want[0] if form == "single" else want, rtol=1e-13, atol=1e-15)


def test_list_and_legacy_forms_agree():
    x = pairs((3, 5), 1)
    g = uniform((3, N_OUT), 2)
    a, b = make(), make()
    b.weight[...], b.bias[...] = a.weight, a.bias
    np.testing.assert_array_equal(a.forward(x), b.forward(list(x)))
    a.backward(x, g)
    b.backward(list(x), g)
    np.testing.assert_array_equal(a.gradWeight, b.gradWeight)
    np.testing.assert_array_equal(a.gradBias, b.gradBias)


def test_empty_batch_and_empty_samples():
    m = make()
    assert m.forward([]).shape == (0, N_OUT)
    np.testing.assert_array_equal(m.forward(np.zeros((0, 2))), m.bias)
    np.testing.assert_array_equal(m.forward(np.zeros((2, 0, 2))), np.tile(m.bias, (2, 1)))


def test_zero_values_are_skipped():
    """As in Torch7, a pair with value 0 contributes nothing, even against an
    infinite weight (0 * inf would be NaN)."""
    m = make()
    m.weight[:, 4] = np.inf
    x = np.array([[4, 0.0], [1, 2.0]])
    np.testing.assert_allclose(m.forward(x), 2.0 * m.weight[:, 1] + m.bias, rtol=1e-15)


def test_weightDecay_adds_to_the_whole_gradWeight():
    m = make()
    m.weightDecay = 0.1
    x, g = pairs((2, 3), 1), uniform((2, N_OUT), 2)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g, 0.5)
    np.testing.assert_allclose(m.gradWeight, 0.5 * g.T @ dense(x) + 0.1 * m.weight, rtol=1e-13, atol=1e-15)


def test_without_doGradInput_the_gradInput_is_empty():
    m = make(doGradInput=False)
    x, g = pairs((2, 3), 1), uniform((2, N_OUT), 2)
    m.forward(x)
    gin = m.backward(x, g)
    assert gin.shape == x.shape and not gin.any()
    assert m.backward(list(x), g) == []


def test_reset_draws_from_the_torch7_ranges():
    m = nn.SparseLinear(16, 50)
    assert np.all(np.abs(m.weight) <= 0.25) and m.weight.std() > 0.25 / 4
    assert np.all(np.abs(m.bias) <= 0.25e-6) and m.bias.std() > 0.25e-6 / 4
    m.reset(0.1)
    assert np.all(np.abs(m.weight) <= 0.1 * np.sqrt(3))


# ---------------------------------------------------------------- the COO kernels
def test_coo_kernels_match_the_legacy_ones_in_any_row_order():
    x = pairs((3, 4), 1)
    coo = np.concatenate([np.column_stack([np.full(4, h), x[h]]) for h in range(3)])
    shuffled = coo[np.random.default_rng(0).permutation(len(coo))]
    m = make()
    w, b, g = m.weight, m.bias, uniform((3, N_OUT), 2)
    out = thnn.Double.SparseLinear_legacyUpdateOutput(x, None, w, b)
    np.testing.assert_allclose(thnn.Double.SparseLinear_updateOutput(shuffled, None, w, b, 3), out, rtol=1e-14)
    gw1, gb1, gw2, gb2 = np.zeros_like(w), np.zeros_like(b), np.zeros_like(w), np.zeros_like(b)
    thnn.Double.SparseLinear_legacyAccGradParameters(x, g, gw1, gb1, w, b, 0.0, 1.0)
    thnn.Double.SparseLinear_accGradParameters(shuffled, g, gw2, gb2, w, b, 0.0, 1.0)
    np.testing.assert_allclose(gw2, gw1, rtol=1e-14)
    np.testing.assert_allclose(gb2, gb1, rtol=1e-14)


def test_coo_sample_rows_beyond_the_data_are_zero_plus_bias():
    m = make()
    out = thnn.Double.SparseLinear_updateOutput(np.array([[1, 2, 1.5]]), None, m.weight, m.bias, 4)
    np.testing.assert_array_equal(out[[0, 2, 3]], np.tile(m.bias, (3, 1)))
    np.testing.assert_allclose(out[1], 1.5 * m.weight[:, 2] + m.bias, rtol=1e-15)


# ---------------------------------------------------------------- sparse updates
@pytest.mark.parametrize("form", ["legacy", "list", "single"])
def test_one_accumulation_updates_only_the_columns_seen(form):
    """After one accGradParameters since zeroGradParameters, updateParameters
    and zeroGradParameters touch only the columns of the features with a
    nonzero value (Torch7's sparse update).  Markers planted in other
    columns of gradWeight show which path ran."""
    m = make()
    sample = np.array([[1, 0.5], [4, -1.0], [6, 0.0]])  # feature 6 has value 0: not seen
    x = {"legacy": sample[None], "list": [sample], "single": sample}[form]
    g = uniform((N_OUT,), 2)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g if form == "single" else g[None])
    expected_step = np.outer(g, dense([sample])[0])
    m.gradWeight[:, [0, 6]] = 100.0
    before_w, before_b = m.weight.copy(), m.bias.copy()
    m.updateParameters(0.1)
    np.testing.assert_allclose(m.weight, before_w - 0.1 * expected_step, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.bias, before_b - 0.1 * g, rtol=1e-14, atol=1e-15)
    m.zeroGradParameters()
    assert not m.gradWeight[:, [1, 4]].any() and not m.gradBias.any()
    assert np.all(m.gradWeight[:, [0, 6]] == 100.0)  # the sparse zeroing left them


@pytest.mark.parametrize("case", ["two accumulations", "forward after backward", "weight decay"])
def test_the_dense_path_runs_otherwise(case):
    m = make()
    x, g = pairs((2, 3), 1), uniform((2, N_OUT), 2)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g)
    if case == "two accumulations":
        m.backward(x, g)
    if case == "forward after backward":
        m.forward(x)
    if case == "weight decay":
        m.weightDecay = 1e-3
    marker_column = next(k for k in range(N_IN) if k not in x[..., 0])
    m.gradWeight[:, marker_column] = 100.0
    before, expected = m.weight.copy(), m.gradWeight.copy()
    m.updateParameters(0.1)
    np.testing.assert_allclose(m.weight, before - 0.1 * expected, rtol=1e-14, atol=1e-15)
    m.zeroGradParameters()
    assert not m.gradWeight.any()


def test_training_steps_match_dense_sgd():
    """A few zeroGrad / forward / backward / update rounds (sparse path)
    give the same weights as plain dense SGD."""
    m = make()
    W, b = m.weight.copy(), m.bias.copy()
    for step in range(4):
        x, g = pairs((2, 3), 10 + step), uniform((2, N_OUT), 20 + step)
        m.zeroGradParameters()
        m.forward(x)
        m.backward(x, g)
        m.updateParameters(0.05)
        W -= 0.05 * g.T @ dense(x)
        b -= 0.05 * g.sum(0)
    np.testing.assert_allclose(m.weight, W, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.bias, b, rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- torch
def test_matches_torch_on_the_dense_equivalent():
    torch = torch_or_skip()
    m = make()
    x, g = pairs((4, 5), 1), uniform((4, N_OUT), 2)
    xd = torch.from_numpy(dense(x)).requires_grad_(True)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out = torch.nn.functional.linear(xd, w, b)
    out.backward(torch.from_numpy(g))
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out.detach().numpy(), rtol=1e-13, atol=1e-15)
    gin = m.backward(x, g)
    np.testing.assert_allclose(gin[..., 1], xd.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("shape", [(5,), (3, 4)], ids=["single", "legacy"])
def test_jacobians(shape):
    m = make()
    x = pairs(shape, 3)
    assert_input_jacobian(ValuesOnly(m, x[..., 0]), x[..., 1])
    assert_parameter_jacobians(m, x)


# ---------------------------------------------------------------- generic properties
def test_noncontiguous_list_elements():
    m = make()
    x = [pairs((n,), s) for s, n in enumerate((3, 5))]
    out = m.forward(x).copy()
    strided = [np.asfortranarray(s) for s in x]
    np.testing.assert_array_equal(m.forward(strided), out)


def test_single_sample_output_is_reused():
    m = make()
    out = m.forward(pairs((4,), 1))
    assert m.forward(pairs((6,), 2)) is out


def test_repr():
    assert repr(make()) == "nn.SparseLinear(9 -> 3)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("x, message", [
    (np.array([[1, 0.5], [9, 1.0]]), "SparseLinear_updateOutput: input[1, 1] = 9 is not a feature index, "
                                     "an integer in [0, 9)"),
    (np.array([[-1, 0.5]]), "SparseLinear_updateOutput: input[0, 1] = -1 is not a feature index, "
                            "an integer in [0, 9)"),
    (np.array([[2.5, 0.5]]), "SparseLinear_updateOutput: input[0, 1] = 2.5 is not a feature index, "
                             "an integer in [0, 9)"),
    (np.array([[np.nan, 0.5]]), "SparseLinear_updateOutput: input[0, 1] = nan is not a feature index, "
                                "an integer in [0, 9)"),
    (np.array([[[1, 0.5]], [[12, 0.0]]]), "SparseLinear_legacyUpdateOutput: input[1, 0, 0] = 12 is not a "
                                          "feature index, an integer in [0, 9)"),
])
def test_bad_features_are_refused_even_with_value_0(x, message):
    with raises_exactly(thnn.THNNError, message):
        make().forward(x)


def test_bad_features_leave_the_gradients_alone():
    m = make()
    m.zeroGradParameters()
    with raises_exactly(thnn.THNNError, "SparseLinear_legacyAccGradParameters: input[0, 1, 0] = 20 is not a "
                                        "feature index, an integer in [0, 9)"):
        m.accGradParameters(np.array([[[1, 0.5], [20, 1.0]]]), np.ones((1, N_OUT)))
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_coo_kernel_checks_samples_and_batchSize():
    m = make()
    w, b = m.weight, m.bias
    with raises_exactly(thnn.THNNError, "SparseLinear_updateOutput: input[1, 0] = 3 is not a sample index, "
                                        "an integer in [0, 3)"):
        thnn.Double.SparseLinear_updateOutput(np.array([[0, 1, 1.0], [3, 1, 1.0]]), None, w, b, 3)
    with raises_exactly(thnn.THNNError, "SparseLinear_updateOutput: batchSize must be non-negative, got -1"):
        thnn.Double.SparseLinear_updateOutput(np.zeros((0, 3)), None, w, b, -1)
    with raises_exactly(thnn.THNNError, "SparseLinear_accGradParameters: input[0, 0] = 2 is not a sample "
                                        "index, an integer in [0, 2)"):
        thnn.Double.SparseLinear_accGradParameters(np.array([[2, 1, 1.0]]), np.zeros((2, N_OUT)),
                                                   np.zeros_like(w), np.zeros_like(b), w, b, 0.0, 1.0)
    with raises_exactly(thnn.THNNError, "SparseLinear_updateParameters: input[0, 0] = -1 is not a sample "
                                        "index, a non-negative integer"):
        thnn.Double.SparseLinear_updateParameters(w, b, np.zeros_like(w), np.zeros_like(b),
                                                  np.array([[-1, 1, 1.0]]), 0.1)


@pytest.mark.parametrize("x, message", [
    (np.zeros((3, 3)), "SparseLinear: input must be 2D [nnz, 2] (feature, value) rows, got shape [3, 3]"),
    (np.zeros(4), "SparseLinear: input must be [nnz, 2], [batch, nnz, 2] or a list of [nnz, 2] arrays, "
                  "got shape [4]"),
    ([np.zeros((2, 2)), np.zeros(2)], "SparseLinear: input[1] must be 2D [nnz, 2] (feature, value) rows, "
                                      "got shape [2]"),
])
def test_wrong_input_shapes(x, message):
    with raises_exactly(ValueError, message):
        make().forward(x)


def test_wrong_legacy_shape():
    with raises_exactly(thnn.THNNError, "SparseLinear_legacyUpdateOutput: input must be 3D [batch, nnz, 2] "
                                        "of (feature, value) pairs, got 3D of size [2, 3, 3]"):
        make().forward(np.zeros((2, 3, 3)))


def test_bad_types_and_dtype_mixes():
    m = make()
    with raises_exactly(TypeError, "SparseLinear: input must be an array or a list of arrays, got dict"):
        m.forward({})
    with raises_exactly(TypeError, "SparseLinear: input[0] must be an array of (feature, value) rows, got list"):
        m.forward([[[1, 0.5]]])
    with raises_exactly(TypeError, "SparseLinear: input must be float32 or float64, got int64"):
        m.forward(np.array([[1, 2]]))
    with raises_exactly(TypeError, "SparseLinear: input[1] is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        m.forward([pairs((2,)), pairs((2,)).astype(np.float32)])
    x = pairs((2, 3))
    m.forward(x)
    with raises_exactly(TypeError, "SparseLinear: gradOutput is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        m.backward(x, np.zeros((2, N_OUT), dtype=np.float32))


@pytest.mark.parametrize("input_shape, g_shape, expected", [
    ((2, 3), (2, 4), [2, 3]), ((2, 3), (3,), [2, 3]), ((3,), (1, 3), [3])])
def test_mismatched_gradOutput(input_shape, g_shape, expected):
    m = make()
    x = pairs(input_shape)
    m.forward(x)
    with raises_exactly(ValueError, f"SparseLinear: gradOutput must be of shape {expected}, got {list(g_shape)}"):
        m.backward(x, np.zeros(g_shape))


def test_failed_call_leaves_the_previous_output_alone():
    m = make()
    x = pairs((2, 3))
    out = m.forward(x)
    kept = out.copy()
    with pytest.raises(thnn.THNNError):
        m.forward(np.array([[[1, 0.5], [10, 1.0]], [[0, 1.0], [0, 1.0]]]))
    np.testing.assert_array_equal(out, kept)


def test_negative_sizes_are_refused():
    with raises_exactly(ValueError, "SparseLinear: sizes must be non-negative, got 3 -> -1"):
        nn.SparseLinear(3, -1)


# ---------------------------------------------------------------- Torch7 files
def test_a_torch7_sparse_linear_loads_without_its_1_based_last_input(tmp_path):
    from t7_writer import T7Object, t7_bytes
    m = make()
    fields = {"weight": m.weight, "bias": m.bias, "gradWeight": m.gradWeight, "gradBias": m.gradBias,
              "weightDecay": 0.0, "doGradInput": False, "sparseUpdate": 1.0, "legacyMode": True,
              "lastInput": np.array([[[9.0, 1.0]]]), "gradInput": {}, "train": True}
    (tmp_path / "sl.t7").write_bytes(t7_bytes(T7Object("nn.SparseLinear", fields)))
    loaded = nn.load_lua(str(tmp_path / "sl.t7"))
    assert isinstance(loaded, nn.SparseLinear) and loaded.lastInput is None and not loaded.doGradInput
    x, g = pairs((2, 3), 1), uniform((2, N_OUT), 2)
    np.testing.assert_array_equal(loaded.forward(x), m.forward(x))
    loaded.updateParameters(0.1)    # dense (nothing accumulated): the 1-based feature 9 is never used
    loaded.zeroGradParameters()
    loaded.backward(x, g)
    loaded.updateParameters(0.1)
    np.testing.assert_allclose(loaded.weight, m.weight - 0.1 * g.T @ dense(x), rtol=1e-14, atol=1e-15)
