"""optim.adagrad against torch.optim.Adagrad (the same arithmetic, with
torch's eps = 1e-10 being Torch7's constant floor), and on its own terms."""
import math

import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import check_bad_config, check_converges, check_matches_torch, check_weight_decay_is_l2, half_square

STEPS = 2000


@pytest.mark.parametrize("config, kwargs", [
    ({"learningRate": 1e-1}, {"lr": 1e-1}),
    ({"learningRate": 1e-1, "learningRateDecay": 1e-3}, {"lr": 1e-1, "lr_decay": 1e-3}),
    ({"learningRate": 1e-1, "weightDecay": 1e-2}, {"lr": 1e-1, "weight_decay": 1e-2}),
], ids=["default", "decay", "weightdecay"])
def test_matches_torch(config, kwargs):
    check_matches_torch(optim.adagrad, config, "Adagrad", kwargs, STEPS)


def test_two_steps_by_hand():
    # g = x from (1, -2), lr 0.1: variance (1, 4), x1 = x0 - 0.1 g / (sqrt(variance) + 1e-10)
    # then g = x1 = (0.9, -1.9) (to 1e-11), variance (1.81, 7.61)
    x, state = np.array([1.0, -2.0]), {}
    optim.adagrad(half_square, x, {"learningRate": 0.1}, state)
    x1 = np.array([1 - 0.1 / (1 + 1e-10), -2 + 0.2 / (2 + 1e-10)])
    np.testing.assert_allclose(x, x1, rtol=1e-15)
    optim.adagrad(half_square, x, {"learningRate": 0.1}, state)
    variance = np.array([1.0, 4.0]) + x1 ** 2
    np.testing.assert_allclose(state["paramVariance"], variance, rtol=1e-15)
    np.testing.assert_allclose(x, x1 - 0.1 * x1 / (np.sqrt(variance) + 1e-10), rtol=1e-15)
    assert state["evalCounter"] == 2


def test_learning_rate_decay_on_a_constant_gradient():
    """With g constant, step k (from 1) moves by lr / (1 + (k - 1) lrd) / sqrt(k)
    against the sign of g, whatever its size."""
    g = np.array([3.0, -0.5])
    x, state = np.zeros(2), {}
    for _ in range(4):
        optim.adagrad(lambda v: (float(g @ v), g), x, {"learningRate": 0.5, "learningRateDecay": 0.5}, state)
    moved = sum(0.5 / (1 + (k - 1) * 0.5) / math.sqrt(k) for k in range(1, 5))
    np.testing.assert_allclose(x, -moved * np.sign(g), rtol=1e-9)


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.adagrad, {"learningRate": 0.1})


def test_converges_on_a_quadratic():
    check_converges(optim.adagrad, {"learningRate": 1.0}, 500, 1e-8)


@pytest.mark.parametrize("config, message", [
    ({"learningRate": -0.1}, "adagrad: config['learningRate'] must be a number >= 0, got -0.1"),
    ({"learningRateDecay": -0.5}, "adagrad: config['learningRateDecay'] must be a number >= 0, got -0.5"),
    ({"weightDecay": -0.5}, "adagrad: config['weightDecay'] must be a number >= 0, got -0.5"),
])
def test_bad_config(config, message):
    check_bad_config(optim.adagrad, config, message)
