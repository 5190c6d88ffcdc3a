"""nn_legacy.LookupTable and the LookupTable_* kernels: y[i] = W[x[i]]."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (check_pickle,
                          raises_exactly, torch_or_skip, uniform)

N_INDEX, N_OUT = 10, 4


def indices(shape, seed=0, n=N_INDEX):
    return np.random.default_rng(seed).integers(0, n, size=shape).astype(np.int64)


def numpy_gradWeight(x, g, n_index=N_INDEX, scale=1.0, padding=-1, by_freq=False):
    """gradWeight by the docstring's formula."""
    flat, rows = x.reshape(-1), g.reshape(-1, g.shape[-1])
    counts = np.bincount(flat, minlength=n_index)
    gw = np.zeros((n_index, g.shape[-1]))
    for k, row in zip(flat, rows):
        if k != padding:
            gw[k] += scale * row / (counts[k] if by_freq else 1)
    return gw


def p_norm(w, p):
    return np.max(np.abs(w), axis=-1) if np.isinf(p) else np.sum(np.abs(w) ** p, axis=-1) ** (1 / p)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("shape", [(7,), (3, 5)], ids=["1D", "2D"])
def test_forward_and_backward_match_numpy(shape):
    m = nn.LookupTable(N_INDEX, N_OUT)
    x, g = indices(shape, 1), uniform(shape + (N_OUT,), 2)
    np.testing.assert_array_equal(m.forward(x), m.weight[x])
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    assert gin.shape == x.shape and gin.dtype == x.dtype and not gin.any()
    np.testing.assert_allclose(m.gradWeight, numpy_gradWeight(x, g, scale=0.5), rtol=1e-14, atol=1e-15)
    m.backward(x, g, 0.5)  # gradients accumulate
    np.testing.assert_allclose(m.gradWeight, 2 * numpy_gradWeight(x, g, scale=0.5), rtol=1e-14, atol=1e-15)


def test_padding_rows_get_no_gradient():
    m = nn.LookupTable(N_INDEX, N_OUT, paddingValue=3)
    x = np.array([[3, 1, 3], [2, 3, 1]])
    g = uniform((2, 3, N_OUT), 2)
    np.testing.assert_array_equal(m.forward(x), m.weight[x])  # the padding row is still looked up
    m.zeroGradParameters()
    m.backward(x, g)
    assert not m.gradWeight[3].any()
    np.testing.assert_allclose(m.gradWeight, numpy_gradWeight(x, g, padding=3), rtol=1e-14, atol=1e-15)


def test_scaleGradByFreq_divides_by_the_count_in_the_batch():
    m = nn.LookupTable(N_INDEX, N_OUT).scaleGradByFreq()
    x = np.array([[1, 1, 1, 4], [4, 0, 1, 9]])
    g = uniform((2, 4, N_OUT), 2)
    m.zeroGradParameters()
    m.backward(x, g, 2.0)
    np.testing.assert_allclose(m.gradWeight, numpy_gradWeight(x, g, scale=2.0, by_freq=True),
                               rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight[1], 2.0 * g.reshape(-1, N_OUT)[[0, 1, 2, 6]].sum(0) / 4,
                               rtol=1e-14)


def test_float_arrays_of_whole_numbers_are_indices():
    m = nn.LookupTable(N_INDEX, N_OUT)
    x = indices((3, 5), 1)
    for other in (x.astype(np.float64), x.astype(np.float32), x.astype(np.uint8), x.astype(np.int32)):
        np.testing.assert_array_equal(m.forward(other), m.weight[x])


def test_empty_input():
    m = nn.LookupTable(N_INDEX, N_OUT)
    assert m.forward(np.zeros(0, dtype=np.int64)).shape == (0, N_OUT)
    assert m.forward(np.zeros((3, 0), dtype=np.int64)).shape == (3, 0, N_OUT)
    m.zeroGradParameters()
    m.backward(np.zeros((3, 0), dtype=np.int64), np.zeros((3, 0, N_OUT)))
    assert not m.gradWeight.any()


def test_weight_is_read_through_its_strides():
    m = nn.LookupTable(N_INDEX, N_OUT)
    x = indices((3, 5), 1)
    expected = m.weight[x]
    m.weight = np.asfortranarray(m.weight)
    np.testing.assert_array_equal(m.forward(x), expected)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_large_batch_copies_on_every_thread(threads, layout):
    # 40x100 indices of 300 rows of 64: above the size at which the rows are
    # copied on several threads; the strided table takes the element loop
    m = nn.LookupTable(300, 64)
    if layout == "strided":
        m.weight = np.asfortranarray(m.weight)
    x = indices((40, 100), 3, n=300)
    before = thnn.get_num_threads()
    try:
        thnn.set_num_threads(threads)
        np.testing.assert_array_equal(m.forward(x), m.weight[x])
    finally:
        thnn.set_num_threads(before)


