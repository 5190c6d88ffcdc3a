"""optim.adamax against torch.optim.Adamax (the same arithmetic; only the
default epsilon differs, 1e-38 against 1e-8, so it is passed explicitly),
and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import (check_bad_config, check_converges_annealed, check_matches_torch, check_weight_decay_is_l2,
                          half_square)

STEPS = 2000


@pytest.mark.parametrize("config, kwargs", [
    ({"learningRate": 1e-1}, {"lr": 1e-1}),
    ({"learningRate": 1e-1, "weightDecay": 1e-2}, {"lr": 1e-1, "weight_decay": 1e-2}),
    ({"learningRate": 1e-1, "beta1": 0.95, "beta2": 0.998}, {"lr": 1e-1, "betas": (0.95, 0.998)}),
], ids=["default", "weightdecay", "betas"])
def test_matches_torch(config, kwargs):
    check_matches_torch(optim.adamax, config, "Adamax", {"eps": 1e-38, **kwargs}, STEPS)


def test_two_steps_by_hand():
    # beta1 = beta2 = 0.5, epsilon 0, lr 0.1, g = x from (1, -2):
    # t=1: m = (0.5, -1), u = |g| = (1, 2), step 0.1 / 0.5 -> x1 = x0 - 0.2 (0.5, -0.5) = (0.9, -1.9)
    # t=2: g = (0.9, -1.9), m = (0.7, -1.45), u = max(0.5 (1, 2), |g|) = (0.9, 1.9), step 0.1 / 0.75
    x, state = np.array([1.0, -2.0]), {}
    config = {"learningRate": 0.1, "beta1": 0.5, "beta2": 0.5, "epsilon": 0}
    optim.adamax(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.9, -1.9], rtol=1e-15)
    optim.adamax(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.9 - 0.1 / 0.75 * 0.7 / 0.9, -1.9 + 0.1 / 0.75 * 1.45 / 1.9], rtol=1e-15)
    np.testing.assert_allclose(state["u"], [0.9, 1.9], rtol=1e-15)
    assert state["t"] == 2


def test_the_norm_decays_by_beta2_after_a_large_gradient():
    grads = iter([np.array([10.0]), np.array([1.0]), np.array([1.0])])
    x, state = np.zeros(1), {}
    for _ in range(3):
        optim.adamax(lambda v: (0.0, next(grads)), x, {"beta2": 0.5, "epsilon": 0}, state)
    np.testing.assert_allclose(state["u"], [2.5], rtol=1e-15)     # max(max(10 * .5, 1) * .5, 1)


def test_epsilon_keeps_a_zero_gradient_harmless():
    x, state = np.array([1.0, -2.0]), {}
    for _ in range(3):
        optim.adamax(lambda v: (0.0, np.zeros(2)), x, {}, state)
    np.testing.assert_array_equal(x, [1.0, -2.0])
    np.testing.assert_array_equal(state["u"], [1e-38, 1e-38])


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.adamax, {"learningRate": 0.1})


def test_converges_on_a_quadratic():
    check_converges_annealed(optim.adamax, 0.1, 3000, 1e-6)   # adamax has no learningRateDecay


@pytest.mark.parametrize("config, message", [
    ({"learningRate": -0.002}, "adamax: config['learningRate'] must be a number >= 0, got -0.002"),
    ({"beta1": 1}, "adamax: config['beta1'] must be a number in [0, 1), got 1"),
    ({"beta2": 2.0}, "adamax: config['beta2'] must be a number in [0, 1), got 2.0"),
    ({"epsilon": -1.0}, "adamax: config['epsilon'] must be a number >= 0, got -1.0"),
])
def test_bad_config(config, message):
    check_bad_config(optim.adamax, config, message)


def test_it_has_no_learning_rate_decay():
    with pytest.raises(ValueError, match="^adamax: unknown config key 'learningRateDecay'"):
        optim.adamax(half_square, np.array([1.0, -2.0]), {"learningRateDecay": 0.1})
