"""Resilient backpropagation (Riedmiller and Braun, 1993), Torch7's
``optim.rprop``."""
from .._helpers.namespace import array_namespace
from . import _common

CONFIG_KEYS = ("stepsize", "etaplus", "etaminus", "stepsizemax", "stepsizemin", "niter")
# Torch7 keeps the per-element step sizes under the key 'stepsize' too: when
# the state lives in the config dict, config['stepsize'] becomes that array
# after the first call (and is only read as a number before it)
STATE_KEYS = ("delta", "stepsize")


def rprop(opfunc, x, config=None, state=None):
    """``niter`` Rprop steps on x (updated in place); returns ``(x, [f, ...])``
    with the loss before each step.

    Every element has its own step size (``state['stepsize']``, starting at
    ``config['stepsize']``).  Per step, comparing the sign of the gradient g
    with that of the previous step's (``state['delta']``):

    - same sign: the step size grows by ``etaplus``;
    - opposite signs: it shrinks by ``etaminus``, and this step skips the
      element (its g counts as 0, here and as the next "previous" sign);
    - either is 0: it stays;

    then it is clipped to ``[stepsizemin, stepsizemax]`` and
    ``x <- x - sign(g) * stepsize``.

    config: ``stepsize`` (0.1), ``etaplus`` (1.2), ``etaminus`` (0.5),
    ``stepsizemax`` (50), ``stepsizemin`` (1e-6), ``niter`` (1).
    """
    name = "rprop"
    config, state = _common.prepare(name, opfunc, x, config, state, CONFIG_KEYS, STATE_KEYS)
    xp = array_namespace(x)
    etaplus = _common.number(name, config, "etaplus", 1.2, low=1, low_open=True)
    etaminus = _common.number(name, config, "etaminus", 0.5, low=0, high=1, low_open=True, high_open=True)
    stepsizemax = _common.number(name, config, "stepsizemax", 50.0, low=0, low_open=True)
    stepsizemin = _common.number(name, config, "stepsizemin", 1e-6, low=0, low_open=True)
    if stepsizemin > stepsizemax:
        raise ValueError(f"{name}: config['stepsizemin'] ({stepsizemin:g}) is above "
                         f"config['stepsizemax'] ({stepsizemax:g})")
    niter = _common.number(name, config, "niter", 1, low=1, integer=True)
    if "delta" in state:
        delta = _common.state_array(name, state, "delta", x)
        stepsize = _common.state_array(name, state, "stepsize", x)
    else:
        initial = _common.number(name, config, "stepsize", 0.1, low=0, low_open=True)
        delta = stepsize = None

    hfx = []
    for _ in range(niter):
        fx, dfdx = _common.evaluate(name, opfunc, x)

        if delta is None:
            delta = state["delta"] = xp.zeros(x.shape, dtype=x.dtype)
            stepsize = state["stepsize"] = xp.full(x.shape, initial, dtype=x.dtype)

        agreement = xp.sign(dfdx * delta)
        factor = xp.where(agreement > 0, etaplus, xp.where(agreement < 0, etaminus, 1.0))
        stepsize *= factor.astype(x.dtype)
        stepsize[stepsize > stepsizemax] = stepsizemax
        stepsize[stepsize < stepsizemin] = stepsizemin

        dfdx[agreement < 0] = 0
        x -= xp.sign(dfdx) * stepsize

        delta[...] = dfdx
        hfx.append(fx)
    return x, hfx
