"""optim.adadelta against torch.optim.Adadelta with lr = 1 (Torch7's has
no learning rate), and on its own terms."""
import math

import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import check_bad_config, check_converges, check_matches_torch, check_weight_decay_is_l2, half_square

STEPS = 2000


@pytest.mark.parametrize("config, kwargs, steps", [
    ({}, {}, STEPS),
    ({"rho": 0.95}, {"rho": 0.95}, STEPS),
    ({"rho": 0.95, "weightDecay": 1e-2}, {"rho": 0.95, "weight_decay": 1e-2}, STEPS),
    # with rho 0.9 the path passes, near step 190, through a stretch where
    # any difference grows threefold per step (a start one ulp away ends
    # 1e-3 away), so rounding alone parts two correct implementations there
    ({"weightDecay": 1e-2}, {"weight_decay": 1e-2}, 150),
    ({"eps": 1e-4}, {"eps": 1e-4}, STEPS),
], ids=["default", "rho", "rho-weightdecay", "weightdecay", "eps"])
def test_matches_torch(config, kwargs, steps):
    check_matches_torch(optim.adadelta, config, "Adadelta", {"lr": 1.0, **kwargs}, steps)


def test_two_steps_by_hand():
    # rho 0.5, eps 0.01, g = x from (1, -2):
    # variance = 0.5 g^2 = (0.5, 2); delta = sqrt(0 + eps) / sqrt(variance + eps) g; accDelta = 0.5 delta^2
    x, state = np.array([1.0, -2.0]), {}
    config = {"rho": 0.5, "eps": 0.01}
    optim.adadelta(half_square, x, config, state)
    delta1 = np.array([0.1 / math.sqrt(0.51) * 1, 0.1 / math.sqrt(2.01) * -2])
    np.testing.assert_allclose(x, [1.0, -2.0] - delta1, rtol=1e-15)
    np.testing.assert_allclose(state["accDelta"], 0.5 * delta1 ** 2, rtol=1e-15)
    x1 = x.copy()
    optim.adadelta(half_square, x, config, state)
    variance = 0.5 * np.array([0.5, 2.0]) + 0.5 * x1 ** 2
    delta2 = np.sqrt(0.5 * delta1 ** 2 + 0.01) / np.sqrt(variance + 0.01) * x1
    np.testing.assert_allclose(state["paramVariance"], variance, rtol=1e-15)
    np.testing.assert_allclose(x, x1 - delta2, rtol=1e-15)
    assert state["evalCounter"] == 2


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.adadelta, {})


def test_converges_on_a_quadratic():
    check_converges(optim.adadelta, {"rho": 0.95, "eps": 1e-4}, 3000, 1e-6)


@pytest.mark.parametrize("config, message", [
    ({"rho": 1.5}, "adadelta: config['rho'] must be a number in [0, 1], got 1.5"),
    ({"eps": -1e-6}, "adadelta: config['eps'] must be a number >= 0, got -1e-06"),
    ({"weightDecay": -1}, "adadelta: config['weightDecay'] must be a number >= 0, got -1"),
])
def test_bad_config(config, message):
    check_bad_config(optim.adadelta, config, message)


def test_it_has_no_learning_rate():
    with pytest.raises(ValueError, match="^adadelta: unknown config key 'learningRate'; adadelta reads 'rho', "
                                         "'eps', 'weightDecay'$"):
        optim.adadelta(half_square, np.array([1.0, -2.0]), {"learningRate": 1.0})
