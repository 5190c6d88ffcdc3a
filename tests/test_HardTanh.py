"""nn_legacy.HardTanh and the HardTanh_* kernels: y = min(max(x, min_val), max_val)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import (check_any_layout, check_in_place, check_in_place_any_layout, check_in_place_views,
                               t7_module)
from layer_checks import (assert_input_jacobian, check_matches_torch, check_nan_at, raises_exactly, torch_or_skip,
                          uniform)

LO, HI = -0.8, 1.3
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def make(inplace=False):
    return nn.HardTanh(LO, HI, inplace)


def input_with_ties(shape, seed=1):
    """Uniform input with some elements exactly at the clip values."""
    x = uniform(shape, seed)
    x.reshape(-1)[::5] = LO
    x.reshape(-1)[2::5] = HI
    return x


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = make()
    x, g = input_with_ties(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.clip(x, LO, HI))
    np.testing.assert_array_equal(m.backward(x, g), np.where((x > LO) & (x < HI), g, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    # both give 0 gradient at the clip values
    x, g = input_with_ties(shape), uniform(shape, 2)
    check_matches_torch(make(), lambda t: torch.nn.functional.hardtanh(t, LO, HI), x, g)


def test_defaults_are_torch7s():
    m = nn.HardTanh()
    assert (m.min_val, m.max_val, m.inplace) == (-1.0, 1.0, False)
    np.testing.assert_array_equal(m.forward(np.array([-3.0, -1.0, 0.5, 1.0, 3.0])), [-1, -1, 0.5, 1, 1])


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kinks(shape):
    x = input_with_ties(shape, 3)
    report = assert_input_jacobian(make(), x, kinks=(LO, HI))
    assert report.skipped == np.count_nonzero((x == LO) | (x == HI)) > 0


def test_has_no_parameters():
    assert make().parameters() == ([], [])


def test_nan_propagates():
    check_nan_at(make(), uniform((3, 4), 1), (2, 3), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(make)


def test_empty_input_gives_empty_output():
    m = make()
    assert m.forward(np.zeros((0, 1))).shape == (0, 1)
    assert m.backward(np.zeros((0, 1)), np.zeros((0, 1))).shape == (0, 1)


def test_repr():
    assert repr(make()) == "nn.HardTanh(-0.8, 1.3)"
    assert repr(make(inplace=True)) == "nn.HardTanh(-0.8, 1.3, in-place)"


# ---------------------------------------------------------------- in place
def test_in_place_output_is_the_input_array():
    check_in_place(make, input_with_ties((4, 5), 1), uniform((4, 5), 2))


def test_in_place_on_strided_views():
    check_in_place_views(make, uniform((4, 5), 1), uniform((4, 5), 2))


def test_in_place_refuses_read_only_input():
    x = np.broadcast_to(uniform((5,)), (2, 5))
    with raises_exactly(thnn.THNNError, "HardTanh_updateOutput: input is written in place but the array "
                                        "is read-only"):
        make(inplace=True).forward(x)


@pytest.mark.slow
def test_in_place_on_any_shape_and_layout():
    check_in_place_any_layout(make)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("lo, hi", [(1.0, 1.0), (2.0, -2.0)])
def test_empty_range_is_refused(lo, hi):
    with raises_exactly(ValueError, f"HardTanh: max_value must be greater than min_value, "
                                    f"got min_value={lo}, max_value={hi}"):
        nn.HardTanh(lo, hi)
    with raises_exactly(thnn.THNNError, f"HardTanh_updateOutput: max_val must be greater than min_val, "
                                        f"got min_val={lo:g}, max_val={hi:g}"):
        thnn.Double.HardTanh_updateOutput(uniform((3,)), None, lo, hi, False)


def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "HardTanh_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [2, 1]"):
        m.backward(uniform((2, 3)), uniform((2, 1)))


def test_loads_from_a_torch7_file(tmp_path):
    fields = {"min_val": -0.5, "max_val": 2.0, "inplace": False, "train": True}
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.HardTanh", fields))
    assert isinstance(m, nn.HardTanh) and repr(m) == "nn.HardTanh(-0.5, 2)"
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 1.0, 3.0])), [-0.5, 1.0, 2.0])
