"""optim.sgd: against torch.optim.SGD step for step, and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import (assert_same_path, check_bad_config, check_converges, check_matches_torch,
                          check_weight_decay_is_l2, half_square, run, set_group, torch_run)
from layer_checks import raises_exactly

STEPS = 2000   # as PyTorch's legacy comparison


# ---- against torch.optim.SGD: config keys map one to one ----

@pytest.mark.parametrize("config, kwargs", [
    ({"learningRate": 1e-3}, {"lr": 1e-3}),
    ({"learningRate": 1e-3, "momentum": 0.9, "dampening": 0, "weightDecay": 1e-4},
     {"lr": 1e-3, "momentum": 0.9, "dampening": 0, "weight_decay": 1e-4}),
    # Torch7's dampening defaults to the momentum, torch's to 0
    ({"learningRate": 1e-3, "momentum": 0.9}, {"lr": 1e-3, "momentum": 0.9, "dampening": 0.9}),
    ({"learningRate": 1e-3, "momentum": 0.9, "dampening": 0, "nesterov": True},
     {"lr": 1e-3, "momentum": 0.9, "nesterov": True}),
], ids=["plain", "momentum-weightdecay", "dampened", "nesterov"])
def test_matches_torch(config, kwargs):
    check_matches_torch(optim.sgd, config, "SGD", kwargs, STEPS)


def test_learning_rate_decay_matches_torch_with_the_rate_set_each_step():
    """torch has no learningRateDecay; setting its lr to lr / (1 + k lrd)
    before step k is the same schedule."""
    torch = pytest.importorskip("torch")
    ours, _, _ = run(optim.sgd, {"learningRate": 1e-3, "learningRateDecay": 1e-2, "momentum": 0.5,
                                 "dampening": 0}, STEPS)
    theirs, _, _ = torch_run(torch, lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.5),
                             STEPS, before_step=set_group(lr=lambda k: 1e-3 / (1 + k * 1e-2)))
    assert_same_path(ours, theirs)


# ---- steps by hand, on f = |x|^2 / 2 from (1, -2) ----

def test_two_momentum_steps_by_hand():
    # v1 = g0 = (1, -2);                      x1 = x0 - 0.1 v1 = (0.9, -1.8)
    # v2 = 0.5 v1 + 0.5 g1 = (0.95, -1.9);    x2 = x1 - 0.1 v2 = (0.805, -1.61)
    x, state = np.array([1.0, -2.0]), {}
    config = {"learningRate": 0.1, "momentum": 0.5}
    _, fx = optim.sgd(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.9, -1.8], rtol=1e-15)
    assert fx == [2.5]
    _, fx = optim.sgd(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.805, -1.61], rtol=1e-15)
    np.testing.assert_allclose(fx, [2.025], rtol=1e-15)
    np.testing.assert_allclose(state["dfdx"], [0.95, -1.9], rtol=1e-15)
    assert state["evalCounter"] == 2


def test_a_nesterov_step_by_hand():
    # v = g = (1, -2); direction g + 0.5 v = (1.5, -3); x1 = x0 - 0.1 (1.5, -3)
    x = np.array([1.0, -2.0])
    optim.sgd(half_square, x, {"learningRate": 0.1, "momentum": 0.5, "dampening": 0, "nesterov": True})
    np.testing.assert_allclose(x, [0.85, -1.7], rtol=1e-15)


def test_per_element_learning_rates_and_weight_decays():
    x = np.array([1.0, -2.0])
    optim.sgd(half_square, x, {"learningRate": 0.1, "learningRates": np.array([1.0, 0.5])})
    np.testing.assert_allclose(x, [0.9, -1.9], rtol=1e-15)     # (1 - 0.1, -2 + 0.05 * 2)
    x = np.array([1.0, -2.0])
    optim.sgd(lambda v: (0.0, np.zeros(2)), x, {"learningRate": 1.0, "weightDecays": [0.1, 0.0]})
    np.testing.assert_allclose(x, [0.9, -2.0], rtol=1e-15)     # only the first element decays


def test_learning_rate_decay_on_a_constant_gradient():
    """With g constant, x_k = x_0 - g * sum_{i<k} lr / (1 + i lrd)."""
    g = np.array([1.0, 2.0])
    x = np.zeros(2)
    state = {}
    for _ in range(5):
        optim.sgd(lambda v: (float(g @ v), g), x, {"learningRate": 0.5, "learningRateDecay": 0.25}, state)
    total = sum(0.5 / (1 + i * 0.25) for i in range(5))
    np.testing.assert_allclose(x, -total * g, rtol=1e-15)


def test_weight_decay_is_the_gradient_of_an_l2_term():
    """weightDecay wd gives the same steps as adding wd/2 |x|^2 to f."""
    check_weight_decay_is_l2(optim.sgd, {"learningRate": 0.1, "momentum": 0.9})


def test_converges_on_a_quadratic():
    check_converges(optim.sgd, {"learningRate": 0.05, "momentum": 0.9}, 400, 1e-8, diagonal=(1.0, 10.0))


# ---- config checks ----

@pytest.mark.parametrize("config, message", [
    ({"learningRate": -0.1}, "sgd: config['learningRate'] must be a number >= 0, got -0.1"),
    ({"learningRateDecay": -1}, "sgd: config['learningRateDecay'] must be a number >= 0, got -1"),
    ({"momentum": -0.5}, "sgd: config['momentum'] must be a number >= 0, got -0.5"),
    ({"weightDecay": float("nan")}, "sgd: config['weightDecay'] must be a number >= 0, got nan"),
    ({"learningRate": "0.1"}, "sgd: config['learningRate'] must be a number >= 0, got '0.1'"),
    ({"learningRate": True}, "sgd: config['learningRate'] must be a number >= 0, got True"),
    ({"nesterov": True}, "sgd: nesterov needs config['momentum'] > 0 and config['dampening'] == 0, "
                         "got momentum 0 and dampening 0"),
    ({"nesterov": True, "momentum": 0.9}, "sgd: nesterov needs config['momentum'] > 0 and "
                                          "config['dampening'] == 0, got momentum 0.9 and dampening 0.9"),
    ({"weightDecay": 0.1, "weightDecays": [0.1, 0.1]},
     "sgd: give config['weightDecay'] or config['weightDecays'], not both"),
    ({"learningRates": [1.0, 1.0, 1.0]},
     "sgd: config['learningRates'] must have one value per element of x (2), got 3"),
    ({"learningRates": [1.0, float("inf")]}, "sgd: config['learningRates'] must be finite"),
])
def test_bad_config(config, message):
    check_bad_config(optim.sgd, config, message)


def test_nesterov_must_be_a_boolean():
    with raises_exactly(TypeError, "sgd: config['nesterov'] must be True or False, got 1"):
        optim.sgd(half_square, np.ones(2), {"nesterov": 1, "momentum": 0.9, "dampening": 0})


def test_per_element_values_must_be_numbers():
    with raises_exactly(TypeError, "sgd: config['learningRates'] must be an array of numbers, got str"):
        optim.sgd(half_square, np.ones(2), {"learningRates": "fast"})
