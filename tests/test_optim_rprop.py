"""optim.rprop against torch.optim.Rprop (torch calls stepsize lr, and
takes the factors and bounds as pairs), and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import check_bad_config, check_converges, check_matches_torch, half_square, rosenbrock, run

STEPS = 2000


@pytest.mark.parametrize("config, kwargs", [
    ({"stepsize": 1e-3}, {"lr": 1e-3}),
    ({"stepsize": 1e-3, "etaminus": 0.6, "etaplus": 1.1}, {"lr": 1e-3, "etas": (0.6, 1.1)}),
    ({"stepsize": 1e-3, "stepsizemin": 1e-4, "stepsizemax": 3}, {"lr": 1e-3, "step_sizes": (1e-4, 3)}),
], ids=["default", "etas", "step-sizes"])
def test_matches_torch(config, kwargs):
    check_matches_torch(optim.rprop, config, "Rprop", kwargs, STEPS)


def test_steps_by_hand_with_a_sign_change():
    # stepsize 0.1, g = x from (0.05, -2):
    # 1: no previous sign: sizes stay 0.1;            x1 = (-0.05, -1.9)
    # 2: first sign flipped: size 0.05, no move;      second agrees: 0.12, x2 = (-0.05, -1.78)
    # 3: first has no previous sign (it was zeroed): size stays 0.05, x3 = (0, ...); second 0.144
    x, state = np.array([0.05, -2.0]), {}
    optim.rprop(half_square, x, {}, state)
    np.testing.assert_allclose(x, [-0.05, -1.9], rtol=1e-15)
    optim.rprop(half_square, x, {}, state)
    np.testing.assert_allclose(x, [-0.05, -1.78], rtol=1e-15)
    np.testing.assert_allclose(state["stepsize"], [0.05, 0.12], rtol=1e-15)
    np.testing.assert_array_equal(state["delta"], [0.0, -1.9])   # g at x1, the flipped one zeroed
    optim.rprop(half_square, x, {}, state)
    np.testing.assert_allclose(x, [0.0, -1.78 + 0.144], rtol=1e-15, atol=1e-17)


def test_step_sizes_are_clipped():
    g = np.array([1.0])
    x, state = np.zeros(1), {}
    _, fx = optim.rprop(lambda v: (float(v[0]), g), x, {"stepsize": 0.1, "stepsizemax": 0.13, "niter": 4}, state)
    np.testing.assert_allclose(x, [-(0.1 + 0.12 + 0.13 + 0.13)], rtol=1e-15)
    assert len(fx) == 4
    optim.rprop(lambda v: (0.0, -g), x, {"stepsizemin": 0.1}, state)  # a flip halves 0.13, floored at 0.1
    np.testing.assert_allclose(state["stepsize"], [0.1], rtol=1e-15)


def test_niter_steps_in_one_call_are_niter_calls():
    x, state = np.array([1.5, 1.5]), {}
    _, fx = optim.rprop(rosenbrock, x, {"stepsize": 1e-2, "niter": 5}, state)
    one_by_one, _, results = run(optim.rprop, {"stepsize": 1e-2}, 5)
    np.testing.assert_array_equal(x, one_by_one[-1])
    assert fx == [r[1][0] for r in results]


def test_converges_on_a_quadratic():
    check_converges(optim.rprop, {"stepsize": 0.1, "stepsizemin": 1e-12}, 200, 1e-9)


@pytest.mark.parametrize("config, message", [
    ({"stepsize": 0}, "rprop: config['stepsize'] must be a number > 0, got 0"),
    ({"etaplus": 1.0}, "rprop: config['etaplus'] must be a number > 1, got 1.0"),
    ({"etaminus": 1.0}, "rprop: config['etaminus'] must be a number in (0, 1), got 1.0"),
    ({"stepsizemin": 1.0, "stepsizemax": 0.5}, "rprop: config['stepsizemin'] (1) is above config['stepsizemax'] (0.5)"),
    ({"niter": 0}, "rprop: config['niter'] must be an integer >= 1, got 0"),
    ({"niter": 1.5}, "rprop: config['niter'] must be an integer >= 1, got 1.5"),
])
def test_bad_config(config, message):
    check_bad_config(optim.rprop, config, message)
