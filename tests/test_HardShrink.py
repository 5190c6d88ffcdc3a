"""nn_legacy.HardShrink and the HardShrink_* kernels: y = x if |x| > lambda else 0."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout, t7_module
from layer_checks import assert_input_jacobian, check_matches_torch, check_nan_at, torch_or_skip, uniform

LAM = 0.7
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def input_with_ties(shape, seed=1):
    """Uniform input with some elements exactly at +-lambda."""
    x = uniform(shape, seed)
    x.reshape(-1)[::5] = LAM
    x.reshape(-1)[2::5] = -LAM
    return x


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.HardShrink(LAM)
    x, g = input_with_ties(shape), uniform(shape, 2)
    keep = np.abs(x) > LAM
    np.testing.assert_array_equal(m.forward(x), np.where(keep, x, 0))
    np.testing.assert_array_equal(m.backward(x, g), np.where(keep, g, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = input_with_ties(shape), uniform(shape, 2)
    check_matches_torch(nn.HardShrink(LAM), lambda t: torch.nn.functional.hardshrink(t, LAM), x, g)


def test_default_is_torch7s():
    m = nn.HardShrink()
    assert m.lambd == 0.5
    np.testing.assert_array_equal(m.forward(np.array([-0.6, -0.5, 0.5, 0.6])), [-0.6, 0, 0, 0.6])


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_jumps(shape):
    x = input_with_ties(shape, 3)
    report = assert_input_jacobian(nn.HardShrink(LAM), x, kinks=(LAM, -LAM))
    assert report.skipped == np.count_nonzero(np.abs(x) == LAM) > 0


def test_nan_propagates():
    check_nan_at(nn.HardShrink(LAM), uniform((3, 4), 1), (1, 3), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(lambda: nn.HardShrink(LAM))


def test_repr():
    assert repr(nn.HardShrink(LAM)) == "nn.HardShrink(0.7)"


def test_loads_from_a_torch7_file(tmp_path):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.HardShrink", {"lambda": 0.25, "train": True}))
    assert isinstance(m, nn.HardShrink) and m.lambd == 0.25 and not hasattr(m, "lambda")
    np.testing.assert_array_equal(m.forward(np.array([-0.3, 0.2, 0.3])), [-0.3, 0, 0.3])