# ---------------------------------------------------------------- maxNorm
@pytest.mark.parametrize("p", [1, 2, 3.5, np.inf])
def test_renorm_rescales_only_the_referenced_rows_above_maxNorm(p):
    m = nn.LookupTable(N_INDEX, N_OUT, maxNorm=1.5, normType=p)
    m.weight[...] = uniform((N_INDEX, N_OUT), 3)
    m.weight[2] *= 1e-3  # referenced but under the bound
    before = m.weight.copy()
    x = np.array([[2, 5, 5], [7, 2, 5]])
    out = m.forward(x)
    norms = p_norm(before, p)
    for k in range(N_INDEX):
        if k in (5, 7) and norms[k] > 1.5:
            np.testing.assert_allclose(m.weight[k], before[k] * 1.5 / (norms[k] + 1e-7), rtol=1e-14)
        else:
            np.testing.assert_array_equal(m.weight[k], before[k])  # untouched (row 5 once, not twice)
    assert norms[5] > 1.5 and norms[7] > 1.5
    np.testing.assert_array_equal(out, m.weight[x])
    np.testing.assert_allclose(p_norm(m.weight[[5, 7]], p), 1.5, rtol=1e-6)


def test_renorm_kernel_is_idempotent_and_checks_its_arguments():
    w = uniform((N_INDEX, N_OUT), 3) * 5
    thnn.Double.LookupTable_renorm(np.array([0, 1, 1]), w, 2.0, 2.0)
    once = w.copy()
    thnn.Double.LookupTable_renorm(np.array([0, 1, 1]), w, 2.0, 2.0)
    np.testing.assert_allclose(w, once, rtol=1e-6)
    with raises_exactly(thnn.THNNError, "LookupTable_renorm: normType must be positive, got 0"):
        thnn.Double.LookupTable_renorm(np.array([0]), w, 2.0, 0.0)
    with raises_exactly(thnn.THNNError, "LookupTable_renorm: maxNorm must be non-negative, got -1"):
        thnn.Double.LookupTable_renorm(np.array([0]), w, -1.0, 2.0)
    with raises_exactly(thnn.THNNError, "LookupTable_renorm: weight must be contiguous (it is written in place)"):
        thnn.Double.LookupTable_renorm(np.array([0]), np.asfortranarray(w), 2.0, 2.0)


def test_a_bad_index_leaves_the_table_alone_even_with_maxNorm():
    m = nn.LookupTable(N_INDEX, N_OUT, maxNorm=0.1)
    before = m.weight.copy()
    with raises_exactly(thnn.THNNError, "LookupTable_renorm: idx[1, 0] = 10 is out of range [0, 10)"):
        m.forward(np.array([[1, 2], [10, 3]]))
    np.testing.assert_array_equal(m.weight, before)


# ---------------------------------------------------------------- torch
@pytest.mark.parametrize("padding, by_freq", [(None, False), (2, False), (None, True), (2, True)])
def test_matches_torch_embedding(padding, by_freq):
    torch = torch_or_skip()
    m = nn.LookupTable(N_INDEX, N_OUT, paddingValue=-1 if padding is None else padding)
    if by_freq:
        m.scaleGradByFreq()
    x = np.array([[2, 5, 5, 1], [2, 2, 9, 0]])
    g = uniform((2, 4, N_OUT), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out = torch.nn.functional.embedding(torch.from_numpy(x), w, padding_idx=padding, scale_grad_by_freq=by_freq)
    out.backward(torch.from_numpy(g))
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out.detach().numpy())
    m.backward(x, g)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, float("inf")])
def test_maxNorm_matches_torch_embedding(p):
    torch = torch_or_skip()
    m = nn.LookupTable(N_INDEX, N_OUT, maxNorm=1.2, normType=p)
    m.weight[...] = uniform((N_INDEX, N_OUT), 5)
    x = np.array([[2, 5, 5, 1], [3, 2, 9, 0]])
    w = torch.from_numpy(m.weight.copy())
    out = torch.nn.functional.embedding(torch.from_numpy(x), w, max_norm=1.2, norm_type=p)
    np.testing.assert_allclose(m.forward(x), out.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.weight, w.numpy(), rtol=1e-13, atol=1e-15)  # both renormed in place


