"""nn_legacy.LogSoftMax and the LogSoftMax_* kernels: y_i = x_i - log sum_j exp(x_j)
over the feature dim (dim 0 of 1D and 3D input, dim 1 of 2D and 4D)."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, check_matches_torch, check_nan_propagates, draw_shape, raises_exactly,
                          run_hypothesis, torch_or_skip, uniform)

LAYOUTS = {(6,): 0, (4, 5): 1, (5, 3, 2): 0, (2, 4, 3, 2): 1}
LAYOUT_IDS = ["1D", "2D", "3D", "4D"]


def feature_dim(x):
    return {1: 0, 2: 1, 3: 0, 4: 1}[x.ndim]


def log_softmax(x):
    d = feature_dim(x)
    shifted = x - x.max(axis=d, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=d, keepdims=True))


def log_softmax_grad(y, g):
    return g - np.exp(y) * g.sum(axis=feature_dim(y), keepdims=True)


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_numpy(shape):
    m = nn.LogSoftMax()
    x, g = uniform(shape, 1), uniform(shape, 2)
    y = log_softmax(x)
    np.testing.assert_allclose(m.forward(x), y, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.backward(x, g), log_softmax_grad(y, g), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_torch(shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_matches_torch(nn.LogSoftMax(), lambda t: torch.log_softmax(t, dim=LAYOUTS[shape]), x, g, (1e-14, 1e-15),
                        (1e-12, 1e-15))


@pytest.mark.parametrize("shape", [(5, 3, 2), (2, 4, 3, 2)], ids=["3D", "4D"])
def test_spatial_forms_take_a_log_softmax_at_every_pixel(shape):
    x = uniform(shape, 1)
    out = nn.LogSoftMax().forward(x)
    per_pixel = nn.LogSoftMax()
    lead = (slice(None),) * (x.ndim - 2)
    for index in np.ndindex(*shape[-2:]):
        np.testing.assert_array_equal(out[lead + index], per_pixel.forward(x[lead + index]))


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_is_the_log_of_softmax(shape):
    x = uniform(shape, 1)
    np.testing.assert_allclose(nn.LogSoftMax().forward(x), np.log(nn.SoftMax().forward(x)),
                               rtol=1e-13, atol=1e-15)


def test_large_inputs_do_not_overflow():
    m = nn.LogSoftMax()
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
    # exact to the resolution of the input itself (one ulp of 1000 is 1.1e-13)
    ulp = np.spacing(1001.0)
    np.testing.assert_allclose(out[0], log_softmax(np.array([1.0, 2.0, 0.0])), rtol=0, atol=ulp)
    np.testing.assert_allclose(out[1], log_softmax(np.array([-1.0, -2.0, 0.0])), rtol=0, atol=ulp)


def test_far_below_the_maximum_stays_finite():
    """log(softmax) would give -inf here; the shifted form keeps the value."""
    out = nn.LogSoftMax().forward(np.array([0.0, -800.0]))
    np.testing.assert_allclose(out, [0.0, -800.0], rtol=1e-15, atol=1e-300)


def test_minus_infinity_stays_minus_infinity():
    m = nn.LogSoftMax()
    x = np.array([[-np.inf, 0.0, 0.0]])
    np.testing.assert_array_equal(m.forward(x), [[-np.inf, -np.log(2), -np.log(2)]])
    np.testing.assert_allclose(m.backward(x, np.array([[1.0, 1.0, 0.0]])), [[1.0, 0.0, -1.0]], rtol=1e-15)


def test_nan_spreads_over_its_sample_only():
    x = uniform((3, 4), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[2, :] = True
    check_nan_propagates(nn.LogSoftMax(), x, (2, 0), mask, uniform((3, 4), 2))


def test_nan_spreads_over_its_pixel_only():
    x = uniform((3, 2, 2), 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[:, 1, 0] = True
    check_nan_propagates(nn.LogSoftMax(), x, (0, 1, 0), mask, uniform((3, 2, 2), 2))


def test_empty_batch_gives_empty_output():
    m = nn.LogSoftMax()
    assert m.forward(np.zeros((0, 5))).shape == (0, 5)
    assert m.backward(np.zeros((0, 5)), np.zeros((0, 5))).shape == (0, 5)


def test_repr():
    assert repr(nn.LogSoftMax()) == "nn.LogSoftMax"


@pytest.mark.slow
def test_any_shape_and_layout():
    """1D to 4D inputs of any sizes (0 and 1 included) in any memory layout:
    identical to the contiguous copy, and the numpy formula."""

    def check(data):
        x = data.draw(arbitrary_views(draw_shape(data)), label="x")
        g = data.draw(arbitrary_views(x.shape), label="gradOutput")
        xc, gc = np.ascontiguousarray(x), np.ascontiguousarray(g)
        m, ref = nn.LogSoftMax(), nn.LogSoftMax()
        out = m.forward(x)
        np.testing.assert_array_equal(out, ref.forward(xc))
        np.testing.assert_array_equal(m.backward(x, g), ref.backward(xc, gc))
        if x.size:
            np.testing.assert_allclose(out, log_softmax(xc), rtol=1e-13, atol=1e-15)
    run_hypothesis(check)


# ---------------------------------------------------------------- bad input
def test_more_than_four_dimensions():
    with raises_exactly(thnn.THNNError, "LogSoftMax_updateOutput: input must be 1D, 2D, 3D or 4D, "
                                        "got 5D of size [1, 2, 1, 2, 1]"):
        nn.LogSoftMax().forward(np.zeros((1, 2, 1, 2, 1)))
