"""nn_legacy.ELU and the ELU_* kernels: y = x if x > 0 else alpha * (exp(x) - 1)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import (check_any_layout, check_in_place, check_in_place_any_layout, check_in_place_views,
                               t7_module)
from layer_checks import (assert_input_jacobian, check_matches_torch, check_nan_at, raises_exactly,
                          torch_forward_backward, torch_or_skip, uniform, with_zeros)

ALPHA = 0.6
# in place the gradient comes from the output, dL/dy * (y + alpha), which
# for x in [-3, 0] rounds within 2e-15 (relative) of dL/dy * alpha * exp(x)
IN_PLACE_GRAD_RTOL = 1e-14
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def make(inplace=False, alpha=ALPHA):
    return nn.ELU(alpha, inplace)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("alpha", [ALPHA, 1.0, -0.5])
def test_matches_numpy(shape, alpha):
    m = make(alpha=alpha)
    x, g = with_zeros(shape), uniform(shape, 2)
    # numpy's expm1 and the C library's may differ in the last bit
    np.testing.assert_allclose(m.forward(x), np.where(x > 0, x, alpha * np.expm1(x)), rtol=1e-15, atol=0)
    np.testing.assert_allclose(m.backward(x, g), np.where(x > 0, g, g * alpha * np.exp(x)), rtol=1e-15, atol=0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("alpha", [ALPHA, -0.5])
def test_matches_torch(shape, alpha):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_matches_torch(make(alpha=alpha), lambda t: torch.nn.functional.elu(t, alpha), x, g, (1e-15, 0), (1e-15, 0))


def test_defaults_are_torch7s():
    m = nn.ELU()
    assert (m.alpha, m.inplace) == (1.0, False)


def test_jacobian_smooth_at_zero_for_alpha_one():
    report = assert_input_jacobian(make(alpha=1.0), with_zeros((3, 4), 3))
    assert report.skipped == 0


def test_has_no_parameters():
    assert make().parameters() == ([], [])


def test_nan_propagates():
    check_nan_at(make(), uniform((3, 4), 1), (0, 2), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(make)


def test_empty_input_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0,))).shape == (0,)
    assert m.backward(np.zeros((0,)), np.zeros((0,))).shape == (0,)


def test_repr():
    assert repr(make()) == "nn.ELU(alpha=0.6)"
    assert repr(make(inplace=True)) == "nn.ELU(alpha=0.6, in-place)"


# ---------------------------------------------------------------- in place
@pytest.mark.parametrize("alpha", [ALPHA, 0.0])
def test_in_place_output_is_the_input_array(alpha):
    check_in_place(lambda inplace: make(inplace, alpha), with_zeros((4, 5), 1), uniform((4, 5), 2),
                   grad_rtol=IN_PLACE_GRAD_RTOL)


def test_in_place_on_strided_views():
    check_in_place_views(make, uniform((4, 5), 1), uniform((4, 5), 2), grad_rtol=IN_PLACE_GRAD_RTOL)


def test_in_place_gradient_from_the_output_matches_torch():
    torch = torch_or_skip()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.elu(t, ALPHA), x, g)
    m = make(inplace=True)
    m.forward(x)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=0)


def test_in_place_with_negative_alpha_is_refused():
    with raises_exactly(ValueError, "ELU: in-place mode needs alpha >= 0, got alpha=-0.5"):
        make(inplace=True, alpha=-0.5)
    x = uniform((3,))
    kept = x.copy()
    with raises_exactly(thnn.THNNError, "ELU_updateOutput: in-place mode needs alpha >= 0, got alpha=-0.5"):
        thnn.Double.ELU_updateOutput(x, None, -0.5, True)
    np.testing.assert_array_equal(x, kept)
    with raises_exactly(thnn.THNNError, "ELU_updateGradInput: in-place mode needs alpha >= 0, got alpha=-0.5"):
        thnn.Double.ELU_updateGradInput(x, np.ones(3), None, x, -0.5, True)


def test_in_place_refuses_read_only_input():
    x = np.broadcast_to(uniform((5,)), (2, 5))
    with raises_exactly(thnn.THNNError, "ELU_updateOutput: input is written in place but the array is read-only"):
        make(inplace=True).forward(x)


@pytest.mark.slow
def test_in_place_on_any_shape_and_layout():
    check_in_place_any_layout(make, grad_rtol=IN_PLACE_GRAD_RTOL)


# ---------------------------------------------------------------- bad input
def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "ELU_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 2]"):
        m.backward(uniform((2, 3)), uniform((3, 2)))


def test_output_of_another_shape():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "ELU_updateGradInput: output must be shaped as input "
                                        "(1D of size [6]), got 2D of size [2, 3]"):
        m.backward(uniform((6,)), uniform((6,)))


def test_loads_a_torch7_file_older_than_the_in_place_option(tmp_path):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.ELU", {"alpha": 0.5, "train": True}))
    assert isinstance(m, nn.ELU) and (m.alpha, m.inplace) == (0.5, False)
    x = np.array([-1.0, 1.0])
    np.testing.assert_array_equal(m.forward(x), nn.ELU(0.5).forward(x))