# ---------------------------------------------------------------- gradients
def test_accUpdateOnly_drops_the_gradient_but_still_trains():
    m = nn.LookupTable(N_INDEX, N_OUT).accUpdateOnly()
    assert m.gradWeight is None and m.parameters() == ([], [])
    x, g = indices((3, 4), 1), uniform((3, 4, N_OUT), 2)
    before = m.weight.copy()
    m.forward(x)
    m.backwardUpdate(x, g, 0.5)
    np.testing.assert_allclose(m.weight, before - 0.5 * numpy_gradWeight(x, g), rtol=1e-14, atol=1e-15)
    m.zeroGradParameters()  # nothing to zero, no error
    with raises_exactly(ValueError, "LookupTable: accUpdateOnly() dropped gradWeight; "
                                    "train with accUpdateGradParameters / backwardUpdate"):
        m.accGradParameters(x, g)


def test_in_a_sequential_the_gradient_reaches_the_table():
    nn.manualSeed(3)
    model = nn.Sequential().add(nn.LookupTable(N_INDEX, N_OUT)).add(nn.Linear(N_OUT, 2))
    x = np.array([4, 1, 4])
    g = uniform((3, 2), 2)
    model.zeroGradParameters()
    model.forward(x)
    model.backward(x, g)
    table, linear = model.modules
    np.testing.assert_allclose(table.gradWeight, numpy_gradWeight(x, g @ linear.weight), rtol=1e-14, atol=1e-15)


# ---------------------------------------------------------------- generic properties
def test_float32_renorm_matches_float64():
    m = nn.LookupTable(N_INDEX, N_OUT, maxNorm=1.0)
    m32 = m.clone().float()
    x = indices((3, 5), 1)
    out32 = m32.forward(x)
    assert out32.dtype == np.float32 and m32.weight.dtype == np.float32
    np.testing.assert_allclose(out32, m.forward(x), rtol=1e-4 * np.abs(m.weight).max())


def test_pickle_round_trip():
    m = nn.LookupTable(N_INDEX, N_OUT, paddingValue=1, maxNorm=2.0).scaleGradByFreq()
    check_pickle(m, indices((3, 4), 1), uniform((3, 4, N_OUT), 2))
    restored = pickle.loads(pickle.dumps(m))
    assert (restored.paddingValue, restored.maxNorm, restored.shouldScaleGradByFreq) == (1, 2.0, True)


def test_reset_draws_a_standard_normal_and_repeats_with_the_seed():
    nn.manualSeed(7)
    a = nn.LookupTable(1000, 20)
    assert abs(a.weight.mean()) < 0.02 and abs(a.weight.std() - 1) < 0.02
    nn.manualSeed(7)
    np.testing.assert_array_equal(nn.LookupTable(1000, 20).weight, a.weight)
    a.reset(0.1)
    assert abs(a.weight.std() - 0.1) < 0.002


def test_repr():
    assert repr(nn.LookupTable(10, 4)) == "nn.LookupTable(10 x 4)"
    assert repr(nn.LookupTable(10, 4, 0, 2.0)) == "nn.LookupTable(10 x 4, padding 0, maxNorm 2 (p = 2))"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("x, message", [
    (np.array([1, 10, 2]), "input[1] = 10 is out of range [0, 10)"),
    (np.array([[1, 2], [3, -1]]), "input[1, 1] = -1 is out of range [0, 10)"),
    (np.array([2 ** 64 - 1], dtype=np.uint64), "input[0] = -1 is out of range [0, 10)"),
])
def test_out_of_range_indices(x, message):
    m = nn.LookupTable(N_INDEX, N_OUT)
    with raises_exactly(thnn.THNNError, "LookupTable_updateOutput: " + message):
        m.forward(x)
    m.zeroGradParameters()
    with raises_exactly(thnn.THNNError, "LookupTable_accGradParameters: " + message):
        m.accGradParameters(x, np.zeros(x.shape + (N_OUT,)))
    assert not m.gradWeight.any()


def test_non_integer_float_indices():
    m = nn.LookupTable(N_INDEX, N_OUT)
    with raises_exactly(ValueError, "LookupTable: input[0, 1] = 2.5 is not an integer index"):
        m.forward(np.array([[1.0, 2.5]]))
    with raises_exactly(ValueError, "LookupTable: input[1] = nan is not an integer index"):
        m.forward(np.array([1.0, np.nan]))
    with raises_exactly(ValueError, "LookupTable: input[0] = 1e+30 is not an integer index"):
        m.forward(np.array([1e30]))


def test_bad_input_types():
    m = nn.LookupTable(N_INDEX, N_OUT)
    with raises_exactly(TypeError, "LookupTable: input must be an array of indices, got list"):
        m.forward([1, 2])
    with raises_exactly(TypeError, "LookupTable: input must hold integer indices, got bool"):
        m.forward(np.array([True, False]))
    with raises_exactly(TypeError, "LookupTable: input must hold integer indices, got complex128"):
        m.forward(np.array([1j]))


