"""nn_legacy.Linear and the Linear_* kernels: y = W x + b."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, check_own_output_as_input, noncontiguous_views,
                          raises_exactly, run_hypothesis, torch_forward_backward, torch_or_skip, uniform)

N_IN, N_OUT = 5, 3


def make(bias=True):
    return nn.Linear(N_IN, N_OUT, bias=bias)


def numpy_backward(m, x, g, scale=1.0):
    """(gradInput, gradWeight, gradBias) by the formulas of the docstring."""
    x2, g2 = np.atleast_2d(x), np.atleast_2d(g)
    return (g @ m.weight, scale * g2.T @ x2, scale * g2.sum(axis=0))


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("shape", [(N_IN,), (4, N_IN)], ids=["1D", "2D"])
def test_forward_and_backward_match_numpy(shape):
    m = make()
    x, g = uniform(shape, 1), uniform(shape[:-1] + (N_OUT,), 2)
    np.testing.assert_allclose(m.forward(x), x @ m.weight.T + m.bias, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    gin = m.backward(x, g, 0.5)
    want_gin, want_gw, want_gb = numpy_backward(m, x, g, 0.5)
    np.testing.assert_allclose(gin, want_gin, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-13, atol=1e-15)
    m.backward(x, g, 0.5)  # gradients accumulate
    np.testing.assert_allclose(m.gradWeight, 2 * want_gw, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, 2 * want_gb, rtol=1e-13, atol=1e-15)


def test_without_bias_matches_numpy():
    m = make(bias=False)
    assert m.bias is None and m.gradBias is None
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    np.testing.assert_allclose(m.forward(x), x @ m.weight.T, rtol=1e-13, atol=1e-15)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(x, g), g @ m.weight, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, g.T @ x, rtol=1e-13, atol=1e-15)
    assert len(m.parameters()[0]) == 1


def test_noBias_drops_the_bias():
    m = make().noBias()
    x = uniform((4, N_IN), 1)
    np.testing.assert_allclose(m.forward(x), x @ m.weight.T, rtol=1e-13, atol=1e-15)
    assert repr(m) == "nn.Linear(5 -> 3, without bias)"


@pytest.mark.parametrize("bias", [True, False])
def test_matches_torch(bias):
    torch = torch_or_skip()
    m = make(bias)
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True) if bias else None
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.linear(t, w, b), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-14)
    if bias:
        np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_reset_draws_from_the_torch7_range():
    m = nn.Linear(16, 50)
    bound = 1 / np.sqrt(16)
    assert np.all(np.abs(m.weight) <= bound) and np.all(np.abs(m.bias) <= bound)
    assert m.weight.std() > bound / 4  # really spread over the range, not all zero
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01) and np.all(np.abs(m.bias) <= 0.01)


def test_manualSeed_repeats_the_initial_weights():
    nn.manualSeed(7)
    a = make()
    nn.manualSeed(7)
    b = make()
    np.testing.assert_array_equal(a.weight, b.weight)
    np.testing.assert_array_equal(a.bias, b.bias)


# ---------------------------------------------------------------- gradients
# ---------------------------------------------------------------- generic properties
def test_noncontiguous_weight_and_bias():
    """Parameters assigned as strided views work like contiguous ones."""
    m = make()
    x, g = uniform((4, N_IN), 1), uniform((4, N_OUT), 2)
    out = m.forward(x).copy()
    gin = m.backward(x, g).copy()
    gw, gb = m.gradWeight.copy(), m.gradBias.copy()
    (_, w_view), (_, b_view) = noncontiguous_views(m.weight)[0], noncontiguous_views(m.bias)[1]
    m.weight, m.bias = w_view, b_view
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_array_equal(m.gradWeight, gw)
    np.testing.assert_array_equal(m.gradBias, gb)


def test_own_output_as_input_is_not_overwritten():
    m = nn.Linear(4, 4)
    check_own_output_as_input(m, uniform((3, 4), 1), lambda y: y @ m.weight.T + m.bias, (1e-13, 1e-15))


def test_nan_reaches_only_its_sample():
    m = make()
    x = uniform((4, N_IN), 1)
    clean = m.forward(x).copy()
    x[2, 3] = np.nan
    out = m.forward(x)
    assert np.all(np.isnan(out[2]))
    np.testing.assert_array_equal(np.delete(out, 2, axis=0), np.delete(clean, 2, axis=0))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n_in, n_out, shape", [
    (3000, 700, (3000,)), (3000, 700, (1, 3000)),    # one sample: the weight times a vector, cut in row slabs
    (1, 3000, (700, 1)), (3000, 1, (700, 3000)),     # one input or output feature: a row of the product
    (1, 1, (5, 1)), (4, 3, (1, 4))], ids=["1D", "batch1", "nIn1", "nOut1", "1x1", "tiny"])
def test_products_with_one_row_or_column(n_in, n_out, shape, threads):
    # products with one column or row (THBlas.c's gemmVector: OpenBLAS's gemv, not its gemm)
    # over output buffers holding NaN, which must be overwritten, not scaled
    before = thnn.get_num_threads()
    thnn.set_num_threads(threads)
    try:
        nn.manualSeed(3)
        m = nn.Linear(n_in, n_out)
        x, g = uniform(shape, 1), uniform(shape[:-1] + (n_out,), 2)
        m.output, m.gradInput = np.full(shape[:-1] + (n_out,), np.nan), np.full(shape, np.nan)
        m.zeroGradParameters()
        out, gin = m.forward(x).copy(), m.backward(x, g, 0.5).copy()
    finally:
        thnn.set_num_threads(before)
    np.testing.assert_allclose(out, x @ m.weight.T + m.bias, rtol=1e-12, atol=1e-12)
    want_gin, want_gw, want_gb = numpy_backward(m, x, g, 0.5)
    np.testing.assert_allclose(gin, want_gin, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-12, atol=1e-12)


def test_repr():
    assert repr(nn.Linear(5, 3)) == "nn.Linear(5 -> 3)"


@pytest.mark.slow
def test_any_sizes_and_layouts():
    """Sizes 0 to 5 and input, weight and gradOutput in any memory layout:
    the numpy formulas, and identical to contiguous copies."""
    st = pytest.importorskip("hypothesis.strategies")

    def check(data):
        batch, n_in, n_out = (data.draw(st.integers(0, 5), label=n) for n in ("batch", "nIn", "nOut"))
        bias = data.draw(st.booleans(), label="bias")
        x = data.draw(arbitrary_views((batch, n_in)), label="x")
        g = data.draw(arbitrary_views((batch, n_out)), label="gradOutput")
        m = nn.Linear(n_in, n_out, bias)
        m.weight = data.draw(arbitrary_views((n_out, n_in)), label="weight")
        ref = m.clone()
        ref.weight = np.ascontiguousarray(m.weight)
        xc, gc = np.ascontiguousarray(x), np.ascontiguousarray(g)
        for module in (m, ref):
            module.zeroGradParameters()
        out = m.forward(x)
        np.testing.assert_array_equal(out, ref.forward(xc))
        np.testing.assert_allclose(out, xc @ ref.weight.T + (ref.bias if bias else 0), rtol=1e-12, atol=1e-13)
        gin = m.backward(x, g)
        np.testing.assert_array_equal(gin, ref.backward(xc, gc))
        np.testing.assert_allclose(gin, gc @ ref.weight, rtol=1e-12, atol=1e-13)
        np.testing.assert_array_equal(m.gradWeight, ref.gradWeight)
        np.testing.assert_allclose(m.gradWeight, gc.T @ xc, rtol=1e-12, atol=1e-13)
        if bias:
            np.testing.assert_allclose(m.gradBias, gc.sum(axis=0), rtol=1e-12, atol=1e-13)
    run_hypothesis(check)


# ---------------------------------------------------------------- empty sizes
def test_empty_batch_gives_empty_output_and_no_gradient():
    m = make()
    x, g = np.zeros((0, N_IN)), np.zeros((0, N_OUT))
    assert m.forward(x).shape == (0, N_OUT)
    m.zeroGradParameters()
    assert m.backward(x, g).shape == (0, N_IN)
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_zero_input_features_give_the_bias():
    m = nn.Linear(0, 3)
    np.testing.assert_array_equal(m.forward(np.zeros((2, 0))), np.tile(m.bias, (2, 1)))
    np.testing.assert_array_equal(nn.Linear(0, 3, bias=False).forward(np.zeros((2, 0))), np.zeros((2, 3)))


def test_zero_output_features():
    m = nn.Linear(4, 0)
    assert m.forward(uniform((2, 4))).shape == (2, 0)
    np.testing.assert_array_equal(m.backward(uniform((2, 4)), np.zeros((2, 0))), np.zeros((2, 4)))


# ---------------------------------------------------------------- bad input
def test_negative_sizes_are_refused():
    with raises_exactly(ValueError, "Linear: sizes must be non-negative, got -1 -> 3"):
        nn.Linear(-1, 3)


@pytest.mark.parametrize("shape, described", [
    ((4, 6), "2D of size [4, 6]"),
    ((6,), "1D of size [6]"),
    ((2, 4, N_IN), "3D of size [2, 4, 5]"),
    ((4, 0), "2D of size [4, 0]"),
])
def test_wrong_input_shape(shape, described):
    with raises_exactly(thnn.THNNError, f"Linear_updateOutput: input must be 1D or 2D with 5 features, "
                                        f"got {described}"):
        make().forward(np.zeros(shape))


def test_zero_dimensional_input():
    with raises_exactly(thnn.THNNError, "Linear_updateOutput: input must have 1 to 8 dimensions, got 0"):
        make().forward(np.array(1.0))


@pytest.mark.parametrize("g_shape, described", [
    ((4, 2), "2D of size [4, 2]"), ((3, N_OUT), "2D of size [3, 3]"), ((4 * N_OUT,), "1D of size [12]")])
def test_mismatched_gradOutput(g_shape, described):
    m = make()
    x = uniform((4, N_IN))
    m.forward(x)
    with raises_exactly(thnn.THNNError, f"Linear_updateGradInput: gradOutput must be 2D of size [4, 3], "
                                        f"got {described}"):
        m.updateGradInput(x, np.zeros(g_shape))
    with raises_exactly(thnn.THNNError, f"Linear_accGradParameters: gradOutput must be 2D of size [4, 3], "
                                        f"got {described}"):
        m.accGradParameters(x, np.zeros(g_shape))
    assert not np.isnan(m.gradWeight).any()


def test_mismatched_gradOutput_1d():
    m = make()
    with raises_exactly(thnn.THNNError, "Linear_updateGradInput: gradOutput must be 1D of size [3], "
                                        "got 1D of size [4]"):
        m.backward(uniform((N_IN,)), np.zeros(4))


def test_float32_input_to_float64_module():
    with raises_exactly(TypeError, "Linear: input is float32 but the module is float64; "
                                   "convert the input or call module.float()"):
        make().forward(uniform((4, N_IN)).astype(np.float32))


def test_float64_input_to_float32_module():
    with raises_exactly(TypeError, "Linear: input is float64 but the module is float32; "
                                   "convert the input or call module.double()"):
        make().float().forward(uniform((4, N_IN)))


def test_bias_of_the_wrong_size():
    m = make()
    m.bias = np.zeros(4)
    with raises_exactly(thnn.THNNError, "Linear_updateOutput: bias must be 1D of size [3], got 1D of size [4]"):
        m.forward(uniform((4, N_IN)))


def test_failed_call_leaves_the_previous_output_alone():
    m = make()
    x = uniform((4, N_IN))
    out = m.forward(x)
    kept = out.copy()
    with pytest.raises(thnn.THNNError):
        m.forward(np.zeros((4, 7)))
    np.testing.assert_array_equal(out, kept)
    np.testing.assert_array_equal(m.forward(x), kept)
