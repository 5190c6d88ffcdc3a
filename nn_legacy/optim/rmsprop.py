"""RMSprop (Tieleman and Hinton, 2012), Torch7's ``optim.rmsprop``."""
from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("learningRate", "alpha", "epsilon", "weightDecay", "initialMean")
STATE_KEYS = ("m",)


def rmsprop(opfunc, x, config=None, state=None):
    """One RMSprop step on x (updated in place); returns ``(x, [f(x)])``.

    With g the gradient (plus ``weightDecay * x``)::

        m <- alpha * m + (1 - alpha) * g * g      (m starts at initialMean)
        x <- x - learningRate * g / (sqrt(m) + epsilon)

    config: ``learningRate`` (1e-2), ``alpha`` (0.99), ``epsilon`` (1e-8),
    ``weightDecay`` (0), ``initialMean`` (0).  state: ``m``.
    """
    name = "rmsprop"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    lr = _common.number(name, config, "learningRate", 1e-2, low=0)
    alpha = _common.number(name, config, "alpha", 0.99, low=0, high=1)
    epsilon = _common.number(name, config, "epsilon", 1e-8, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    initial = _common.number(name, config, "initialMean", 0, low=0)
    if "m" in state:
        _common.state_array(name, state, "m", x)  # check its shape before anything changes

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    m = _common.state_array(name, state, "m", x, fill=initial)
    m *= alpha
    m += (1 - alpha) * dfdx * dfdx
    denom = xp.sqrt(m)
    denom += epsilon
    x -= lr * dfdx / denom
    return x, [fx]
