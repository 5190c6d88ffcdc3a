"""Adam (Kingma and Ba, 2015), Torch7's ``optim.adam``."""
import math

from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("learningRate", "learningRateDecay", "beta1", "beta2", "epsilon", "weightDecay")
STATE_KEYS = ("t", "m", "v")


def adam(opfunc, x, config=None, state=None):
    """One Adam step on x (updated in place); returns ``(x, [f(x)])``.

    With g the gradient (plus ``weightDecay * x``) and t the step number
    counted from 1::

        m <- beta1 * m + (1 - beta1) * g
        v <- beta2 * v + (1 - beta2) * g * g
        lr_t = learningRate / (1 + (t - 1) * learningRateDecay)
        x <- x - lr_t * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon)

    Note where epsilon sits: added to sqrt(v) before the bias correction
    (torch.optim.Adam adds it after).

    config: ``learningRate`` (1e-3), ``learningRateDecay`` (0), ``beta1``
    (0.9), ``beta2`` (0.999), ``epsilon`` (1e-8), ``weightDecay`` (0).
    state: ``t`` (steps taken), ``m``, ``v``.
    """
    name = "adam"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    lr = _common.number(name, config, "learningRate", 1e-3, low=0)
    lrd = _common.number(name, config, "learningRateDecay", 0, low=0)
    beta1 = _common.number(name, config, "beta1", 0.9, low=0, high=1, high_open=True)
    beta2 = _common.number(name, config, "beta2", 0.999, low=0, high=1, high_open=True)
    epsilon = _common.number(name, config, "epsilon", 1e-8, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    t = _common.counter(name, state, "t")
    m = _common.state_array(name, state, "m", x)
    v = _common.state_array(name, state, "v", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    clr = lr / (1 + t * lrd)
    t += 1
    state["t"] = t

    m *= beta1
    m += (1 - beta1) * dfdx
    v *= beta2
    v += (1 - beta2) * dfdx * dfdx
    denom = xp.sqrt(v)
    denom += epsilon

    step_size = clr * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    x -= step_size * m / denom
    return x, [fx]
