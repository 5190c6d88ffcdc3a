"""optim.nag: Torch7's Nesterov step in Sutskever's form.

torch.optim.SGD(nesterov=True) is the same method written in other
variables: it keeps the look-ahead point y = x + momentum * v, where Torch7's
nag evaluates the gradient.  So the points our opfunc sees must be torch's
iterates, step for step.
"""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import (START, TORCH_ATOL, assert_same_path, check_bad_config, check_converges,
                          check_weight_decay_is_l2, half_square, recording, rosenbrock, run, torch_run)

STEPS = 2000


@pytest.mark.parametrize("weight_decay", [0, 1e-2])
def test_look_ahead_points_are_torch_nesterov_iterates(weight_decay):
    torch = pytest.importorskip("torch")
    config = {"learningRate": 1e-3, "momentum": 0.9, "weightDecay": weight_decay}
    opfunc, points = recording(rosenbrock)
    x, state = np.array(START), {}
    for _ in range(STEPS):
        optim.nag(opfunc, x, config, state)
    theirs, _, _ = torch_run(torch, lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.9, nesterov=True,
                                                              weight_decay=weight_decay), STEPS)
    # our k-th evaluation is at torch's iterate after k steps
    assert_same_path(points, np.vstack([START, theirs[:-1]]))
    # and x is the look-ahead point minus momentum * v
    np.testing.assert_allclose(x + 0.9 * state["dfdx"], theirs[-1], rtol=0, atol=TORCH_ATOL)


def test_two_steps_by_hand():
    # call 1, no look-ahead: g = (1, -2), v = -0.1 g = (-0.1, 0.2), x1 = (0.9, -1.8)
    # call 2: y = x1 + 0.5 v = (0.85, -1.7) = g, v = 0.5 v - 0.1 g = (-0.135, 0.27),
    #         x2 = y - 0.1 g = x1 + v = (0.765, -1.53), and fx is f(y)
    x, state = np.array([1.0, -2.0]), {}
    config = {"learningRate": 0.1, "momentum": 0.5}
    _, fx = optim.nag(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.9, -1.8], rtol=1e-15)
    np.testing.assert_allclose(state["dfdx"], [-0.1, 0.2], rtol=1e-15)
    assert fx == [2.5]
    _, fx = optim.nag(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.765, -1.53], rtol=1e-15)
    np.testing.assert_allclose(state["dfdx"], [-0.135, 0.27], rtol=1e-15)
    np.testing.assert_allclose(fx, [0.5 * (0.85 ** 2 + 1.7 ** 2)], rtol=1e-15)
    assert state["evalCounter"] == 2


def test_learning_rate_decay_on_a_constant_gradient():
    # lr 1, decay 1, momentum 0.5, g = (1, 1):  rates 1, 1/2, 1/3
    # v1 = -g, v2 = -0.5 g - 0.5 g = -g, v3 = -0.5 g - g / 3 = -5/6 g;  x3 = x0 + v1 + v2 + v3
    g = np.array([1.0, 1.0])
    x, state = np.zeros(2), {}
    for _ in range(3):
        optim.nag(lambda v: (float(g @ v), g), x, {"learningRate": 1.0, "learningRateDecay": 1.0,
                                                    "momentum": 0.5}, state)
    np.testing.assert_allclose(x, -(17 / 6) * g, rtol=1e-15)


def test_per_element_learning_rates_by_hand():
    x, state = np.array([1.0, -2.0]), {}
    optim.nag(half_square, x, {"learningRate": 0.1, "momentum": 0.5, "learningRates": [1.0, 0.5]}, state)
    np.testing.assert_allclose(x, [0.9, -1.9], rtol=1e-15)
    np.testing.assert_allclose(state["dfdx"], [-0.1, 0.1], rtol=1e-15)


def test_weight_decay_is_the_gradient_of_an_l2_term():
    check_weight_decay_is_l2(optim.nag, {"learningRate": 0.1})


def test_dampening_is_accepted_and_plays_no_part():
    plain, _, _ = run(optim.nag, {"learningRate": 1e-3}, 50)
    damped, _, _ = run(optim.nag, {"learningRate": 1e-3, "dampening": 0.3}, 50)
    np.testing.assert_array_equal(plain, damped)


def test_default_momentum_is_0_9():
    default, _, _ = run(optim.nag, {"learningRate": 1e-3}, 20)
    explicit, _, _ = run(optim.nag, {"learningRate": 1e-3, "momentum": 0.9}, 20)
    np.testing.assert_array_equal(default, explicit)


def test_converges_on_a_quadratic():
    check_converges(optim.nag, {"learningRate": 0.05, "momentum": 0.9}, 400, 1e-8, diagonal=(1.0, 10.0))


@pytest.mark.parametrize("config, message", [
    ({"momentum": 0}, "nag: config['momentum'] must be a number > 0, got 0"),
    ({"momentum": -0.9}, "nag: config['momentum'] must be a number > 0, got -0.9"),
    ({"learningRate": -1e-3}, "nag: config['learningRate'] must be a number >= 0, got -0.001"),
    ({"weightDecay": -1}, "nag: config['weightDecay'] must be a number >= 0, got -1"),
    ({"learningRates": [1.0]}, "nag: config['learningRates'] must have one value per element of x (2), got 1"),
])
def test_bad_config(config, message):
    check_bad_config(optim.nag, config, message)
