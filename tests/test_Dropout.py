"""nn_legacy.Dropout: y = x * noise while training (noise 0 or 1/(1-p)), identity while evaluating."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy import jacobian
from nn_legacy._helpers.random import generator
from layer_checks import (JACOBIAN_TOL, STEP, assert_float32_close, check_pickle,
                          noncontiguous_views, raises_exactly, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, check_in_place, from_torch7

P = 0.3


def expected_noise(shape, p, seed, scaled=True):
    """The noise Dropout draws after manualSeed(seed): 0 with probability p, else 1/(1-p)."""
    nn.manualSeed(seed)
    keep = generator().random(shape) >= p
    return keep * (1 / (1 - p) if scaled and p < 1 else 1.0)


def forward_seeded(m, x, seed):
    nn.manualSeed(seed)
    return m.forward(x)


@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)], ids=str)
def test_training_matches_numpy(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    noise = expected_noise(shape, P, 5)
    m = nn.Dropout(P)
    np.testing.assert_array_equal(forward_seeded(m, x, 5), x * noise)
    np.testing.assert_array_equal(m.backward(x, g), g * noise)
    np.testing.assert_array_equal(m.noise, noise)


def test_scaling_matches_torch():
    """The kept elements are scaled by 1/(1-p) as in torch's (inverted) dropout."""
    torch = torch_or_skip()
    x = uniform((50, 40), 1, 0.5, 2)
    theirs = torch.nn.functional.dropout(torch.from_numpy(x), p=P, training=True).numpy()
    ours = forward_seeded(nn.Dropout(P), x, 5)
    for out in (ours, theirs):
        kept = out != 0
        assert 0.6 < kept.mean() < 0.8
        np.testing.assert_allclose(out[kept] / x[kept], 1 / (1 - P), rtol=1e-15)


def test_manualSeed_repeats_the_noise_and_calls_draw_new_noise():
    m = nn.Dropout(0.5)
    x = uniform((20, 10), 1)
    first = forward_seeded(m, x, 9).copy()
    second = m.forward(x).copy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(forward_seeded(m, x, 9), first)


def test_drops_about_p_of_the_elements():
    out = forward_seeded(nn.Dropout(P), np.ones(100_000), 1)
    assert abs(np.mean(out == 0) - P) < 0.01
    assert abs(out.mean() - 1) < 0.02  # the expected output is the input


def test_evaluation_is_the_identity():
    m = nn.Dropout(P)
    m.evaluate()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    out = m.forward(x)
    np.testing.assert_array_equal(out, x)
    assert out is not x
    np.testing.assert_array_equal(m.backward(x, g), g)


def test_p_zero_is_the_identity_while_training():
    m = nn.Dropout(0)
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    np.testing.assert_array_equal(m.forward(x), x)
    np.testing.assert_array_equal(m.backward(x, g), g)


def test_p_one_drops_everything_without_nan():
    m = nn.Dropout(1)
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    np.testing.assert_array_equal(m.forward(x), np.zeros((4, 5)))
    np.testing.assert_array_equal(m.backward(x, g), np.zeros((4, 5)))
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), x)


def test_p_must_be_a_probability():
    with raises_exactly(ValueError, "Dropout: p must be in [0, 1], got 1.5"):
        nn.Dropout(1.5)
    with raises_exactly(ValueError, "Dropout: p must be in [0, 1], got -0.1"):
        nn.Dropout(0.5).setp(-0.1)
    assert nn.Dropout().setp(0.2).p == 0.2
    assert nn.Dropout().p == 0.5


def test_v1_scales_at_evaluation_instead():
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    m = nn.Dropout(P, v1=True)
    noise = expected_noise((4, 5), P, 5, scaled=False)
    np.testing.assert_array_equal(forward_seeded(m, x, 5), x * noise)
    np.testing.assert_array_equal(m.backward(x, g), g * noise)
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), x * (1 - P))
    np.testing.assert_array_equal(m.backward(x, g), g * (1 - P))


@pytest.mark.parametrize("kwargs", [{}, {"inplace": True}, {"v1": True}], ids=["plain", "in-place", "v1"])
@pytest.mark.parametrize("shape", [(6,), (3, 4)], ids=str)
def test_jacobian_with_the_noise_repeated(kwargs, shape):
    report = jacobian.testJacobian(nn.Dropout(0.4, **kwargs), uniform(shape, 3), perturbation=STEP, seed=11)
    assert report < JACOBIAN_TOL, report


