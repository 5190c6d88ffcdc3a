"""nn_legacy.HardShrink and the HardShrink_* kernels: y = x if |x| > lambda else 0.

HardShrink and SoftShrink (x shrunk towards 0 by lambda) are one family: the
checks they share run here over FAMILY, each with its own numpy reference,
torch function and values; the cases only SoftShrink has are in
test_SoftShrink.py."""
import numpy as np
import pytest

import nn_legacy as nn
from activation_checks import check_any_layout, t7_module
from layer_checks import (assert_input_jacobian, check_forward_backward, check_matches_torch, check_nan_at,
                          torch_or_skip, uniform)

LAM = 0.7
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]
# name -> (numpy output, the NaN's place, [-0.3, 0.2, 0.3] or so and its output with lambda 0.25)
FAMILY = {
    "HardShrink": (lambda x: np.where(np.abs(x) > LAM, x, 0), (1, 3), ([-0.3, 0.2, 0.3], [-0.3, 0, 0.3])),
    "SoftShrink": (lambda x: np.sign(x) * np.maximum(np.abs(x) - LAM, 0), (2, 2), ([-0.5, 0.2, 0.5], [-0.25, 0, 0.25])),
}


def input_with_ties(shape, seed=1):
    """Uniform input with some elements exactly at +-lambda."""
    x = uniform(shape, seed)
    x.reshape(-1)[::5] = LAM
    x.reshape(-1)[2::5] = -LAM
    return x


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape, name):
    x, g = input_with_ties(shape), uniform(shape, 2)
    # both pass the gradient exactly where |x| > lambda
    check_forward_backward(getattr(nn, name)(LAM), x, g, FAMILY[name][0](x), np.where(np.abs(x) > LAM, g, 0))


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_torch(shape, name):
    torch = torch_or_skip()
    x, g = input_with_ties(shape), uniform(shape, 2)
    fn = getattr(torch.nn.functional, name.lower())
    check_matches_torch(getattr(nn, name)(LAM), lambda t: fn(t, LAM), x, g)


def test_default_is_torch7s():
    m = nn.HardShrink()
    assert m.lambd == 0.5
    np.testing.assert_array_equal(m.forward(np.array([-0.6, -0.5, 0.5, 0.6])), [-0.6, 0, 0, 0.6])


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_jacobian_away_from_plus_and_minus_lambda(shape, name):
    x = input_with_ties(shape, 3)
    report = assert_input_jacobian(getattr(nn, name)(LAM), x, kinks=(LAM, -LAM))
    assert report.skipped == np.count_nonzero(np.abs(x) == LAM) > 0


@pytest.mark.parametrize("name", FAMILY)
def test_nan_propagates(name):
    check_nan_at(getattr(nn, name)(LAM), uniform((3, 4), 1), FAMILY[name][1], uniform((3, 4), 2))


@pytest.mark.slow
@pytest.mark.parametrize("name", FAMILY)
def test_any_shape_and_layout(name):
    check_any_layout(lambda: getattr(nn, name)(LAM))


@pytest.mark.parametrize("name", FAMILY)
def test_repr(name):
    assert repr(getattr(nn, name)(LAM)) == f"nn.{name}(0.7)"


@pytest.mark.parametrize("name", FAMILY)
def test_loads_from_a_torch7_file(tmp_path, name):
    m = nn.load_lua(t7_module(tmp_path / "m.t7", f"nn.{name}", {"lambda": 0.25, "train": True}))
    assert isinstance(m, getattr(nn, name)) and m.lambd == 0.25 and not hasattr(m, "lambda")
    x, y = FAMILY[name][2]
    np.testing.assert_array_equal(m.forward(np.array(x)), y)
