"""optim.adam against torch.optim.Adam, and on its own terms.

The two differ in one place: Torch7 adds epsilon to sqrt(v) and then
applies the bias correction sqrt(1 - beta2^t) to the step, torch divides
sqrt(v) by that correction first and adds epsilon after.  Torch7's step is
therefore torch's with ``eps = epsilon / sqrt(1 - beta2^t)`` at step t,
which torch lets us set before every step; then they agree step for step.
"""
import math

import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import (assert_same_path, check_bad_config, check_converges, check_weight_decay_is_l2, half_square,
                          quadratic, run, set_group, torch_run)
from layer_checks import raises_exactly

STEPS = 2000


@pytest.mark.parametrize("config", [
    {"learningRate": 1e-2},
    {"learningRate": 1e-2, "weightDecay": 1e-2},
    {"learningRate": 1e-2, "beta1": 0.95, "beta2": 0.998, "epsilon": 1e-6, "learningRateDecay": 1e-3},
], ids=["default", "weightdecay", "betas-epsilon-decay"])
def test_matches_torch_with_epsilon_moved(config):
    torch = pytest.importorskip("torch")
    lr, lrd = config["learningRate"], config.get("learningRateDecay", 0)
    beta1, beta2 = config.get("beta1", 0.9), config.get("beta2", 0.999)
    epsilon = config.get("epsilon", 1e-8)
    ours, _, _ = run(optim.adam, config, STEPS)
    theirs, _, _ = torch_run(
        torch, lambda p: torch.optim.Adam(p, lr=lr, betas=(beta1, beta2), weight_decay=config.get("weightDecay", 0)),
        STEPS, before_step=set_group(eps=lambda k: epsilon / math.sqrt(1 - beta2 ** (k + 1)),
                                     lr=lambda k: lr / (1 + k * lrd)))
    assert_same_path(ours, theirs)


def test_without_epsilon_it_is_torch_adam_as_is():
    torch = pytest.importorskip("torch")
    ours, _, _ = run(optim.adam, {"learningRate": 1e-2, "epsilon": 0}, STEPS)
    theirs, _, _ = torch_run(torch, lambda p: torch.optim.Adam(p, lr=1e-2, eps=0), STEPS)
    assert_same_path(ours, theirs)


def test_two_steps_by_hand():
    # beta1 = beta2 = 0.5, epsilon 0, lr 0.1, g = x from (1, -2):
    # t=1: m = (0.5, -1), v = (0.5, 2), step 0.1 sqrt(0.5) / 0.5 -> x1 = x0 - (0.1, -0.1)
    # t=2: g = (0.9, -1.9), m = (0.7, -1.45), v = (0.655, 2.805), step 0.1 sqrt(0.75) / 0.75
    x, state = np.array([1.0, -2.0]), {}
    config = {"learningRate": 0.1, "beta1": 0.5, "beta2": 0.5, "epsilon": 0}
    optim.adam(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.9, -1.9], rtol=1e-15)
    optim.adam(half_square, x, config, state)
    step = 0.1 * math.sqrt(0.75) / 0.75
    np.testing.assert_allclose(x, [0.9 - step * 0.7 / math.sqrt(0.655), -1.9 + step * 1.45 / math.sqrt(2.805)],
                               rtol=1e-15)
    np.testing.assert_allclose(state["m"], [0.7, -1.45], rtol=1e-15)
    np.testing.assert_allclose(state["v"], [0.655, 2.805], rtol=1e-15)
    assert state["t"] == 2


def test_learning_rate_decay_is_the_rate_divided_by_1_plus_t_decay():
    """Decay lrd gives the steps of lrd = 0 with learningRate lr / (1 + t lrd)
    at the (t+1)-th call."""
    f = quadratic([1.0, 3.0], [2.0, -1.0])
    decayed, _, _ = run(optim.adam, {"learningRate": 0.1, "learningRateDecay": 0.5}, 10, opfunc=f)
    x, state, scheduled = np.array([1.5, 1.5]), {}, []
    for t in range(10):
        optim.adam(f, x, {"learningRate": 0.1 / (1 + t * 0.5)}, state)
        scheduled.append(x.copy())
    np.testing.assert_array_equal(decayed, scheduled)


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.adam, {"learningRate": 0.1})


def test_converges_on_a_quadratic():
    check_converges(optim.adam, {"learningRate": 0.1, "learningRateDecay": 0.01}, 3000, 1e-6)


@pytest.mark.parametrize("config, message", [
    ({"learningRate": -1e-3}, "adam: config['learningRate'] must be a number >= 0, got -0.001"),
    ({"beta1": 1.0}, "adam: config['beta1'] must be a number in [0, 1), got 1.0"),
    ({"beta2": -0.1}, "adam: config['beta2'] must be a number in [0, 1), got -0.1"),
    ({"epsilon": -1e-8}, "adam: config['epsilon'] must be a number >= 0, got -1e-08"),
    ({"learningRateDecay": float("inf")}, "adam: config['learningRateDecay'] must be a number >= 0, got inf"),
])
def test_bad_config(config, message):
    check_bad_config(optim.adam, config, message)


def test_a_bad_step_count_in_the_state():
    with raises_exactly(ValueError, "adam: state['t'] must be a count (an integer >= 0), got -1"):
        optim.adam(half_square, np.array([1.0, -2.0]), {}, {"t": -1})
