"""AdaDelta (Zeiler, 2012), Torch7's ``optim.adadelta``."""
from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("rho", "eps", "weightDecay")
STATE_KEYS = ("evalCounter", "paramVariance", "accDelta")


def adadelta(opfunc, x, config=None, state=None):
    """One AdaDelta step on x (updated in place); returns ``(x, [f(x)])``.

    There is no learning rate.  With g the gradient (plus
    ``weightDecay * x``)::

        paramVariance <- rho * paramVariance + (1 - rho) * g * g
        delta = sqrt(accDelta + eps) / sqrt(paramVariance + eps) * g
        x <- x - delta
        accDelta <- rho * accDelta + (1 - rho) * delta * delta

    config: ``rho`` (0.9), ``eps`` (1e-6), ``weightDecay`` (0).  state:
    ``evalCounter``, ``paramVariance``, ``accDelta``.
    """
    name = "adadelta"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    rho = _common.number(name, config, "rho", 0.9, low=0, high=1)
    eps = _common.number(name, config, "eps", 1e-6, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    nevals = _common.counter(name, state, "evalCounter")
    variance = _common.state_array(name, state, "paramVariance", x)
    acc_delta = _common.state_array(name, state, "accDelta", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    variance *= rho
    variance += (1 - rho) * dfdx * dfdx
    std = xp.sqrt(variance + eps)
    delta = xp.sqrt(acc_delta + eps)
    delta /= std
    delta *= dfdx
    x -= delta
    acc_delta *= rho
    acc_delta += (1 - rho) * delta * delta

    state["evalCounter"] = nevals + 1
    return x, [fx]
