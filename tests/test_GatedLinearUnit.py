"""nn_legacy.GatedLinearUnit and the GatedLinear_* kernels: the input split
along dim into halves a, b; y = a * sigmoid(b)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import t7_module
from layer_checks import (arbitrary_views, check_matches_torch, draw_shape, raises_exactly, run_hypothesis,
                          torch_or_skip, uniform)

# (input shape, dim)
CASES = [((6,), 0), ((4, 6), 1), ((4, 6), 0), ((2, 4, 3), 1), ((2, 3, 2, 4), 3), ((2, 4, 2, 3), -3)]
CASE_IDS = ["1D", "2D-last", "2D-first", "3D-middle", "4D-last", "4D-negative"]


def halved(shape, dim):
    out = list(shape)
    out[dim] //= 2
    return tuple(out)


def numpy_glu(x, g, dim):
    """(y, dL/dx) by the formulas of the docstring."""
    a, b = np.split(x, 2, axis=dim)
    s = 1 / (1 + np.exp(-b))
    return a * s, np.concatenate([g * s, g * a * s * (1 - s)], axis=dim)


@pytest.mark.parametrize("shape, dim", CASES, ids=CASE_IDS)
def test_matches_numpy(shape, dim):
    m = nn.GatedLinearUnit(dim)
    x, g = uniform(shape, 1), uniform(halved(shape, dim), 2)
    y, gin = numpy_glu(x, g, dim)
    np.testing.assert_allclose(m.forward(x), y, rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=1e-17)


@pytest.mark.parametrize("shape, dim", CASES, ids=CASE_IDS)
def test_matches_torch(shape, dim):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(halved(shape, dim), 2)
    check_matches_torch(nn.GatedLinearUnit(dim), lambda t: torch.nn.functional.glu(t, dim), x, g, (1e-15, 0),
                        (1e-14, 1e-17))


def test_default_dim_is_the_last_as_in_torch7():
    x = uniform((2, 4, 6), 1)
    np.testing.assert_array_equal(nn.GatedLinearUnit().forward(x), nn.GatedLinearUnit(2).forward(x))
    assert nn.GatedLinearUnit().forward(uniform((8,), 1)).shape == (4,)


def test_extreme_gates_saturate_without_nan():
    m = nn.GatedLinearUnit()
    x = np.array([3.0, 3.0, -800.0, 800.0])
    np.testing.assert_array_equal(m.forward(x), [0.0, 3.0])
    np.testing.assert_array_equal(m.backward(x, np.ones(2)), [0.0, 1.0, 0.0, 0.0])


@pytest.mark.parametrize("index", [(1, 1), (1, 4)], ids=["in a", "in b"])
def test_nan_reaches_only_its_output(index):
    """A NaN in a or in its gate b makes exactly that output NaN, and only
    that output's pair of gradInput elements."""
    m = nn.GatedLinearUnit()
    x, g = uniform((3, 6), 1), uniform((3, 3), 2)
    clean_out, clean_grad = m.forward(x).copy(), m.backward(x, g).copy()
    x[index] = np.nan
    out, grad = m.forward(x).copy(), m.backward(x, g).copy()
    mask = np.zeros(out.shape, dtype=bool)
    mask[1, 1] = True
    np.testing.assert_array_equal(np.isnan(out), mask)
    np.testing.assert_array_equal(out[~mask], clean_out[~mask])
    pair = np.zeros(x.shape, dtype=bool)
    pair[1, [1, 4]] = True
    np.testing.assert_array_equal(grad[~pair], clean_grad[~pair])


