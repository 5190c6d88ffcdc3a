"""optim.lbfgs against torch.optim.LBFGS, which ports the same Torch7 code,
and on its own terms.

Two of torch's stopping tests measure with the largest element where
Torch7 sums (``max|g| <= tolerance_grad`` against ``sum|g| <= tolFun``,
and the same for the step); with both tolerances 0 the tests coincide (a
vector is zero by either measure) and the two must take the same steps,
evaluating opfunc at the same points.
"""
import numpy as np
import pytest

from nn_legacy import optim
from optim_checks import MINIMUM, assert_same_path, quadratic, recording, rosenbrock, run, torch_run
from layer_checks import raises_exactly

NO_TOLERANCE = {"tolFun": 0, "tolX": 0}
TORCH_NO_TOLERANCE = {"tolerance_grad": 0, "tolerance_change": 0}


@pytest.mark.parametrize("config, kwargs, calls", [
    ({}, {}, 100),
    ({"nCorrection": 3}, {"history_size": 3}, 100),
    ({"maxIter": 7, "maxEval": 5}, {"max_iter": 7, "max_eval": 5}, 100),
    # PyTorch's legacy test: many short calls.  Past the 50th call this run
    # crosses a stretch where a start one ulp away ends 1e-4 away, so the
    # comparison stops at 40 calls (200 iterations)
    ({"learningRate": 5e-2, "maxIter": 5}, {"lr": 5e-2, "max_iter": 5}, 40),
], ids=["default", "memory-3", "max-eval", "short-calls"])
def test_matches_torch(config, kwargs, calls):
    torch = pytest.importorskip("torch")
    ours, our_points, _ = run(optim.lbfgs, dict(config, **NO_TOLERANCE), calls)
    theirs, their_points, _ = torch_run(
        torch, lambda p: torch.optim.LBFGS(p, **kwargs, **TORCH_NO_TOLERANCE), calls)
    assert_same_path(our_points, their_points, what="the points evaluated")
    assert_same_path(ours, theirs)


# ---- Torch7's test_lbfgs.lua, from (0, 0) ----

def test_torch7s_batch_test_converges():
    x = np.zeros(2)
    _, fx, evaluations = optim.lbfgs(rosenbrock, x, {"maxIter": 100, "learningRate": 1e-1})
    assert evaluations == 100 == len(fx)          # 100 iterations: the start, and after all but the last step
    np.testing.assert_allclose(x, MINIMUM, atol=1e-3)
    x = np.zeros(2)
    _, fx, evaluations = optim.lbfgs(rosenbrock, x, {"maxIter": 100})
    assert evaluations < 50
    np.testing.assert_allclose(x, MINIMUM, atol=1e-4)


def test_torch7s_stochastic_test_carries_the_memory():
    """100 calls of one iteration each, one evaluation each, reach the
    minimum as one call of 100 iterations does: the state carries it all."""
    x, state = np.zeros(2), {}
    for _ in range(100):
        _, fx, evaluations = optim.lbfgs(rosenbrock, x, {"learningRate": 1e-1, "maxIter": 1}, state)
        assert evaluations == len(fx) == 1
    assert state["funcEval"] == state["nIter"] == 100
    np.testing.assert_allclose(x, MINIMUM, atol=1e-3)


# ---- steps by hand ----

def test_two_steps_by_hand():
    # f = 2 x^2 from 1, learningRate 0.5: g0 = 4, the first step is
    # min(1, 1/|g0|) * 0.5 = 0.125 along -g0, to x1 = 0.5.  Then g1 = 2,
    # s = -0.5, y = -2, Hdiag = s.y / y.y = 1/4, so d = -g1 / 4 = -0.5 (Newton's
    # step, exact for a quadratic) and the step 0.5 d lands on x2 = 0.25.
    opfunc, points = recording(lambda v: (2 * float(v[0] ** 2), 4 * v))
    x, state = np.array([1.0]), {}
    optim.lbfgs(opfunc, x, {"learningRate": 0.5, "maxIter": 2}, state)
    np.testing.assert_array_equal(np.ravel(points), [1.0, 0.5])
    np.testing.assert_array_equal(x, [0.25])
    assert state["Hdiag"] == 0.25 and state["t"] == 0.5
    np.testing.assert_array_equal(state["d"], [-0.5])


# ---- the options ----

def test_max_iter_and_max_eval():
    _, fx, evaluations = optim.lbfgs(rosenbrock, np.zeros(2), {"maxIter": 7})
    assert evaluations == len(fx) == 7
    _, _, evaluations = optim.lbfgs(rosenbrock, np.zeros(2), {"maxIter": 50, "maxEval": 12})
    assert evaluations == 12
    state = {}
    optim.lbfgs(rosenbrock, np.zeros(2), {"maxIter": 7}, state)
    assert state["nIter"] == 7


def test_tol_fun_stops_at_a_small_gradient():
    f = quadratic([1.0, 10.0], [3.0, -2.0])
    opfunc, points = recording(f)
    x = np.zeros(2)
    optim.lbfgs(opfunc, x, {"maxIter": 100, "tolFun": 1e-3, "learningRate": 0.1})
    sizes = [np.abs(f(p)[1]).sum() for p in points]
    assert sizes[-1] <= 1e-3 < min(sizes[:-1])


def test_at_a_minimum_it_returns_at_once():
    f = quadratic([1.0, 10.0], [3.0, -2.0])
    x, state = np.array([3.0, -2.0]), {}
    _, fx, evaluations = optim.lbfgs(f, x, {}, state)
    assert (fx, evaluations) == ([0.0], 1)
    np.testing.assert_array_equal(x, [3.0, -2.0])
    assert state == {"funcEval": 1, "nIter": 0}