@pytest.mark.parametrize("shape, described", [((2, 2, 2), "3D of size [2, 2, 2]")])
def test_wrong_input_shape(shape, described):
    with raises_exactly(thnn.THNNError, f"LookupTable_updateOutput: input must be 1D [n] or 2D [batch, n] "
                                        f"indices, got {described}"):
        nn.LookupTable(N_INDEX, N_OUT).forward(np.zeros(shape, dtype=np.int64))


@pytest.mark.parametrize("g_shape, described", [
    ((2, 3, 5), "3D of size [2, 3, 5]"), ((2, 3), "2D of size [2, 3]"), ((3, 2, 4), "3D of size [3, 2, 4]")])
def test_mismatched_gradOutput(g_shape, described):
    m = nn.LookupTable(N_INDEX, N_OUT)
    x = indices((2, 3))
    m.forward(x)
    with raises_exactly(thnn.THNNError, f"LookupTable_accGradParameters: gradOutput must be 3D of size "
                                        f"[2, 3, 4], got {described}"):
        m.backward(x, np.zeros(g_shape))


def test_dtype_mixes():
    m = nn.LookupTable(N_INDEX, N_OUT)
    x = indices((2, 3))
    m.forward(x)
    with raises_exactly(TypeError, "LookupTable: gradOutput is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        m.backward(x, np.zeros((2, 3, N_OUT), dtype=np.float32))
    with raises_exactly(TypeError, "LookupTable: gradOutput must be a numpy array, got list"):
        m.backward(x, np.zeros((2, 3, N_OUT)).tolist())
    with raises_exactly(TypeError, "LookupTable_accGradParameters: gradWeight must be float64 like the "
                                   "other tensors, got float32"):
        thnn.Double.LookupTable_accGradParameters(x, np.zeros((2, 3, N_OUT)), np.zeros((N_INDEX, N_OUT), np.float32),
                                                  False, -1, 1.0)


def test_kernel_requires_a_writable_contiguous_gradWeight():
    gw = np.zeros((N_INDEX, N_OUT))
    with raises_exactly(thnn.THNNError, "LookupTable_accGradParameters: gradWeight must be contiguous "
                                        "(it is written in place)"):
        thnn.Double.LookupTable_accGradParameters(np.array([1]), np.zeros((1, N_OUT)), gw.T.copy().T,
                                                  False, -1, 1.0)
    gw.flags.writeable = False
    with raises_exactly(thnn.THNNError, "LookupTable_accGradParameters: gradWeight is written in place but "
                                        "the array is read-only"):
        thnn.Double.LookupTable_accGradParameters(np.array([1]), np.zeros((1, N_OUT)), gw, False, -1, 1.0)


def test_negative_sizes_are_refused():
    with raises_exactly(ValueError, "LookupTable: sizes must be non-negative, got -1 x 3"):
        nn.LookupTable(-1, 3)


# ---------------------------------------------------------------- Torch7 files
def test_a_torch7_lookup_table_loads_with_its_padding_made_0_based(tmp_path):
    from t7_writer import T7Object, t7_bytes
    weight = uniform((N_INDEX, N_OUT), 3)
    fields = {"weight": weight, "gradWeight": np.full((N_INDEX, N_OUT), np.nan), "paddingValue": 3.0,
              "shouldScaleGradByFreq": False, "_count": np.zeros(0), "train": True}
    (tmp_path / "lt.t7").write_bytes(t7_bytes(T7Object("nn.LookupTable", fields, version=4)))
    m = nn.load_lua(str(tmp_path / "lt.t7"))
    assert isinstance(m, nn.LookupTable) and m.paddingValue == 2 and m.maxNorm is None
    x, g = np.array([2, 0, 2]), uniform((3, N_OUT), 2)
    np.testing.assert_array_equal(m.forward(x), weight[x])
    m.backward(x, g)  # Torch7's padding row 3 is row 2 here: no gradient
    np.testing.assert_allclose(m.gradWeight, numpy_gradWeight(x, g, padding=2), rtol=1e-15)
    (tmp_path / "old.t7").write_bytes(t7_bytes(T7Object("nn.LookupTable", {"weight": weight}, version=1)))
    old = nn.load_lua(str(tmp_path / "old.t7"))
    assert (old.paddingValue, old.maxNorm, old.normType, old.shouldScaleGradByFreq) == (-1, None, None, False)
    np.testing.assert_array_equal(old.forward(x), weight[x])
