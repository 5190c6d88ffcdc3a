"""Nonlinear conjugate gradients, Torch7's ``optim.cg``: C. E. Rasmussen's
``minimize.m`` (Polack-Ribiere directions, a line search by cubic and
quadratic interpolation and extrapolation under the Wolfe-Powell
conditions)."""
import math

import numpy as np

from . import _common

CONFIG_KEYS = ("rho", "sig", "int", "ext", "maxIter", "ratio", "maxEval", "verbose")


def cg(opfunc, x, config=None, state=None):
    """Minimise opfunc from x (updated in place) with at most ``maxEval``
    evaluations; returns ``(x, fx, evaluations)`` where fx lists f at the
    start and after each successful line search (``fx[-1]`` is f at the
    returned x).

    config (defaults in brackets): ``maxEval`` (1.25 * maxIter), the budget
    of function evaluations; ``maxIter`` (20), the most evaluations one line
    search may spend; ``rho`` (0.01) and ``sig`` (0.5), the Wolfe-Powell
    constants (sufficient decrease and slope ratio, 0 < rho < sig < 1);
    ``int`` (0.1), how close to the ends of a bracket a new point may fall;
    ``ext`` (3.0), the most a step may grow by extrapolation; ``ratio``
    (100), the most the initial step may grow from one line search to the
    next.  ``verbose`` is accepted and ignored, as in Torch7.

    Each call is a fresh run: nothing is carried between calls (Torch7 keeps
    only scratch buffers in the state), so ``state`` is accepted for the
    common calling convention and left untouched.

    Two choices where Torch7's transcription and ``minimize.m`` part ways:
    after a failed line search this retries once along the steepest descent
    direction before giving up, as minimize.m does (Torch7's ``if ls_failed``
    is always true in Lua, where 0 counts as true, so it gives up at once).
    And when ``maxEval`` is not a whole number (the default 1.25 * maxIter
    may not be), a line search's share of the budget never reaches exactly
    0, so -- as in Torch7 -- it may run past maxEval while it extrapolates;
    this one stops at ``maxEval + maxIter`` evaluations at the latest, where
    Torch7 can go on for ever.
    """
    name = "cg"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS)
    rho = _common.number(name, config, "rho", 0.01, low=0, high=1, low_open=True, high_open=True)
    sig = _common.number(name, config, "sig", 0.5, low=0, high=1, low_open=True, high_open=True)
    if not rho < sig:
        raise ValueError(f"{name}: config['rho'] ({rho:g}) must be below config['sig'] ({sig:g})")
    interp = _common.number(name, config, "int", 0.1, low=0, high=1, low_open=True, high_open=True)
    ext = _common.number(name, config, "ext", 3.0, low=1, low_open=True)
    max_iter = _common.number(name, config, "maxIter", 20, low=1, integer=True)
    ratio = _common.number(name, config, "ratio", 100, low=0, low_open=True)
    max_eval = _common.number(name, config, "maxEval", max_iter * 1.25, low=0, low_open=True)
    red = 1.0
    # a line search stops when its budget reaches exactly 0, as in Torch7; if
    # maxEval is not a whole number it never does, and Torch7 may then go on
    # extrapolating for ever (nan values included): stop there at the latest
    hard_cap = max_eval + max_iter

    evaluations = 0

    def evaluate():
        nonlocal evaluations
        evaluations += 1
        f, g = _common.evaluate(name, opfunc, x)
        return np.float64(f), g

    # Lua arithmetic: a division by zero or the root of a negative number
    # gives inf or nan (handled by the tests below) instead of an exception
    with np.errstate(all="ignore"):
        f1, df1 = evaluate()
        fx = [float(f1)]
        s = -df1                         # search direction
        d1 = np.float64(-_common.dot(s, s))  # slope along it
        z1 = red / (1 - d1)              # initial step
        ls_failed = False

        while evaluations < max_eval:
            x0, f0, df0 = x.copy(), f1, df1   # the best point so far
            x += z1 * s
            f2, df2 = evaluate()
            d2 = np.float64(_common.dot(df2, s))
            f3, d3, z3 = f1, d1, -z1          # point 3 starts as point 1
            budget = min(max_iter, max_eval - evaluations)
            success = False
            limit = -1.0                      # no upper bracket yet

            while True:
                # the point fails Wolfe-Powell: interpolate back into the bracket
                while (f2 > f1 + z1 * rho * d1 or d2 > -sig * d1) and budget > 0:
                    limit = z1
                    if f2 > f1:
                        z2 = z3 - (0.5 * d3 * z3 * z3) / (d3 * z3 + f2 - f3)   # quadratic fit
                    else:
                        a = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)                 # cubic fit
                        b = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
                        z2 = (np.sqrt(b * b - a * d2 * z3 * z3) - b) / a
                    if not math.isfinite(z2):
                        z2 = z3 / 2                    # bisect when the fit is useless
                    z2 = max(min(z2, interp * z3), (1 - interp) * z3)
                    z1 = z1 + z2
                    x += z2 * s
                    f2, df2 = evaluate()
                    budget -= 1
                    d2 = np.float64(_common.dot(df2, s))
                    z3 = z3 - z2

                if f2 > f1 + z1 * rho * d1 or d2 > -sig * d1:
                    break                              # out of budget: failed
                if d2 > sig * d1:
                    success = True
                    break
                if budget == 0 or evaluations >= hard_cap:
                    break

                # still descending steeply: extrapolate by a cubic fit
                a = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)
                b = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
                z2 = -d2 * z3 * z3 / (b + np.sqrt(b * b - a * d2 * z3 * z3))
                if not math.isfinite(z2) or z2 < 0:
                    z2 = z1 * (ext - 1) if limit < -0.5 else (limit - z1) / 2
                elif limit > -0.5 and z2 + z1 > limit:
                    z2 = (limit - z1) / 2
                elif limit < -0.5 and z2 + z1 > z1 * ext:
                    z2 = z1 * (ext - 1)
                elif z2 < -z3 * interp:
                    z2 = -z3 * interp
                elif limit > -0.5 and z2 < (limit - z1) * (1 - interp):
                    z2 = (limit - z1) * (1 - interp)
                f3, d3, z3 = f2, d2, -z2
                z1 = z1 + z2
                x += z2 * s
                f2, df2 = evaluate()
                budget -= 1
                d2 = np.float64(_common.dot(df2, s))

            if success:
                f1 = f2
                fx.append(float(f1))
                beta = (_common.dot(df2, df2) - _common.dot(df2, df1)) / _common.dot(df1, df1)
                s = beta * s - df2                     # Polack-Ribiere direction
                df1, df2 = df2, df1
                d2 = np.float64(_common.dot(df1, s))
                if d2 > 0:                             # not downhill: steepest descent
                    s = -df1
                    d2 = np.float64(-_common.dot(s, s))
                z1 = z1 * min(ratio, d1 / (d2 - 1e-320))
                d1 = d2
                ls_failed = False
            else:
                x[...] = x0                            # back to the best point
                f1, df1 = f0, df0
                if ls_failed or evaluations > max_eval:
                    break                              # failed twice in a row, or out of time
                df1, df2 = df2, df1                    # as minimize.m: swap the derivatives
                s = -df1                               # and try steepest descent
                d1 = np.float64(-_common.dot(s, s))
                z1 = 1 / (1 - d1)
                ls_failed = True
    return x, fx, evaluations
