"""nn_legacy.LeakyReLU and the LeakyReLU_* kernels: y = x if x > 0 else negval * x."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import (check_any_layout, check_in_place, check_in_place_any_layout, check_in_place_views,
                               t7_module)
from layer_checks import (assert_input_jacobian, check_matches_torch, check_nan_at, raises_exactly, torch_or_skip,
                          uniform, with_zeros)

NEGVAL = 0.2
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def make(inplace=False, negval=NEGVAL):
    return nn.LeakyReLU(negval, inplace)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("negval", [NEGVAL, -0.5])
def test_matches_numpy(shape, negval):
    m = make(negval=negval)
    x, g = with_zeros(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.where(x > 0, x, negval * x))
    np.testing.assert_array_equal(m.backward(x, g), np.where(x > 0, g, negval * g))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("negval", [NEGVAL, -0.5])
def test_matches_torch(shape, negval):
    torch = torch_or_skip()
    x, g = with_zeros(shape), uniform(shape, 2)
    check_matches_torch(make(negval=negval), lambda t: torch.nn.functional.leaky_relu(t, negval), x, g)


def test_defaults_are_torch7s():
    m = nn.LeakyReLU()
    assert (m.negval, m.inplace) == (0.01, False)


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kink(shape):
    x = with_zeros(shape, 3)
    report = assert_input_jacobian(make(), x, kinks=(0,))
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_has_no_parameters():
    assert make().parameters() == ([], [])


def test_nan_propagates():
    check_nan_at(make(), uniform((3, 4), 1), (1, 2), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(make)


def test_empty_input_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0, 4))).shape == (0, 4)
    assert m.backward(np.zeros((0, 4)), np.zeros((0, 4))).shape == (0, 4)


def test_repr():
    assert repr(make()) == "nn.LeakyReLU(0.2)"
    assert repr(make(inplace=True)) == "nn.LeakyReLU(0.2, in-place)"


# ---------------------------------------------------------------- in place
@pytest.mark.parametrize("negval", [NEGVAL, 0.0])
def test_in_place_output_is_the_input_array(negval):
    check_in_place(lambda inplace: make(inplace, negval), with_zeros((4, 5), 1), uniform((4, 5), 2))


def test_in_place_on_strided_views():
    check_in_place_views(make, uniform((4, 5), 1), uniform((4, 5), 2))


def test_in_place_with_negative_slope_is_refused():
    with raises_exactly(ValueError, "LeakyReLU: in-place mode needs negval >= 0, got negval=-0.5"):
        make(inplace=True, negval=-0.5)
    x = uniform((3,))
    kept = x.copy()
    with raises_exactly(thnn.THNNError, "LeakyReLU_updateOutput: in-place mode needs negval >= 0, "
                                        "got negval=-0.5"):
        thnn.Double.LeakyReLU_updateOutput(x, None, -0.5, True)
    np.testing.assert_array_equal(x, kept)
    with raises_exactly(thnn.THNNError, "LeakyReLU_updateGradInput: in-place mode needs negval >= 0, "
                                        "got negval=-0.5"):
        thnn.Double.LeakyReLU_updateGradInput(x, np.ones(3), None, -0.5, True)


def test_in_place_refuses_read_only_input():
    x = np.broadcast_to(uniform((5,)), (2, 5))
    with raises_exactly(thnn.THNNError, "LeakyReLU_updateOutput: input is written in place but the array "
                                        "is read-only"):
        make(inplace=True).forward(x)


@pytest.mark.slow
def test_in_place_on_any_shape_and_layout():
    check_in_place_any_layout(make)


# ---------------------------------------------------------------- bad input
def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "LeakyReLU_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 3]"):
        m.backward(uniform((2, 3)), uniform((3, 3)))


def test_loads_from_a_torch7_file(tmp_path):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.LeakyReLU", {"negval": 0.125, "train": True}))
    assert isinstance(m, nn.LeakyReLU) and (m.negval, m.inplace) == (0.125, False)
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 1.0])), [-0.125, 1.0])
