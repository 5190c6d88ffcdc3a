"""AdaGrad (Duchi et al., 2011), Torch7's ``optim.adagrad``."""
from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("learningRate", "learningRateDecay", "weightDecay")
STATE_KEYS = ("evalCounter", "paramVariance")

# added to the root of the accumulated squares, a constant in Torch7
_FLOOR = 1e-10


def adagrad(opfunc, x, config=None, state=None):
    """One AdaGrad step on x (updated in place); returns ``(x, [f(x)])``.

    With g the gradient (plus ``weightDecay * x``)::

        paramVariance <- paramVariance + g * g
        lr_t = learningRate / (1 + evalCounter * learningRateDecay)
        x <- x - lr_t * g / (sqrt(paramVariance) + 1e-10)

    config: ``learningRate`` (1e-3), ``learningRateDecay`` (0),
    ``weightDecay`` (0).  state: ``evalCounter``, ``paramVariance``.
    """
    name = "adagrad"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    lr = _common.number(name, config, "learningRate", 1e-3, low=0)
    lrd = _common.number(name, config, "learningRateDecay", 0, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    nevals = _common.counter(name, state, "evalCounter")
    variance = _common.state_array(name, state, "paramVariance", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    clr = lr / (1 + nevals * lrd)

    variance += dfdx * dfdx
    std = xp.sqrt(variance)
    std += _FLOOR
    x -= clr * dfdx / std

    state["evalCounter"] = nevals + 1
    return x, [fx]
