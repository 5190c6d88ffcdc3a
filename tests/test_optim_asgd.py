"""optim.asgd against torch.optim.ASGD (the same method; torch calls eta0
lr and lambda lambd), iterates and averages both, and on its own terms."""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import assert_same_path, check_bad_config, half_square, quadratic, run, torch_run
from layer_checks import raises_exactly

STEPS = 2000


@pytest.mark.parametrize("config, kwargs", [
    ({"eta0": 1e-3}, {"lr": 1e-3}),
    ({"eta0": 1e-3, "alpha": 0.8}, {"lr": 1e-3, "alpha": 0.8}),
    ({"eta0": 1e-3, "t0": 1e3}, {"lr": 1e-3, "t0": 1e3}),
    ({"eta0": 1e-3, "lambda": 1e-2, "t0": 10}, {"lr": 1e-3, "lambd": 1e-2, "t0": 10}),
], ids=["default", "alpha", "t0", "lambda"])
def test_matches_torch(config, kwargs):
    """torch keeps eta and mu as tensors of its default dtype: float32
    unless told otherwise, which rounds eta to 1e-8 from the first step;
    with float64 the two agree to the last bits."""
    torch = pytest.importorskip("torch")
    ours, _, results = run(optim.asgd, config, STEPS)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        theirs, _, optimizer = torch_run(torch, lambda p: torch.optim.ASGD(p, **kwargs), STEPS)
    finally:
        torch.set_default_dtype(default)
    assert_same_path(ours, theirs)
    (torch_state,) = optimizer.state.values()
    np.testing.assert_allclose(results[-1][2], torch_state["ax"].numpy(), rtol=0, atol=1e-12)


def test_two_steps_by_hand():
    # eta0 0.1, lambda 0.5, alpha 1, g = x from (1, -2):
    # x1 = (1 - 0.5 * 0.1) x0 - 0.1 g0 = 0.85 x0;  then eta = 0.1 / (1 + 0.5 * 0.1 * 1) = 0.1 / 1.05
    # x2 = (1 - 0.5 eta) x1 - eta x1
    x, state = np.array([1.0, -2.0]), {}
    config = {"eta0": 0.1, "lambda": 0.5, "alpha": 1.0}
    _, fx, ax = optim.asgd(half_square, x, config, state)
    np.testing.assert_allclose(x, [0.85, -1.7], rtol=1e-15)
    assert fx == [2.5] and ax is state["ax"]
    np.testing.assert_allclose(state["eta_t"], 0.1 / 1.05, rtol=1e-15)
    optim.asgd(half_square, x, config, state)
    eta = 0.1 / 1.05
    np.testing.assert_allclose(x, (1 - 0.5 * eta - eta) * np.array([0.85, -1.7]), rtol=1e-15)
    np.testing.assert_allclose(state["eta_t"], 0.1 / 1.1, rtol=1e-15)
    assert state["t"] == 2


def test_the_average_starts_after_t0_steps():
    """Step k averages with weight mu = 1 / max(1, k - 1 - t0): ax follows x
    for the first t0 + 2 steps, then is the mean of the iterates from the
    (t0 + 2)-th on (Polyak averaging)."""
    f = quadratic([1.0, 2.0], [0.5, -0.5])
    x, state, iterates = np.array([2.0, 3.0]), {}, []
    for _ in range(12):
        _, _, ax = optim.asgd(f, x, {"eta0": 0.2, "t0": 4}, state)
        iterates.append(x.copy())
        if len(iterates) <= 6:
            np.testing.assert_array_equal(ax, x)
    assert not np.array_equal(ax, x)
    np.testing.assert_allclose(ax, np.mean(iterates[5:], axis=0), rtol=1e-14)
    assert state["mu_t"] == 1 / (12 - 4)


def test_eta_follows_its_schedule():
    x, state = np.array([1.0, -2.0]), {}
    for _ in range(7):
        optim.asgd(half_square, x, {"eta0": 0.3, "lambda": 0.2, "alpha": 0.75}, state)
    assert state["eta_t"] == pytest.approx(0.3 / (1 + 0.2 * 0.3 * 7) ** 0.75, rel=1e-15)


def test_converges_on_a_quadratic():
    f = quadratic([1.0, 10.0], [3.0, -2.0])
    x, state = np.zeros(2), {}
    for _ in range(2000):
        _, _, ax = optim.asgd(f, x, {"eta0": 0.05, "lambda": 0, "t0": 1000}, state)
    np.testing.assert_allclose(x, [3.0, -2.0], atol=1e-8)
    np.testing.assert_allclose(ax, [3.0, -2.0], atol=1e-8)


@pytest.mark.parametrize("config, message", [
    ({"eta0": -1e-4}, "asgd: config['eta0'] must be a number >= 0, got -0.0001"),
    ({"lambda": -1}, "asgd: config['lambda'] must be a number >= 0, got -1"),
    ({"alpha": -0.75}, "asgd: config['alpha'] must be a number >= 0, got -0.75"),
    ({"t0": float("nan")}, "asgd: config['t0'] must be a number >= 0, got nan"),
])
def test_bad_config(config, message):
    check_bad_config(optim.asgd, config, message)


def test_bad_state():
    with raises_exactly(ValueError, "asgd: state['eta_t'] must be a number, got 'fast'"):
        optim.asgd(half_square, np.array([1.0, -2.0]), {}, {"eta_t": "fast"})
