"""nn_legacy.SoftShrink and the SoftShrink_* kernels: shrink x towards 0 by lambda."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import check_any_layout, t7_module
from layer_checks import (assert_input_jacobian, check_matches_torch, check_nan_at, raises_exactly, torch_or_skip,
                          uniform)

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
    m = nn.SoftShrink(LAM)
    x, g = input_with_ties(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.sign(x) * np.maximum(np.abs(x) - LAM, 0))
    np.testing.assert_array_equal(m.backward(x, g), np.where(np.abs(x) > LAM, g, 0))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = input_with_ties(shape), uniform(shape, 2)
    check_matches_torch(nn.SoftShrink(LAM), lambda t: torch.nn.functional.softshrink(t, LAM), x, g)


def test_default_is_torch7s():
    m = nn.SoftShrink()
    assert m.lambd == 0.5
    np.testing.assert_array_equal(m.forward(np.array([-1.5, -0.5, 0.25, 0.5, 2.0])), [-1, 0, 0, 0, 1.5])


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_the_kinks(shape):
    x = input_with_ties(shape, 3)
    report = assert_input_jacobian(nn.SoftShrink(LAM), x, kinks=(LAM, -LAM))
    assert report.skipped == np.count_nonzero(np.abs(x) == LAM) > 0


def test_nan_propagates():
    check_nan_at(nn.SoftShrink(LAM), uniform((3, 4), 1), (2, 2), uniform((3, 4), 2))


@pytest.mark.slow
def test_any_shape_and_layout():
    check_any_layout(lambda: nn.SoftShrink(LAM))


def test_repr():
    assert repr(nn.SoftShrink(LAM)) == "nn.SoftShrink(0.7)"


def test_negative_lambda_is_refused():
    with raises_exactly(ValueError, "SoftShrink: lambda must be >= 0, got -0.5"):
        nn.SoftShrink(-0.5)
    with raises_exactly(thnn.THNNError, "SoftShrink_updateOutput: lambda must be >= 0, got -0.5"):
        thnn.Double.SoftShrink_updateOutput(uniform((3,)), None, -0.5)


def test_loads_from_a_torch7_file(tmp_path):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.SoftShrink", {"lambda": 0.25, "train": True}))
    assert isinstance(m, nn.SoftShrink) and m.lambd == 0.25 and not hasattr(m, "lambda")
    np.testing.assert_array_equal(m.forward(np.array([-0.5, 0.2, 0.5])), [-0.25, 0, 0.25])
