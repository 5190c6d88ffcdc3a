"""nn_legacy.SoftMin: y = softmax(-x) over the feature dim, through the SoftMax kernels."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, check_nan_propagates, raises_exactly, torch_or_skip, uniform
from numpy_checks import check_bad_arrays_numpy, from_torch7

# shape -> the feature dim (as SoftMax)
LAYOUTS = {(6,): 0, (4, 5): 1, (5, 3, 2): 0, (2, 4, 3, 2): 1}
LAYOUT_IDS = ["1D", "2D", "3D", "4D"]


def softmin(x, dim):
    e = np.exp(-x - (-x).max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_numpy(shape):
    m = nn.SoftMin()
    x, g = uniform(shape, 1), uniform(shape, 2)
    dim = LAYOUTS[shape]
    y = softmin(x, dim)
    np.testing.assert_allclose(m.forward(x), y, rtol=1e-14, atol=0)
    expected = -y * (g - (y * g).sum(axis=dim, keepdims=True))
    np.testing.assert_allclose(m.backward(x, g), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_matches_torch(nn.SoftMin(), lambda t: torch.nn.functional.softmin(t, dim=LAYOUTS[shape]), x, g, (1e-14, 0),
                        (1e-12, 1e-15))


def test_is_the_softmax_of_the_negated_input():
    x = uniform((3, 4), 1)
    np.testing.assert_array_equal(nn.SoftMin().forward(x), nn.SoftMax().forward(-x))


def test_smallest_input_gets_the_largest_probability_and_large_inputs_do_not_overflow():
    out = nn.SoftMin().forward(np.array([[1000.0, -1000.0, 0.0]]))
    np.testing.assert_array_equal(out, [[0.0, 1.0, 0.0]])


def test_nan_spreads_over_its_sample_only():
    mask = np.zeros((3, 4), dtype=bool)
    mask[1] = True
    check_nan_propagates(nn.SoftMin(), uniform((3, 4), 1), (1, 2), mask, uniform((3, 4), 2))


def test_clearState_drops_the_negated_input():
    m = nn.SoftMin()
    m.forward(uniform((2, 3)))
    m.clearState()
    assert m._negated is None and m.output is None


def test_bad_arrays():
    check_bad_arrays_numpy(nn.SoftMin(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_unsupported_number_of_dimensions_is_named_for_SoftMin():
    with raises_exactly(ValueError, "SoftMin: input must be 1D, 2D, 3D or 4D, got 5D of size [1, 2, 1, 1, 2]"):
        nn.SoftMin().forward(np.zeros((1, 2, 1, 1, 2)))


def test_repr():
    assert repr(nn.SoftMin()) == "nn.SoftMin"


def test_loads_from_torch7_fields():
    m = from_torch7("nn.SoftMin")
    x = uniform((3, 4), 1)
    np.testing.assert_array_equal(m.forward(x), nn.SoftMax().forward(-x))