def _seeded(module, seed):
    """module, after reseeding the generator its next forward pass draws from."""
    nn.manualSeed(seed)
    return module


def test_in_place():
    check_in_place(lambda: _seeded(nn.Dropout(P), 3), lambda: _seeded(nn.Dropout(P, inplace=True), 3),
                   uniform((4, 5), 1), uniform((4, 5), 2))


def test_float32_matches_float64():
    x, g = uniform((6, 5), 1), uniform((6, 5), 2)
    m64 = nn.Dropout(P)
    m32 = m64.clone().float()
    assert_float32_close(forward_seeded(m32, x.astype(np.float32), 4), forward_seeded(m64, x, 4), "output")
    assert_float32_close(m32.backward(x.astype(np.float32), g.astype(np.float32)), m64.backward(x, g),
                         "gradInput")


@pytest.mark.parametrize("shape", [(7,), (4, 5)], ids=str)
def test_noncontiguous_input_and_gradOutput(shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    m = nn.Dropout(P)
    out = forward_seeded(m, x, 6).copy()
    grad = m.backward(x, g).copy()
    for (name, xv), (_, gv) in zip(noncontiguous_views(x), noncontiguous_views(g)):
        np.testing.assert_array_equal(forward_seeded(m, xv, 6), out, err_msg=name)
        np.testing.assert_array_equal(m.backward(xv, gv), grad, err_msg=name)


def test_batch_equals_samples_drawn_in_order():
    """The batch's noise is the samples' noise drawn one after the other."""
    x, g = uniform((5, 3), 1), uniform((5, 3), 2)
    m = nn.Dropout(P)
    out = forward_seeded(m, x, 8).copy()
    grad = m.backward(x, g).copy()
    nn.manualSeed(8)
    for i in range(5):
        np.testing.assert_array_equal(m.forward(x[i]), out[i])
        np.testing.assert_array_equal(m.backward(x[i], g[i]), grad[i])


def test_buffer_reuse_while_training():
    m = nn.Dropout(P)
    x_big, x_small = uniform((8, 5), 1), uniform((4, 5), 2)
    big = forward_seeded(m, x_big, 1)
    kept = big.copy()
    small = forward_seeded(m, x_small, 2)
    np.testing.assert_array_equal(big, kept)
    assert forward_seeded(m, x_small, 3) is small
    np.testing.assert_array_equal(small, x_small * expected_noise((4, 5), P, 3))


def test_backward_needs_the_noise_of_a_forward_pass():
    m = nn.Dropout(P)
    with raises_exactly(ValueError, "Dropout: updateGradInput needs the noise of a training forward pass on this "
                                    "input (2D of size [2, 3]), got none"):
        m.backward(uniform((2, 3)), uniform((2, 3)))
    m.forward(uniform((4, 3)))
    with raises_exactly(ValueError, "Dropout: updateGradInput needs the noise of a training forward pass on this "
                                    "input (2D of size [2, 3]), got 2D of size [4, 3]"):
        m.backward(uniform((2, 3)), uniform((2, 3)))


def test_pickle_round_trip():
    m = nn.Dropout(P)
    m.evaluate()
    check_pickle(m, uniform((4, 5), 1), uniform((4, 5), 2))
    training = nn.Dropout(P, inplace=True, v1=True)
    restored = pickle.loads(pickle.dumps(training))
    assert (restored.p, restored.inplace, restored.v1, restored.train) == (P, True, True, True)


def test_clearState_drops_the_noise():
    m = nn.Dropout(P)
    m.forward(uniform((2, 3)))
    assert m.clearState().noise is None


def test_bad_arrays():
    m = nn.Dropout(P)
    m.evaluate()
    check_bad_arrays_numpy(m, uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Dropout()) == "nn.Dropout(0.5)"
    assert repr(nn.Dropout(0.2, inplace=True, v1=True)) == "nn.Dropout(0.2, in-place, v1)"


@pytest.mark.parametrize("v2", [True, False])
def test_loads_from_torch7_fields(v2):
    m = from_torch7("nn.Dropout", p=0.25, v2=v2, noise=np.zeros(0))
    assert (m.p, m.v1, m.inplace, m.noise) == (0.25, not v2, False, None)
    x = uniform((4, 5), 1)
    np.testing.assert_array_equal(forward_seeded(m, x, 2), x * expected_noise((4, 5), 0.25, 2, scaled=v2))
