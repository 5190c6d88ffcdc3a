"""nn_legacy.RReLU and the RReLU_* kernels: y = x if x > 0 else a * x, with a
random slope a ~ U(lower, upper) per element in training (drawn by the module
from the nn_legacy generator) and a = (lower + upper) / 2 in evaluation."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from activation_checks import (check_any_layout, check_in_place, check_in_place_any_layout, check_in_place_views,
                               t7_module)
from layer_checks import (JACOBIAN_TOL, STEP, assert_float32_close, check_nan_at, noncontiguous_views, raises_exactly,
                          torch_forward_backward, torch_or_skip, uniform, with_zeros)
from nn_legacy import jacobian
from nn_legacy.serialization.t7 import T7Error

LOWER, UPPER = 0.1, 0.4
MEAN = (LOWER + UPPER) / 2
SEED = 99
SHAPES = [(7,), (4, 5), (2, 3, 4), (2, 2, 2, 3)]


def make(inplace=False, train=True):
    m = nn.RReLU(LOWER, UPPER, inplace)
    if not train:
        m.evaluate()
    return m


def expected_slopes(shape, seed=SEED):
    """The slopes the module draws after manualSeed(seed)."""
    return np.random.default_rng(seed).uniform(LOWER, UPPER, size=shape)


def seeded_forward_backward(m, x, g, seed=SEED):
    nn.manualSeed(seed)
    out = m.forward(x).copy()
    return out, m.backward(x, g).copy()


# ---------------------------------------------------------------- training mode
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_training_matches_numpy(shape):
    m = make()
    x, g = with_zeros(shape), uniform(shape, 2)
    out, grad = seeded_forward_backward(m, x, g)
    slope = np.where(x > 0, 1.0, expected_slopes(shape))
    np.testing.assert_array_equal(m.noise, slope)
    np.testing.assert_array_equal(out, x * slope)
    np.testing.assert_array_equal(grad, g * slope)


def test_training_slopes_are_uniform_in_the_bounds_and_fresh_each_forward():
    m = make()
    x = -np.ones(4000)
    first = m.forward(x).copy() * -1
    second = m.forward(x).copy() * -1
    for slopes in (first, second):
        assert LOWER <= slopes.min() and slopes.max() <= UPPER
        assert abs(slopes.mean() - MEAN) < 0.01 and abs(slopes.std() - (UPPER - LOWER) / 12 ** 0.5) < 0.01
    assert not np.array_equal(first, second)


def test_manualSeed_repeats_the_slopes():
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    a = seeded_forward_backward(make(), x, g, seed=5)
    b = seeded_forward_backward(make(), x, g, seed=5)
    c = seeded_forward_backward(make(), x, g, seed=6)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


def test_equal_bounds_give_a_fixed_slope_in_training():
    m = nn.RReLU(0.25, 0.25)
    x = uniform((3, 4), 1)
    np.testing.assert_array_equal(m.forward(x), np.where(x > 0, x, 0.25 * x))


@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_training_jacobian_with_repeated_slopes(shape):
    x = with_zeros(shape, 3)
    report = jacobian.testJacobian(make(), x, perturbation=STEP, kinks=(0,), seed=SEED)
    assert report < JACOBIAN_TOL, report
    assert report.skipped == np.count_nonzero(x == 0) > 0


def test_training_float32_matches_float64():
    x, g = uniform((6, 5), 1), uniform((6, 5), 2)
    out64, grad64 = seeded_forward_backward(make(), x, g)
    out32, grad32 = seeded_forward_backward(make().float(), x.astype(np.float32), g.astype(np.float32))
    assert_float32_close(out32, out64, "output")
    assert_float32_close(grad32, grad64, "gradInput")


@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)], ids=str)
def test_training_noncontiguous_input_and_gradOutput(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    m = make()
    want_out, want_grad = seeded_forward_backward(m, x, g)
    for (name, xv), (_, gv) in zip(noncontiguous_views(x), noncontiguous_views(g)):
        out, grad = seeded_forward_backward(m, xv, gv)
        np.testing.assert_array_equal(out, want_out, err_msg=name)
        np.testing.assert_array_equal(grad, want_grad, err_msg=name)


def test_noise_is_cleared_by_clearState():
    m = make()
    m.forward(uniform((3,)))
    assert m.noise.shape == (3,)
    m.clearState()
    assert m.noise is None and m.output is None


# ---------------------------------------------------------------- evaluation mode
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_evaluation_matches_numpy(shape):
    m = make(train=False)
    x, g = with_zeros(shape), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), np.where(x > 0, x, MEAN * x))
    np.testing.assert_array_equal(m.backward(x, g), np.where(x > 0, g, MEAN * g))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_evaluation_matches_torch(shape):
    torch = torch_or_skip()
    x, g = with_zeros(shape), uniform(shape, 2)
    out, gin = torch_forward_backward(
        lambda t: torch.nn.functional.rrelu(t, LOWER, UPPER, training=False), x, g)
    m = make(train=False)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)


def test_defaults_are_torch7s():
    m = nn.RReLU()
    assert (m.lower, m.upper, m.inplace, m.train) == (1 / 8, 1 / 3, False, True)


def test_has_no_parameters():
    assert make().parameters() == ([], [])


def test_pickle_round_trip_in_training():
    m = make()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    want = seeded_forward_backward(m, x, g)
    restored = pickle.loads(pickle.dumps(m))
    assert restored.train
    got = seeded_forward_backward(restored, x, g)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_evaluation_nan_propagates():
    check_nan_at(make(train=False), uniform((3, 4), 1), (1, 1), uniform((3, 4), 2))


def test_training_nan_propagates():
    """As check_nan_propagates, with the same slopes drawn for both runs."""
    m = make()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    clean_out, clean_grad = seeded_forward_backward(m, x, g)
    x[1, 1] = np.nan
    out, grad = seeded_forward_backward(m, x, g)
    mask = np.zeros(x.shape, dtype=bool)
    mask[1, 1] = True
    np.testing.assert_array_equal(np.isnan(out), mask)
    np.testing.assert_array_equal(out[~mask], clean_out[~mask])
    np.testing.assert_array_equal(grad[~mask], clean_grad[~mask])


@pytest.mark.slow
def test_evaluation_on_any_shape_and_layout():
    check_any_layout(lambda: make(train=False))


@pytest.mark.parametrize("train", [True, False], ids=["training", "evaluation"])
def test_empty_input_gives_empty_output(train):
    m = make(train=train)
    assert m.forward(np.zeros((0, 4))).shape == (0, 4)
    assert m.backward(np.zeros((0, 4)), np.zeros((0, 4))).shape == (0, 4)


def test_repr():
    assert repr(make()) == "nn.RReLU(0.1, 0.4)"
    assert repr(make(inplace=True)) == "nn.RReLU(0.1, 0.4, in-place)"


# ---------------------------------------------------------------- in place
@pytest.mark.parametrize("train", [True, False], ids=["training", "evaluation"])
def test_in_place_output_is_the_input_array(train):
    check_in_place(lambda inplace: make(inplace, train), with_zeros((4, 5), 1), uniform((4, 5), 2),
                   seed=SEED)


@pytest.mark.parametrize("train", [True, False], ids=["training", "evaluation"])
def test_in_place_on_strided_views(train):
    check_in_place_views(lambda inplace: make(inplace, train), uniform((4, 5), 1), uniform((4, 5), 2), seed=SEED)


def test_in_place_jacobian_in_training():
    report = jacobian.testJacobian(make(inplace=True), with_zeros((3, 4), 3), perturbation=STEP,
                                   kinks=(0,), seed=SEED)
    assert report < JACOBIAN_TOL, report


def test_in_place_refuses_read_only_input():
    x = np.broadcast_to(uniform((5,)), (2, 5))
    with raises_exactly(thnn.THNNError, "RReLU_updateOutput: input is written in place but the array is read-only"):
        make(inplace=True).forward(x)


@pytest.mark.slow
@pytest.mark.parametrize("train", [True, False], ids=["training", "evaluation"])
def test_in_place_on_any_shape_and_layout(train):
    check_in_place_any_layout(lambda inplace: make(inplace, train), seed=SEED)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("lower, upper", [(-0.1, 0.3), (0.5, 0.2)])
def test_bad_bounds_are_refused(lower, upper):
    with raises_exactly(ValueError, f"RReLU: the bounds must satisfy 0 <= lower <= upper, "
                                    f"got lower={lower}, upper={upper}"):
        nn.RReLU(lower, upper)
    with raises_exactly(thnn.THNNError, f"RReLU_updateOutput: the bounds must satisfy 0 <= lower <= upper, "
                                        f"got lower={lower:g}, upper={upper:g}"):
        thnn.Double.RReLU_updateOutput(uniform((3,)), None, None, lower, upper, False, False)


def test_kernel_needs_noise_in_training():
    with raises_exactly(thnn.THNNError, "RReLU_updateOutput: noise is required in training mode "
                                        "(the caller draws the slopes into it)"):
        thnn.Double.RReLU_updateOutput(uniform((3,)), None, None, LOWER, UPPER, True, False)
    with raises_exactly(thnn.THNNError, "RReLU_updateGradInput: noise is required in training mode "
                                        "(the caller draws the slopes into it)"):
        make().backward(uniform((3,)), uniform((3,)))  # backward before any forward


def test_kernel_refuses_noise_of_another_shape_or_strided():
    x = uniform((2, 3))
    with raises_exactly(thnn.THNNError, "RReLU_updateOutput: noise must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 2]"):
        thnn.Double.RReLU_updateOutput(x, None, np.full((3, 2), 0.2), LOWER, UPPER, True, False)
    with raises_exactly(thnn.THNNError, "RReLU_updateOutput: noise must be contiguous (it is written in place)"):
        thnn.Double.RReLU_updateOutput(x, None, np.full((3, 2), 0.2).T, LOWER, UPPER, True, False)
    m = make()
    m.forward(x)
    with raises_exactly(thnn.THNNError, "RReLU_updateGradInput: noise must be shaped as input "
                                        "(1D of size [6]), got 2D of size [2, 3]"):
        m.backward(uniform((6,)), uniform((6,)))


def test_kernel_applies_the_given_noise():
    x = np.array([-2.0, -1.0, 0.0, 3.0])
    noise = np.array([0.5, 0.25, 0.125, 0.3])
    out = thnn.Double.RReLU_updateOutput(x, None, noise, 0.0, 1.0, True, False)
    np.testing.assert_array_equal(out, [-1.0, -0.25, 0.0, 3.0])
    np.testing.assert_array_equal(noise, [0.5, 0.25, 0.125, 1.0])
    np.testing.assert_array_equal(
        thnn.Double.RReLU_updateGradInput(x, np.full(4, 2.0), None, noise, 0.0, 1.0, True, False),
        [1.0, 0.5, 0.25, 2.0])


def test_mismatched_gradOutput():
    m = make()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "RReLU_updateGradInput: gradOutput must be shaped as input "
                                        "(2D of size [2, 3]), got 2D of size [3, 2]"):
        m.backward(uniform((2, 3)), uniform((3, 2)))


def test_loads_from_a_torch7_file(tmp_path):
    fields = {"lower": 0.125, "upper": 0.25, "inplace": False, "train": False, "channelwise": False}
    m = nn.load_lua(t7_module(tmp_path / "m.t7", "nn.RReLU", fields))
    assert isinstance(m, nn.RReLU) and (m.lower, m.upper, m.train, m.noise) == (0.125, 0.25, False, None)
    np.testing.assert_array_equal(m.forward(np.array([-1.0, 2.0])), [-0.1875, 2.0])


def test_channelwise_torch7_file_is_refused(tmp_path):
    fields = {"lower": 0.125, "upper": 0.25, "inplace": False, "train": True, "channelwise": True}
    with raises_exactly(T7Error, "RReLU: channel-wise slopes (Torch7's channelwise=true) are not supported"):
        nn.load_lua(t7_module(tmp_path / "m.t7", "nn.RReLU", fields))
