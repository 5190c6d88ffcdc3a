"""optim.rmsprop against torch.optim.RMSprop (the same arithmetic when the
mean square starts at 0, Torch7's default), and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import assert_same_path, quadratic, run, torch_run
from layer_checks import raises_exactly

STEPS = 2000


def half_square(x):
    return 0.5 * float(x @ x), x.copy()


@pytest.mark.parametrize("config, kwargs", [
    ({"learningRate": 1e-2}, {"lr": 1e-2}),
    ({"learningRate": 1e-2, "weightDecay": 1e-2}, {"lr": 1e-2, "weight_decay": 1e-2}),
    ({"learningRate": 1e-2, "alpha": 0.95}, {"lr": 1e-2, "alpha": 0.95}),
    ({"learningRate": 1e-2, "epsilon": 1e-3}, {"lr": 1e-2, "eps": 1e-3}),
], ids=["default", "weightdecay", "alpha", "epsilon"])
def test_matches_torch(config, kwargs):
    torch = pytest.importorskip("torch")
    ours, _, _ = run(optim.rmsprop, config, STEPS)
    theirs, _, _ = torch_run(torch, lambda p: torch.optim.RMSprop(p, **kwargs), STEPS)
    assert_same_path(ours, theirs)


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
    f = quadratic([1.0, 3.0], [2.0, -1.0])

    def with_l2(x):
        value, g = f(x)
        return value + 0.05 * float(x @ x), g + 0.1 * x

    decayed, _, _ = run(optim.rmsprop, {"weightDecay": 0.1}, 20, opfunc=f)
    explicit, _, _ = run(optim.rmsprop, {}, 20, opfunc=with_l2)
    np.testing.assert_array_equal(decayed, explicit)


def test_converges_on_a_quadratic():
    f = quadratic([1.0, 100.0], [3.0, -2.0])
    x, state = np.zeros(2), {}
    for k in range(3000):
        # rmsprop has no learningRateDecay: anneal by hand, as its users do
        optim.rmsprop(f, x, {"learningRate": 0.05 / (1 + 0.01 * k)}, state)
    np.testing.assert_allclose(x, [3.0, -2.0], atol=1e-6)


@pytest.mark.parametrize("config, message", [
    ({"learningRate": -1e-2}, "rmsprop: config['learningRate'] must be a number >= 0, got -0.01"),
    ({"alpha": 1.01}, "rmsprop: config['alpha'] must be a number in [0, 1], got 1.01"),
    ({"epsilon": -1}, "rmsprop: config['epsilon'] must be a number >= 0, got -1"),
    ({"initialMean": -1}, "rmsprop: config['initialMean'] must be a number >= 0, got -1"),
])
def test_bad_config(config, message):
    with raises_exactly(ValueError, message):
        optim.rmsprop(half_square, np.array([1.0, -2.0]), config)