def test_tol_x_stops_when_f_stops_changing():
    f = quadratic([1.0, 10.0], [3.0, -2.0])
    x = np.zeros(2)
    _, fx, _ = optim.lbfgs(f, x, {"maxIter": 100, "tolX": 1e-4, "learningRate": 0.1})
    changes = np.abs(np.diff(fx))
    assert changes[-1] < 1e-4 <= changes[:-1].min()


def test_tol_x_also_refuses_a_direction_that_barely_descends():
    """The first direction is -g, along which f falls at rate |g|^2 = 4; a
    tolX above that makes it stop before any step."""
    x = np.array([1.0, -1.0, 1.0, -1.0])
    _, fx, evaluations = optim.lbfgs(lambda v: (0.5 * float(v @ v), v.copy()), x, {"tolX": 4.5})
    assert evaluations == 1
    np.testing.assert_array_equal(x, [1.0, -1.0, 1.0, -1.0])


def test_n_correction_bounds_the_memory():
    f = quadratic(np.arange(1.0, 11.0), np.linspace(-1, 1, 10))
    state = {}
    optim.lbfgs(f, np.zeros(10), dict(NO_TOLERANCE, maxIter=15, nCorrection=4, learningRate=0.5), state)
    assert len(state["old_dirs"]) == len(state["old_stps"]) == 4


def test_a_line_search_sets_the_steps():
    """With an exact line search, L-BFGS keeping every pair is exact on an
    n-dimensional quadratic after n iterations (here 2)."""
    scales, center = np.array([1.0, 25.0]), np.array([3.0, -2.0])
    f = quadratic(scales, center)
    calls = []

    def exact(opfunc, x, t, d, fx, g, gtd, options):
        calls.append((t, fx, gtd, options))
        step = -gtd / float(d @ (scales * d))       # minimises f(x + step d)
        x += step * d
        value, grad = opfunc(x)
        return value, grad, x, step, 1

    x = np.zeros(2)
    _, fx, evaluations = optim.lbfgs(f, x, {"lineSearch": exact, "lineSearchOptions": "opts", "maxIter": 2})
    np.testing.assert_allclose(x, center, atol=1e-14)
    assert evaluations == 3 and len(fx) == 3 and fx[-1] < 1e-28
    assert calls[0][0] == min(1, 1 / np.abs(f(np.zeros(2))[1]).sum())   # the first guess of t
    assert calls[0][1] == fx[0] and calls[0][3] == "opts"
    assert calls[1][0] == 1                                              # then learningRate


def test_a_line_search_may_return_a_new_x():
    def search(opfunc, x, t, d, fx, g, gtd, options):
        new = x + t * d
        value, grad = opfunc(new)
        return value, grad, new, t, 1

    x = np.zeros(2)
    buffer = x
    result = optim.lbfgs(rosenbrock, x, {"lineSearch": search, "maxIter": 3})
    plain = np.zeros(2)
    _, fx, _ = optim.lbfgs(rosenbrock, plain, {"maxIter": 3})   # the same fixed steps
    assert result[0] is buffer
    np.testing.assert_array_equal(x, plain)
    # the search reports f after every step; the plain run skips the last evaluation
    assert result[1][:3] == fx and len(result[1]) == 4


@pytest.mark.parametrize("answer, error, message", [
    (lambda x: None, TypeError, "lbfgs: config['lineSearch'] must return (f, g, x, t, evaluations), got NoneType"),
    (lambda x: (1.0, np.zeros(3), x, 1.0, 1), ValueError,
     "lbfgs: the gradient config['lineSearch'] returns has shape [3] but x has shape [2]"),
    (lambda x: (1.0, np.zeros(2), x[:1], 1.0, 1), ValueError,
     "lbfgs: config['lineSearch'] must return x as an array of shape [2]"),
    (lambda x: (1.0, np.zeros(2), x, "1", 1), TypeError,
     "lbfgs: config['lineSearch'] returned a step t that is not a number: '1'"),
    (lambda x: (1.0, np.zeros(2), x, 1.0, -1), ValueError,
     "lbfgs: config['lineSearch'] returned evaluation count -1"),
])
def test_a_bad_line_search(answer, error, message):
    with raises_exactly(error, message):
        optim.lbfgs(rosenbrock, np.zeros(2), {"lineSearch": lambda opfunc, x, *rest: answer(x)})


def test_verbose_says_why_it_stopped(capsys):
    optim.lbfgs(rosenbrock, np.zeros(2), {"maxIter": 3, "verbose": True})
    assert capsys.readouterr().out == "<optim.lbfgs> reached max number of iterations\n"


@pytest.mark.parametrize("config, error, message", [
    ({"maxIter": 0}, ValueError, "lbfgs: config['maxIter'] must be an integer >= 1, got 0"),
    ({"maxEval": 0}, ValueError, "lbfgs: config['maxEval'] must be a number > 0, got 0"),
    ({"tolFun": -1e-5}, ValueError, "lbfgs: config['tolFun'] must be a number >= 0, got -1e-05"),
    ({"tolX": -1}, ValueError, "lbfgs: config['tolX'] must be a number >= 0, got -1"),
    ({"nCorrection": 2.5}, ValueError, "lbfgs: config['nCorrection'] must be an integer >= 1, got 2.5"),
    ({"learningRate": 0}, ValueError, "lbfgs: config['learningRate'] must be a number > 0, got 0"),
    ({"lineSearch": "lswolfe"}, TypeError, "lbfgs: config['lineSearch'] must be a function, got str"),
    ({"verbose": 1}, TypeError, "lbfgs: config['verbose'] must be True or False, got 1"),
])
def test_bad_config(config, error, message):
    with raises_exactly(error, message):
        optim.lbfgs(rosenbrock, np.zeros(2), config)
