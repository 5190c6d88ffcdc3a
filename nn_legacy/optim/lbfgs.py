"""Limited-memory BFGS after M. Schmidt's minFunc, Torch7's ``optim.lbfgs``."""
import numbers

import numpy as np

from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("maxIter", "maxEval", "tolFun", "tolX", "nCorrection", "lineSearch",
               "lineSearchOptions", "learningRate", "verbose")
STATE_KEYS = ("funcEval", "nIter", "d", "t", "old_dirs", "old_stps", "Hdiag", "g_old", "f_old")

# curvature y.s below which a step pair does not enter the memory
_CURVATURE_FLOOR = 1e-10


def lbfgs(opfunc, x, config=None, state=None):
    """Up to ``maxIter`` L-BFGS iterations from x (updated in place); returns
    ``(x, fx, evaluations)`` where fx lists every f evaluated along the way
    (``fx[0]`` at the start) and evaluations counts this call's calls of
    opfunc.

    Without a line search each iteration steps by ``learningRate`` along the
    L-BFGS direction (the very first step, of the first call, is scaled down
    to ``min(1, 1 / sum|g|)`` times that), and opfunc is evaluated again
    after each step except the last.

    config (defaults in brackets):

    - ``maxIter`` (20): iterations per call; ``maxEval`` (1.25 * maxIter):
      evaluations per call;
    - ``tolFun`` (1e-5): stop once ``sum|g| <= tolFun`` (also checked at the
      start, before any step);
    - ``tolX`` (1e-9): stop when the step ``sum|t * d|`` or the change of f
      is below it, or when the direction is not downhill by more than it;
    - ``nCorrection`` (100): step pairs kept in memory;
    - ``learningRate`` (1): the step length;
    - ``lineSearch`` (None): a function
      ``(opfunc, x, t, d, f, g, gtd, lineSearchOptions) -> (f, g, x, t, evaluations)``
      as Torch7's ``optim.lswolfe``; it moves x to ``x + t * d`` for the t
      it picks (in place, or by returning the new point) and reports f and
      g there;
    - ``verbose`` (False): print why it stopped.

    state carries the memory between calls, so a stochastic loop can call it
    with ``maxIter = 1`` again and again: ``funcEval`` and ``nIter`` (totals
    over all calls), ``d``, ``t``, ``old_dirs``, ``old_stps``, ``Hdiag``,
    ``g_old``, ``f_old``.
    """
    name = "lbfgs"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    max_iter = _common.number(name, config, "maxIter", 20, low=1, integer=True)
    max_eval = _common.number(name, config, "maxEval", max_iter * 1.25, low=0, low_open=True)
    tol_fun = _common.number(name, config, "tolFun", 1e-5, low=0)
    tol_x = _common.number(name, config, "tolX", 1e-9, low=0)
    n_correction = _common.number(name, config, "nCorrection", 100, low=1, integer=True)
    learning_rate = _common.number(name, config, "learningRate", 1, low=0, low_open=True)
    line_search = config.get("lineSearch")
    if line_search is not None and not callable(line_search):
        raise TypeError(f"{name}: config['lineSearch'] must be a function, got {type(line_search).__name__}")
    line_search_options = config.get("lineSearchOptions")
    verbose = _common.flag(name, config, "verbose", False)
    _common.counter(name, state, "funcEval")
    _common.counter(name, state, "nIter")
    for key in ("d", "g_old"):
        if state.get(key) is not None:
            _common.state_array(name, state, key, x)

    def say(message):
        if verbose:
            print(f"<optim.lbfgs> {message}")

    f, g = _common.evaluate(name, opfunc, x)
    f_hist = [f]
    evaluations = 1
    state["funcEval"] += 1

    if xp.abs(g).sum() <= tol_fun:
        say("optimality condition below tolFun")
        return x, f_hist, evaluations

    d = state.get("d")
    t = state.get("t")
    old_dirs = state.get("old_dirs")
    old_stps = state.get("old_stps")
    h_diag = state.get("Hdiag")
    g_old = state.get("g_old")
    f_old = state.get("f_old")

    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        state["nIter"] += 1

        # ---- the direction ----
        if state["nIter"] == 1:
            d = -g
            old_dirs, old_stps = [], []   # steps s and gradient changes y
            h_diag = 1.0
        else:
            y = g - g_old
            s = d * t
            ys = _common.dot(y, s)
            if ys > _CURVATURE_FLOOR:
                if len(old_dirs) == n_correction:
                    del old_dirs[0], old_stps[0]
                old_dirs.append(s)
                old_stps.append(y)
                h_diag = ys / _common.dot(y, y)
            d = _two_loop(g, old_dirs, old_stps, h_diag)
        g_old = g.copy()
        f_old = f

        # ---- the step ----
        gtd = _common.dot(g, d)
        if gtd > -tol_x:
            say("no descent along the direction")
            break

        if state["nIter"] == 1:
            t = min(1.0, 1.0 / float(xp.abs(g).sum())) * learning_rate
        else:
            t = learning_rate

        ls_evaluations = 0
        if line_search is not None:
            f, g, t, ls_evaluations = _search(name, line_search, opfunc, x, t, d, f, g, gtd,
                                              line_search_options)
            f_hist.append(f)
        else:
            x += t * d
            if n_iter != max_iter:
                f, g = _common.evaluate(name, opfunc, x)
                ls_evaluations = 1
                f_hist.append(f)
        evaluations += ls_evaluations
        state["funcEval"] += ls_evaluations

        # ---- stopping tests ----
        if n_iter == max_iter:
            say("reached max number of iterations")
            break
        if evaluations >= max_eval:
            say("max nb of function evals")
            break
        if xp.abs(g).sum() <= tol_fun:
            say("optimality condition below tolFun")
            break
        if xp.abs(d * t).sum() <= tol_x:
            say("step size below tolX")
            break
        if abs(f - f_old) < tol_x:
            say("function value changing less than tolX")
            break

    state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, Hdiag=h_diag, g_old=g_old,
                 f_old=f_old)
    return x, f_hist, evaluations


