"""optim.cg: torch.optim has no conjugate gradients, so it is checked
against the output Rasmussen publishes for his minimize.m (which Torch7's
cg transcribes) on Rosenbrock from (0, 0), and on its own terms.

http://www.gatsby.ucl.ac.uk/~edward/code/minimize/example.html prints, for
``minimize([0 0]', 'rosenbrock', 25)`` (25 line searches), the value after
each line search, with 14 decimals:
"""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import MINIMUM, quadratic, recording, rosenbrock
from layer_checks import raises_exactly

PUBLISHED = [0.78251060908545, 0.39556533940410, 0.21891183735928, 0.08594362786359, 0.08167279250615,
             0.04803799828332, 0.03385004042904, 0.01810891772958, 0.01747706436156, 0.01719294050541,
             0.00647710313861, 0.00317008743069, 0.00002390064486, 0.00000859309602, 0.00000859309029,
             0.00000076626706, 0.00000000009216]
PRINTED = 5e-15     # half a unit in the 14th decimal


def test_25_evaluations_as_published():
    """``minimize([0 0]', 'rosenbrock', -25)``: 25 evaluations, whose
    successful line searches reach the first eight published values.  (Its
    published x is that of the ninth line search, which did not count as a
    success; Torch7's cg, and this one, return the last accepted point.)"""
    opfunc, points = recording(rosenbrock)
    x = np.zeros(2)
    _, fx, evaluations = optim.cg(opfunc, x, {"maxEval": 25})
    assert evaluations == 25 == len(points)
    assert fx[0] == 1.0
    np.testing.assert_allclose(fx[1:], PUBLISHED[:8], rtol=0, atol=PRINTED)
    assert rosenbrock(x)[0] == fx[-1]


def test_torch7s_own_test_converges_to_the_minimum():
    """Torch7's test_cg.lua runs ``cg(rosenbrock, zeros(2), {maxIter=50})``:
    62.5 evaluations allowed.  Its line searches reach every published value
    (to 1e-13: past the eighth, the rounding of MATLAB and of numpy, in their
    own orders, has drifted by some 1e-14), and x ends at (1, 1)."""
    x = np.zeros(2)
    _, fx, evaluations = optim.cg(rosenbrock, x, {"maxIter": 50})
    np.testing.assert_allclose(fx[1:9], PUBLISHED[:8], rtol=0, atol=PRINTED)
    np.testing.assert_allclose(fx[1:], PUBLISHED, rtol=0, atol=1e-13)
    np.testing.assert_allclose(x, MINIMUM, atol=1e-6)
    # with a budget that is not a whole number the last line search may
    # overrun it, as in Torch7 (its share never reaches exactly 0)
    assert 62.5 < evaluations <= 62.5 + 50


@pytest.mark.parametrize("budget", [3, 10, 25, 40])
def test_max_eval_bounds_the_evaluations(budget):
    opfunc, points = recording(rosenbrock)
    _, _, evaluations = optim.cg(opfunc, np.array([-1.2, 1.0]), {"maxEval": budget})
    assert evaluations == len(points) == budget


def test_max_iter_bounds_each_line_search():
    """f = x^4 from 10: the first step, 1 / (1 + |g|^2), is tiny, and the
    line search must extrapolate many times.  maxIter 5 lets it try only 5
    more points: it fails, cg restores x, retries once along the steepest
    descent (as minimize.m does) and gives up: 1 + 6 + 6 evaluations.  With
    maxIter 20 the same search succeeds."""
    quartic = lambda v: (float(v[0] ** 4), 4 * v ** 3)  # noqa: E731
    x = np.array([10.0])
    _, fx, evaluations = optim.cg(quartic, x, {"maxIter": 5, "maxEval": 100})
    assert evaluations == 13
    assert fx == [1e4]
    np.testing.assert_array_equal(x, [10.0])
    _, fx, _ = optim.cg(quartic, x, {"maxIter": 20, "maxEval": 100})
    assert len(fx) > 1 and fx[-1] < 1e-40


def test_converges_on_a_quadratic():
    f = quadratic([1.0, 4.0, 9.0], [1.0, -1.0, 2.0])
    x = np.zeros(3)
    _, fx, _ = optim.cg(f, x, {"maxEval": 80})
    np.testing.assert_allclose(x, [1.0, -1.0, 2.0], atol=1e-12)
    assert all(a > b for a, b in zip(fx, fx[1:])), "each line search must lower f"


def test_nothing_is_kept_between_calls():
    state = {}
    x = np.zeros(2)
    optim.cg(rosenbrock, x, {"maxEval": 10}, state)
    assert state == {}
    again = np.zeros(2)
    optim.cg(rosenbrock, again, {"maxEval": 10}, state)
    np.testing.assert_array_equal(again, x)


@pytest.mark.parametrize("config, message", [
    ({"rho": 0.6}, "cg: config['rho'] (0.6) must be below config['sig'] (0.5)"),
    ({"sig": 1.0}, "cg: config['sig'] must be a number in (0, 1), got 1.0"),
    ({"int": 0}, "cg: config['int'] must be a number in (0, 1), got 0"),
    ({"ext": 1}, "cg: config['ext'] must be a number > 1, got 1"),
    ({"maxIter": 0}, "cg: config['maxIter'] must be an integer >= 1, got 0"),
    ({"maxEval": -25}, "cg: config['maxEval'] must be a number > 0, got -25"),
    ({"ratio": 0}, "cg: config['ratio'] must be a number > 0, got 0"),
])
def test_bad_config(config, message):
    x = np.zeros(2)
    with raises_exactly(ValueError, message):
        optim.cg(rosenbrock, x, config)
