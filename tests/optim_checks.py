"""Helpers the nn_legacy.optim tests share: test functions, runners that
record a whole trajectory, and the same for torch.optim.

Trajectories are compared step for step.  Where an algorithm does the same
arithmetic as torch.optim the two differ only by rounding (a different
summation order in a dot product, a fused multiply-add), so the tolerance
is ``TORCH_ATOL`` = 1e-12 on the iterates, whose size is about 1.
"""
import numpy as np
import pytest

from layer_checks import raises_exactly

TORCH_ATOL = 1e-12
START = (1.5, 1.5)          # the starting point PyTorch's legacy tests used
MINIMUM = np.array([1.0, 1.0])


def rosenbrock(x):
    """Rosenbrock's function of any dimension, as Torch7's test/rosenbrock.lua:
    f = sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2, minimum 0 at (1, ..., 1).
    Returns (f, gradient)."""
    head, tail = x[:-1], x[1:]
    f = float(np.sum(100 * (tail - head ** 2) ** 2 + (1 - head) ** 2))
    g = np.zeros_like(x)
    g[:-1] = -400 * head * (tail - head ** 2) - 2 * (1 - head)
    g[1:] += 200 * (tail - head ** 2)
    return f, g


def half_square(x):
    """f = |x|^2 / 2, whose gradient is x itself: steps are easy to do by hand."""
    return 0.5 * float(x @ x), x.copy()


def quadratic(diagonal, center):
    """f(x) = 1/2 sum_i d_i (x_i - c_i)^2 with its gradient: a convex bowl
    with minimum 0 at c, conditioned by the spread of the d_i."""
    d = np.asarray(diagonal, dtype=np.float64)
    c = np.asarray(center, dtype=np.float64)

    def f(x):
        r = x - c
        return float(0.5 * np.sum(d * r * r)), d * r
    return f


def recording(opfunc):
    """opfunc wrapped to keep a copy of every point it is evaluated at."""
    points = []

    def wrapped(x):
        points.append(np.array(x, copy=True))
        return opfunc(x)
    return wrapped, points


def run(method, config, steps, start=START, opfunc=rosenbrock, dtype=np.float64):
    """Call method `steps` times with one config dict and one state dict.
    Returns (x after each call, points opfunc saw, what each call returned)."""
    x = np.array(start, dtype=dtype)
    state = {}
    f, points = recording(opfunc)
    trajectory, results = [], []
    for _ in range(steps):
        result = method(f, x, dict(config), state)
        assert result[0] is x, f"{method.__name__} must return x itself"
        trajectory.append(x.copy())
        results.append(result)
    return np.array(trajectory), points, results


def torch_run(torch, make_optimizer, steps, start=START, before_step=None, opfunc=rosenbrock):
    """The same with a torch.optim optimizer on a float64 tensor: its closure
    hands torch the gradient from opfunc (not autograd), so both sides see
    the same numbers.  before_step(optimizer, k) may change hyper-parameters
    before step k (from 0).  Returns (x after each step, points evaluated,
    the optimizer)."""
    p = torch.tensor(start, dtype=torch.float64, requires_grad=True)
    optimizer = make_optimizer([p])
    points = []

    def closure():
        optimizer.zero_grad()
        x = p.detach().numpy().copy()
        points.append(x)
        f, g = opfunc(x)
        p.grad = torch.from_numpy(np.array(g, dtype=np.float64))
        return torch.tensor(f, dtype=torch.float64)

    trajectory = []
    for k in range(steps):
        if before_step is not None:
            before_step(optimizer, k)
        optimizer.step(closure)
        trajectory.append(p.detach().numpy().copy())
    return np.array(trajectory), points, optimizer


def assert_same_path(ours, theirs, atol=TORCH_ATOL, what="x"):
    """Two sequences of points agree step for step within atol."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: {ours.shape} steps against {theirs.shape}"
    error = np.abs(ours - theirs).max(axis=tuple(range(1, ours.ndim)))
    bad = np.flatnonzero(error > atol)
    assert bad.size == 0, (f"{what} differs at step {bad[0]} of {len(error)}: {ours[bad[0]]} against "
                           f"{theirs[bad[0]]} (largest difference {error.max():.3g}, tolerance {atol:g})")
    return error.max()


def set_group(**values_at):
    """A before_step that sets param_group entries to value_at(k) at step k."""
    def before_step(optimizer, k):
        for group in optimizer.param_groups:
            for key, value_at in values_at.items():
                group[key] = value_at(k)
    return before_step


# ---------------------------------------------------------------- checks every method shares
def check_matches_torch(method, config, optimizer, kwargs, steps):
    """method with config and torch.optim.<optimizer>(**kwargs) take the same
    path down Rosenbrock's valley for `steps` steps."""
    torch = pytest.importorskip("torch")
    ours, _, _ = run(method, config, steps)
    theirs, _, _ = torch_run(torch, lambda p: getattr(torch.optim, optimizer)(p, **kwargs), steps)
    assert_same_path(ours, theirs)


def check_weight_decay_is_l2(method, config, wd=0.1):
    """config plus weightDecay wd takes the same 20 steps, to the last bit,
    as config on f + wd/2 |x|^2."""
    f = quadratic([1.0, 3.0], [2.0, -1.0])

    def with_l2(x):
        value, g = f(x)
        return value + 0.5 * wd * float(x @ x), g + wd * x

    decayed, _, _ = run(method, dict(config, weightDecay=wd), 20, opfunc=f)
    explicit, _, _ = run(method, config, 20, opfunc=with_l2)
    np.testing.assert_array_equal(decayed, explicit)


def check_converges(method, config, steps, atol, diagonal=(1.0, 100.0)):
    """From the origin, `steps` steps reach the minimum (3, -2) of a quadratic
    bowl with this diagonal, within atol."""
    f = quadratic(list(diagonal), [3.0, -2.0])
    path, _, _ = run(method, config, steps, opfunc=f, start=(0.0, 0.0))
    np.testing.assert_allclose(path[-1], [3.0, -2.0], atol=atol)


def check_converges_annealed(method, lr0, steps, atol):
    """The same for a method without learningRateDecay, annealed by hand as
    its users do: learningRate lr0 / (1 + 0.01 k) at step k."""
    f = quadratic([1.0, 100.0], [3.0, -2.0])
    x, state = np.zeros(2), {}
    for k in range(steps):
        method(f, x, {"learningRate": lr0 / (1 + 0.01 * k)}, state)
    np.testing.assert_allclose(x, [3.0, -2.0], atol=atol)


def check_bad_config(method, config, message):
    """method refuses config with a ValueError saying message, and leaves x alone."""
    x = np.array([1.0, -2.0])
    with raises_exactly(ValueError, message):
        method(half_square, x, config)
    np.testing.assert_array_equal(x, [1.0, -2.0])
