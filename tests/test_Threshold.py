"""nn_legacy.Threshold and the Threshold_* kernels: y = x if x > threshold else value."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, assert_input_jacobian, check_matches_torch, check_nan_at, draw_shape,
                          noncontiguous_views, raises_exactly, run_hypothesis, torch_or_skip, uniform)

TH, VAL = 0.3, -0.7
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def make(inplace=False):
    return nn.Threshold(TH, VAL, inplace)


def input_with_ties(shape, seed=1):
    """Uniform input with a few elements exactly at the threshold."""
    x = uniform(shape, seed)
    x.reshape(-1)[::3] = TH
    return x


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = make()
    x, g = input_with_ties(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.where(x > TH, x, VAL))
    np.testing.assert_array_equal(m.backward(x, g), np.where(x > TH, g, 0))


def test_values_at_the_threshold_are_replaced():
    out = make().forward(np.array([TH - 1e-12, TH, TH + 1e-12]))
    np.testing.assert_array_equal(out, [VAL, VAL, TH + 1e-12])


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_matches_torch(make(), lambda t: torch.nn.functional.threshold(t, TH, VAL), x, g)


def test_defaults_are_torch7s():
    m = nn.Threshold()
    assert (m.threshold, m.val, m.inplace) == (1e-6, 0.0, False)
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 1e-6, 2e-6])), [0, 0, 2e-6])


def test_value_above_threshold_out_of_place():
    m = nn.Threshold(0.0, 5.0)
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 0.0, 1.0])), [5, 5, 1])


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kink(shape):
    x = input_with_ties(shape, 3)
    report = assert_input_jacobian(make(), x, kinks=(TH,))
    assert report.skipped == np.count_nonzero(x == TH) > 0


def test_has_no_parameters():
    assert make().parameters() == ([], [])


def test_nan_propagates():
    check_nan_at(make(), uniform((3, 4), 1), (0, 1), uniform((3, 4), 2))


def test_nan_never_crashes_and_leaves_other_elements_alone():
    m = make()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    clean, clean_grad = m.forward(x).copy(), m.backward(x, g).copy()
    x[0, 1] = np.nan
    out, grad = m.forward(x).copy(), m.backward(x, g).copy()
    others = np.ones(x.shape, dtype=bool)
    others[0, 1] = False
    np.testing.assert_array_equal(out[others], clean[others])
    np.testing.assert_array_equal(grad[others], clean_grad[others])


def test_empty_input_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0,))).shape == (0,)
    assert m.backward(np.zeros((0,)), np.zeros((0,))).shape == (0,)


def test_repr():
    assert repr(make()) == "nn.Threshold(0.3, -0.7)"
    assert repr(make(inplace=True)) == "nn.Threshold(0.3, -0.7, in-place)"


# ---------------------------------------------------------------- in place
def test_in_place_output_is_the_input_array():
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    expected_out = make().forward(x).copy()
    expected_grad = make().backward(x, g).copy()
    m = make(inplace=True)
    x_in, g_in = x.copy(), g.copy()
    out = m.forward(x_in)
    assert out is x_in
    np.testing.assert_array_equal(x_in, expected_out)
    grad = m.backward(x_in, g_in)  # x_in now holds the output, as in Torch7
    assert grad is g_in
    np.testing.assert_array_equal(g_in, expected_grad)


@pytest.mark.parametrize("view", range(3), ids=["transposed", "strided", "negative strides"])
def test_in_place_on_strided_views(view):
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    expected_out = make().forward(x).copy()
    expected_grad = make().backward(x, g).copy()
    name, xv = noncontiguous_views(x)[view]
    _, gv = noncontiguous_views(g)[view]
    base = xv.base.copy()
    m = make(inplace=True)
    assert m.forward(xv) is xv
    np.testing.assert_array_equal(xv, expected_out)
    untouched = np.ones(base.shape, dtype=bool)
    untouched[np.nonzero(np.isin(base, x))] = False
    np.testing.assert_array_equal(xv.base[untouched], base[untouched], err_msg="wrote outside the view")
    assert m.backward(xv, gv) is gv
    np.testing.assert_array_equal(gv, expected_grad)


def test_in_place_with_value_equal_to_threshold_is_allowed():
    m = nn.Threshold(0.5, 0.5, inplace=True)
    x = np.array([0.0, 0.5, 1.0])
    assert m.forward(x) is x
    np.testing.assert_array_equal(x, [0.5, 0.5, 1.0])
    g = np.ones(3)
    np.testing.assert_array_equal(m.backward(x, g), [0, 0, 1])


def test_in_place_with_value_above_threshold_is_refused():
    with raises_exactly(ValueError, "Threshold: in-place mode needs value <= threshold, "
                                    "got value=1.0, threshold=0.5"):
        nn.Threshold(0.5, 1.0, inplace=True)


def test_kernel_refuses_in_place_with_value_above_threshold():
    x = uniform((3,))
    kept = x.copy()
    with raises_exactly(thnn.THNNError, "Threshold_updateOutput: in-place mode needs val <= threshold, "
                                        "got val=1, threshold=0.5"):
        thnn.Double.Threshold_updateOutput(x, None, 0.5, 1.0, True)
    np.testing.assert_array_equal(x, kept)
    with raises_exactly(thnn.THNNError, "Threshold_updateGradInput: in-place mode needs val <= threshold, "
                                        "got val=1, threshold=0.5"):
        thnn.Double.Threshold_updateGradInput(x, np.ones(3), None, 0.5, 1.0, True)


def test_in_place_refuses_read_only_input():
    x = np.broadcast_to(uniform((5,)), (2, 5))
    with raises_exactly(thnn.THNNError, "Threshold_updateOutput: input is written in place but the array "
                                        "is read-only"):
        make(inplace=True).forward(x)


@pytest.mark.slow
def test_in_place_on_any_shape_and_layout():
    """In place on inputs of 1 to 4 dims in any memory layout: the output is
    the view itself, with the values out-of-place gives on a contiguous copy."""
    st = pytest.importorskip("hypothesis.strategies")

    def check(data):
        x = data.draw(arbitrary_views(draw_shape(data)), label="x")
        g = data.draw(arbitrary_views(x.shape), label="gradOutput")
        th = data.draw(st.floats(-3, 3), label="threshold")
        val = data.draw(st.floats(-5, th), label="value")
        ref = nn.Threshold(th, val)
        want_out = ref.forward(np.ascontiguousarray(x)).copy()
        want_grad = ref.backward(np.ascontiguousarray(x), np.ascontiguousarray(g)).copy()
        np.testing.assert_array_equal(want_out, np.where(x > th, x, val))
        m = nn.Threshold(th, val, inplace=True)
        assert m.forward(x) is x
        np.testing.assert_array_equal(x, want_out)
        assert m.backward(x, g) is g
        np.testing.assert_array_equal(g, want_grad)
    run_hypothesis(check)


# ---------------------------------------------------------------- bad input
def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "Threshold_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [2, 4]"):
        m.backward(uniform((2, 3)), uniform((2, 4)))


def test_mixed_precision_between_input_and_gradOutput():
    m = make()
    x = uniform((4, 5)).astype(np.float32)
    m.forward(x)
    with raises_exactly(TypeError, "Threshold_updateGradInput: gradOutput must be float32 like the other "
                                   "tensors, got float64"):
        m.backward(x, uniform((4, 5)))


@pytest.mark.parametrize("ndim", [0, thnn.MAX_DIM + 1])
def test_unsupported_number_of_dimensions(ndim):
    with raises_exactly(thnn.THNNError, f"Threshold_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got {ndim}"):
        make().forward(np.zeros((1,) * ndim))
