"""Averaged stochastic gradient descent, after L. Bottou's sgd-2.0,
Torch7's ``optim.asgd``."""
import numbers

from . import _common

CONFIG_KEYS = ("eta0", "lambda", "alpha", "t0")
STATE_KEYS = ("eta_t", "mu_t", "t", "ax")


def asgd(opfunc, x, config=None, state=None):
    """One ASGD step on x (updated in place); returns ``(x, [f(x)], ax)``
    where ax is the running average of the iterates (``state['ax']``).

    With eta_t and mu_t from the state (eta0 and 1 at first) and t the
    number of steps taken before this one::

        x <- (1 - lambda * eta_t) * x - eta_t * g
        ax <- ax + mu_t * (x - ax)        (ax <- x while mu_t is 1)
        eta_t <- eta0 / (1 + lambda * eta0 * (t + 1)) ^ alpha
        mu_t <- 1 / max(1, t + 1 - t0)

    so averaging starts after t0 steps.  config: ``eta0`` (1e-4),
    ``lambda`` (1e-4), ``alpha`` (0.75), ``t0`` (1e6).  state: ``eta_t``,
    ``mu_t``, ``t``, ``ax``.
    """
    name = "asgd"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    eta0 = _common.number(name, config, "eta0", 1e-4, low=0)
    lam = _common.number(name, config, "lambda", 1e-4, low=0)
    alpha = _common.number(name, config, "alpha", 0.75, low=0)
    t0 = _common.number(name, config, "t0", 1e6, low=0)
    eta_t = _state_number(name, state, "eta_t", eta0)
    mu_t = _state_number(name, state, "mu_t", 1)
    t = _common.counter(name, state, "t")
    ax = _common.state_array(name, state, "ax", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    x *= 1 - lam * eta_t
    x -= eta_t * dfdx

    if mu_t != 1:
        ax += mu_t * (x - ax)
    else:
        ax[...] = x

    t += 1
    state["t"] = t
    state["eta_t"] = eta0 / (1 + lam * eta0 * t) ** alpha
    state["mu_t"] = 1 / max(1, t - t0)
    return x, [fx], ax


def _state_number(name, state, key, default):
    value = state.setdefault(key, default)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name}: state[{key!r}] must be a number, got {value!r}")
    return float(value)
