"""optim.rmsprop against torch.optim.RMSprop (the same arithmetic when the
mean square starts at 0, Torch7's default), and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import (check_bad_config, check_converges_annealed, check_matches_torch, check_weight_decay_is_l2,
                          half_square)

STEPS = 2000


@pytest.mark.parametrize("config, kwargs", [
    ({"learningRate": 1e-2}, {"lr": 1e-2}),
    ({"learningRate": 1e-2, "weightDecay": 1e-2}, {"lr": 1e-2, "weight_decay": 1e-2}),
    ({"learningRate": 1e-2, "alpha": 0.95}, {"lr": 1e-2, "alpha": 0.95}),
    ({"learningRate": 1e-2, "epsilon": 1e-3}, {"lr": 1e-2, "eps": 1e-3}),
], ids=["default", "weightdecay", "alpha", "epsilon"])
def test_matches_torch(config, kwargs):
    check_matches_torch(optim.rmsprop, config, "RMSprop", kwargs, STEPS)


def test_a_step_by_hand_from_a_mean_of_one():
    # initialMean 1 (the older Torch7 behaviour), alpha 0.5, lr 0.1, g = x from (1, -2):
    # m = 0.5 * 1 + 0.5 g^2 = (1, 2.5);  x1 = x0 - 0.1 g / (sqrt(m) + epsilon)
    x, state = np.array([1.0, -2.0]), {}
    optim.rmsprop(half_square, x, {"learningRate": 0.1, "alpha": 0.5, "epsilon": 0, "initialMean": 1}, state)
    np.testing.assert_allclose(state["m"], [1.0, 2.5], rtol=1e-15)
    np.testing.assert_allclose(x, [0.9, -2 + 0.2 / np.sqrt(2.5)], rtol=1e-15)


def test_first_step_from_zero_is_lr_over_sqrt_of_1_minus_alpha():
    # m = (1 - alpha) g^2, so the first step is lr sign(g) / sqrt(1 - alpha) (epsilon 0)
    x = np.array([1.0, -2.0])
    optim.rmsprop(half_square, x, {"learningRate": 0.1, "alpha": 0.75, "epsilon": 0})
    np.testing.assert_allclose(x, [1.0 - 0.2, -2.0 + 0.2], rtol=1e-15)


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.rmsprop, {})


def test_converges_on_a_quadratic():
    check_converges_annealed(optim.rmsprop, 0.05, 3000, 1e-6)   # rmsprop has no learningRateDecay


@pytest.mark.parametrize("config, message", [
    ({"learningRate": -1e-2}, "rmsprop: config['learningRate'] must be a number >= 0, got -0.01"),
    ({"alpha": 1.01}, "rmsprop: config['alpha'] must be a number in [0, 1], got 1.01"),
    ({"epsilon": -1}, "rmsprop: config['epsilon'] must be a number >= 0, got -1"),
    ({"initialMean": -1}, "rmsprop: config['initialMean'] must be a number >= 0, got -1"),
])
def test_bad_config(config, message):
    check_bad_config(optim.rmsprop, config, message)