@pytest.mark.slow
def test_any_shape_dim_and_layout():
    """1 to 4 dims of sizes 0 to 4 (the halved one doubled), any dim, input
    and gradOutput in any memory layout: exactly the results of contiguous
    copies, and the numpy formulas."""
    st = pytest.importorskip("hypothesis.strategies")

    def check(data):
        shape = list(draw_shape(data))
        dim = data.draw(st.integers(0, len(shape) - 1), label="dim")
        shape[dim] *= 2
        x = data.draw(arbitrary_views(tuple(shape)), label="x")
        g = data.draw(arbitrary_views(halved(shape, dim)), label="gradOutput")
        xc, gc = np.ascontiguousarray(x), np.ascontiguousarray(g)
        ref = nn.GatedLinearUnit(dim)
        want_out, want_grad = ref.forward(xc).copy(), ref.backward(xc, gc).copy()
        m = nn.GatedLinearUnit(dim)
        np.testing.assert_array_equal(m.forward(x), want_out)
        np.testing.assert_array_equal(m.backward(x, g), want_grad)
        y, gin = numpy_glu(xc, gc, dim)
        np.testing.assert_allclose(want_out, y, rtol=1e-15, atol=0)
        np.testing.assert_allclose(want_grad, gin, rtol=1e-14, atol=1e-17)
    run_hypothesis(check)


def test_empty_input():
    m = nn.GatedLinearUnit()
    assert m.forward(np.zeros((0, 4))).shape == (0, 2)
    assert m.backward(np.zeros((0, 4)), np.zeros((0, 2))).shape == (0, 4)
    assert nn.GatedLinearUnit().forward(np.zeros((3, 0))).shape == (3, 0)


def test_repr():
    assert repr(nn.GatedLinearUnit()) == "nn.GatedLinearUnit"
    assert repr(nn.GatedLinearUnit(1)) == "nn.GatedLinearUnit(1)"


# ---------------------------------------------------------------- bad input
def test_odd_size_along_dim():
    with raises_exactly(thnn.THNNError, "GatedLinear_updateOutput: input must be of even size along dim 1 "
                                        "(it is halved), got 2D of size [4, 5]"):
        nn.GatedLinearUnit().forward(np.zeros((4, 5)))
    with raises_exactly(thnn.THNNError, "GatedLinear_updateGradInput: input must be of even size along dim 0 "
                                        "(it is halved), got 2D of size [3, 4]"):
        nn.GatedLinearUnit(0).backward(np.zeros((3, 4)), np.zeros((1, 4)))


@pytest.mark.parametrize("dim", [2, -3])
def test_dim_out_of_range(dim):
    with raises_exactly(ValueError, f"GatedLinearUnit: dim {dim} is out of range for a 2D input of size [4, 6]"):
        nn.GatedLinearUnit(dim).forward(np.zeros((4, 6)))


@pytest.mark.parametrize("dim", [2, -1])
def test_kernel_refuses_dim_out_of_range(dim):
    with raises_exactly(thnn.THNNError, f"GatedLinear_updateOutput: input must be a tensor with a dim {dim} "
                                        f"(0-based) to halve, got 2D of size [4, 6]"):
        thnn.Double.GatedLinear_updateOutput(np.zeros((4, 6)), None, dim)


@pytest.mark.parametrize("g_shape, described", [((4, 6), "2D of size [4, 6]"), ((2, 6), "2D of size [2, 6]"),
                                                ((12,), "1D of size [12]")])
def test_mismatched_gradOutput(g_shape, described):
    m = nn.GatedLinearUnit()
    m.forward(uniform((4, 6)))
    with raises_exactly(thnn.THNNError, f"GatedLinear_updateGradInput: gradOutput must be 2D of size [4, 3], "
                                        f"got {described}"):
        m.backward(uniform((4, 6)), np.zeros(g_shape))


@pytest.mark.parametrize("fields, dim", [({"dim": 1.0}, 0), ({"dim": 2.0}, 1), ({}, None)])
def test_loads_from_a_torch7_file_with_its_1_based_dim(tmp_path, fields, dim):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.GatedLinearUnit", dict(fields, train=True)))
    assert isinstance(m, nn.GatedLinearUnit) and m.dim == dim
    x = uniform((4, 6), 1)
    np.testing.assert_array_equal(m.forward(x), nn.GatedLinearUnit(dim).forward(x))
