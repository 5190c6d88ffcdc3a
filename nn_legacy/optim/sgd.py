"""Stochastic gradient descent, Torch7's ``optim.sgd``."""
from . import _common

CONFIG_KEYS = ("learningRate", "learningRateDecay", "weightDecay", "weightDecays", "momentum",
               "dampening", "nesterov", "learningRates")
STATE_KEYS = ("evalCounter", "dfdx")


def sgd(opfunc, x, config=None, state=None):
    """One step of gradient descent on x (updated in place); returns
    ``(x, [f(x)])`` with the loss before the step.

    config (defaults in brackets):

    - ``learningRate`` (1e-3), ``learningRateDecay`` (0): the step is
      ``learningRate / (1 + evalCounter * learningRateDecay)``;
    - ``weightDecay`` (0) adds ``weightDecay * x`` to the gradient;
      ``weightDecays`` (an array, one value per element of x) does the same
      element by element.  Give one or the other, not both;
    - ``momentum`` (0), ``dampening`` (= momentum): the direction is a
      running ``v = momentum * v + (1 - dampening) * g``, started at the
      first gradient;
    - ``nesterov`` (False): step along ``g + momentum * v`` instead of
      ``v``; needs momentum > 0 and dampening 0;
    - ``learningRates`` (an array): per-element factors on the step.

    state: ``evalCounter`` (calls so far), ``dfdx`` (the momentum buffer v).

    The order is Torch7's: evaluate, weight decay, momentum, decayed rate,
    update, count.
    """
    name = "sgd"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    lr = _common.number(name, config, "learningRate", 1e-3, low=0)
    lrd = _common.number(name, config, "learningRateDecay", 0, low=0)
    wd = _common.number(name, config, "weightDecay", 0, low=0)
    mom = _common.number(name, config, "momentum", 0, low=0)
    damp = _common.number(name, config, "dampening", mom)
    nesterov = _common.flag(name, config, "nesterov", False)
    lrs = _common.per_element(name, config, "learningRates", x)
    wds = _common.per_element(name, config, "weightDecays", x)
    if nesterov and not (mom > 0 and damp == 0):
        raise ValueError(f"{name}: nesterov needs config['momentum'] > 0 and config['dampening'] == 0, "
                         f"got momentum {mom:g} and dampening {damp:g}")
    if wd != 0 and wds is not None:
        raise ValueError(f"{name}: give config['weightDecay'] or config['weightDecays'], not both")
    nevals = _common.counter(name, state, "evalCounter")
    if mom != 0 and "dfdx" in state:
        _common.state_array(name, state, "dfdx", x)  # check its shape before anything changes

    fx, dfdx = _common.evaluate(name, opfunc, x)

    if wd != 0:
        dfdx += wd * x
    elif wds is not None:
        dfdx += wds * x

    if mom != 0:
        if "dfdx" not in state:
            state["dfdx"] = dfdx.copy()
        else:
            velocity = state["dfdx"]
            velocity *= mom
            velocity += (1 - damp) * dfdx
        if nesterov:
            dfdx += mom * state["dfdx"]
        else:
            dfdx = state["dfdx"]

    clr = lr / (1 + nevals * lrd)
    if lrs is not None:
        x -= clr * (lrs * dfdx)
    else:
        x -= clr * dfdx

    state["evalCounter"] = nevals + 1
    return x, [fx]
