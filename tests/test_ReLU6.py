"""nn_legacy.ReLU6: y = min(max(x, 0), 6), Clamp(0, 6), in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_matches_torch, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy, check_in_place, from_torch7

SHAPES = [(7,), (4, 5), (2, 3, 4)]


def spread(shape, seed=1):
    """Inputs over [-3, 9] with some exactly at the kinks 0 and 6."""
    x = uniform(shape, seed, -3, 9)
    x.reshape(-1)[::6] = 0.0
    x.reshape(-1)[3::6] = 6.0
    return x


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.ReLU6()
    x, g = spread(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.minimum(np.maximum(x, 0), 6))
    np.testing.assert_array_equal(m.backward(x, g), np.where((x > 0) & (x < 6), g, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    check_matches_torch(nn.ReLU6(), torch.nn.functional.relu6, spread(shape), uniform(shape, 2))


def test_is_a_clamp_from_0_to_6():
    m = nn.ReLU6()
    assert isinstance(m, nn.Clamp) and (m.min_val, m.max_val) == (0.0, 6.0)


def test_jacobian_away_from_the_kinks():
    x = spread((4, 6), 3)
    report = assert_input_jacobian(nn.ReLU6(), x, kinks=(0, 6))
    assert report.skipped == np.count_nonzero((x == 0) | (x == 6)) > 0


def test_in_place():
    check_in_place(nn.ReLU6, lambda: nn.ReLU6(inplace=True), spread((4, 5)), uniform((4, 5), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.ReLU6(), spread((4, 5)), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.ReLU6()) == "nn.ReLU6"
    assert repr(nn.ReLU6(inplace=True)) == "nn.ReLU6(in-place)"


def test_loads_from_torch7_fields():
    m = from_torch7("nn.ReLU6", inplace=False)
    x = spread((3, 4))
    np.testing.assert_array_equal(m.forward(x), np.clip(x, 0, 6))
