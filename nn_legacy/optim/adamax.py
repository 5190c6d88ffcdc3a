"""AdaMax, the infinity-norm variant of Adam (Kingma and Ba, 2015),
Torch7's ``optim.adamax``."""
from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("learningRate", "beta1", "beta2", "epsilon", "weightDecay")
STATE_KEYS = ("t", "m", "u")


def adamax(opfunc, x, config=None, state=None):
    """One AdaMax step on x (updated in place); returns ``(x, [f(x)])``.

    With g the gradient (plus ``weightDecay * x``) and t counted from 1::

        m <- beta1 * m + (1 - beta1) * g
        u <- max(beta2 * u, |g| + epsilon)
        x <- x - learningRate / (1 - beta1^t) * m / u

    config: ``learningRate`` (2e-3), ``beta1`` (0.9), ``beta2`` (0.999),
    ``epsilon`` (1e-38), ``weightDecay`` (0).  state: ``t``, ``m``, ``u``.
    """
    name = "adamax"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    lr = _common.number(name, config, "learningRate", 2e-3, low=0)
    beta1 = _common.number(name, config, "beta1", 0.9, low=0, high=1, high_open=True)
    beta2 = _common.number(name, config, "beta2", 0.999, low=0, high=1, high_open=True)
    epsilon = _common.number(name, config, "epsilon", 1e-38, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    t = _common.counter(name, state, "t")
    m = _common.state_array(name, state, "m", x)
    u = _common.state_array(name, state, "u", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    t += 1
    state["t"] = t

    m *= beta1
    m += (1 - beta1) * dfdx
    u *= beta2
    xp.maximum(u, xp.abs(dfdx) + epsilon, out=u)

    step_size = lr / (1 - beta1 ** t)
    x -= step_size * m / u
    return x, [fx]
