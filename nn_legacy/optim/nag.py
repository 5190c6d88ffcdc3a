"""Nesterov's accelerated gradient, Torch7's ``optim.nag`` (the form of
Sutskever et al., ICML 2013)."""
from . import _common

# dampening is read by Torch7's nag but plays no part in it; it is accepted
# so that a config written for Torch7 keeps working
CONFIG_KEYS = ("learningRate", "learningRateDecay", "weightDecay", "momentum", "dampening",
               "learningRates")
STATE_KEYS = ("evalCounter", "dfdx")


def nag(opfunc, x, config=None, state=None):
    """One Nesterov step on x (updated in place); returns ``(x, [f])``.

    With the velocity v (``state['dfdx']``, zero before the first call) and
    ``lr_t = learningRate / (1 + evalCounter * learningRateDecay)``::

        x <- x + momentum * v            (look ahead; skipped on the first call)
        f, g = opfunc(x);  g += weightDecay * x
        v <- momentum * v - lr_t * g     (times learningRates per element, if given)
        x <- x - lr_t * g                (so x ends at the old x plus the new v)

    f is the loss at the look-ahead point.  config: ``learningRate`` (1e-3),
    ``learningRateDecay`` (0), ``weightDecay`` (0), ``momentum`` (0.9, must
    be > 0), ``learningRates`` (array, optional), ``dampening`` (accepted,
    unused, as in Torch7).  state: ``evalCounter``, ``dfdx``.
    """
    name = "nag"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    lr = _common.number(name, config, "learningRate", 1e-3, low=0)
    lrd = _common.number(name, config, "learningRateDecay", 0, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    mom = _common.number(name, config, "momentum", 0.9, low=0, low_open=True)
    _common.number(name, config, "dampening", mom)
    lrs = _common.per_element(name, config, "learningRates", x)
    nevals = _common.counter(name, state, "evalCounter")

    if "dfdx" in state:
        x += mom * _common.state_array(name, state, "dfdx", x)

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x

    clr = lr / (1 + nevals * lrd)

    velocity = _common.state_array(name, state, "dfdx", x)  # zeros on the first call
    velocity *= mom

    step = lrs * dfdx if lrs is not None else dfdx
    x -= clr * step
    velocity -= clr * step

    state["evalCounter"] = nevals + 1
    return x, [fx]