def _two_loop(g, dirs, stps, h_diag):
    """-H g for the L-BFGS inverse Hessian H built from the pairs (s, y) =
    (dirs[i], stps[i]) over the scaled identity h_diag."""
    rho = [1.0 / _common.dot(stps[i], dirs[i]) for i in range(len(dirs))]
    alpha = [0.0] * len(dirs)
    q = -g
    for i in reversed(range(len(dirs))):
        alpha[i] = _common.dot(dirs[i], q) * rho[i]
        q -= alpha[i] * stps[i]
    r = q * h_diag
    for i in range(len(dirs)):
        beta = _common.dot(stps[i], r) * rho[i]
        r += (alpha[i] - beta) * dirs[i]
    return r


def _search(name, line_search, opfunc, x, t, d, f, g, gtd, options):
    """Run the user's line search; x ends at the point it chose."""
    result = line_search(opfunc, x, t, d, f, g, gtd, options)
    if not isinstance(result, (tuple, list)) or len(result) != 5:
        raise TypeError(f"{name}: config['lineSearch'] must return (f, g, x, t, evaluations), "
                        f"got {type(result).__name__}")
    f_new, g_new, x_new, t_new, count = result
    f_new, g_new = _common.loss_and_gradient(name, (f_new, g_new), x, "config['lineSearch']")
    if not isinstance(x_new, (np.ndarray, type(x))) or x_new.shape != x.shape:
        raise ValueError(f"{name}: config['lineSearch'] must return x as an array of shape {list(x.shape)}")
    if x_new is not x:
        x[...] = x_new
    for value, what in ((t_new, "step t"), (count, "evaluation count")):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name}: config['lineSearch'] returned a {what} that is not a number: {value!r}")
    if count < 0 or not float(count).is_integer():
        raise ValueError(f"{name}: config['lineSearch'] returned evaluation count {count!r}")
    return f_new, g_new, float(t_new), int(count)
