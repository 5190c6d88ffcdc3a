"""What every algorithm of nn_legacy.optim does the same way: resolving
config and state, checking config values, calling opfunc and keeping its
state arrays.

The calling convention is Torch7's: ``method(opfunc, x, config, state)``.
``config`` holds the hyper-parameters (``None`` means all defaults);
``state`` holds what the method carries from one call to the next, and when
it is ``None`` the config dict is used for both, as in Torch7 (so keep
passing the same dict).  ``x`` is a float array updated in place: a numpy
array, or a CudaTensor (the flat parameters of a model on a CUDA device;
the state arrays are then made on that device, and the steps run there).
"""
import math
import numbers
from collections.abc import Mapping, MutableMapping

import numpy as np

from thnn.cuda import CudaTensor

from .._helpers.namespace import array_namespace

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_ARRAYS = (np.ndarray, CudaTensor)


def prepare(name, opfunc, x, config, state, config_keys, state_keys=()):
    """Check the arguments every method takes; return (config, state).

    A config key the method does not read is an error (a misspelt
    ``learningrate`` would otherwise silently train with the default).  When
    the state lives in the config dict, the method's own state keys are
    allowed there too.
    """
    if not callable(opfunc):
        raise TypeError(f"{name}: opfunc must be a function x -> (loss, gradient), got {type(opfunc).__name__}")
    if not isinstance(x, _ARRAYS):
        raise TypeError(f"{name}: x must be a numpy array or a CudaTensor (it is updated in place), "
                        f"got {type(x).__name__}")
    if x.dtype not in _FLOATS:
        raise TypeError(f"{name}: x must be float32 or float64, got {x.dtype}")
    if x.size == 0:
        raise ValueError(f"{name}: x is empty, there is nothing to optimise")
    if not x.flags.writeable:
        raise ValueError(f"{name}: x is read-only, but it is updated in place")
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise TypeError(f"{name}: config must be a dict, got {type(config).__name__}")
    if state is None:
        if not isinstance(config, MutableMapping):
            raise TypeError(f"{name}: config must be a mutable dict when it also holds the state "
                            f"(no state argument), got {type(config).__name__}")
        state = config
    elif not isinstance(state, MutableMapping):
        raise TypeError(f"{name}: state must be a dict, got {type(state).__name__}")
    allowed = set(config_keys) | (set(state_keys) if state is config else set())
    for key in config:
        if key not in allowed:
            raise ValueError(f"{name}: unknown config key {key!r}; {name} reads "
                             + ", ".join(repr(k) for k in config_keys))
    return config, state


def number(name, config, key, default, low=None, high=None, low_open=False, high_open=False,
           integer=False):
    """config[key] (or default) as a float, checked to be finite and inside
    [low, high] (an open end with low_open / high_open); with integer=True an
    int."""
    value = config.get(key, default)
    low_bracket = "(" if low_open else "["
    high_bracket = ")" if high_open else "]"
    if low is not None and high is not None:
        wanted = f"in {low_bracket}{low:g}, {high:g}{high_bracket}"
    elif low is not None:
        wanted = f"{'>' if low_open else '>='} {low:g}"
    elif high is not None:
        wanted = f"{'<' if high_open else '<='} {high:g}"
    else:
        wanted = ""
    kind = "an integer" if integer else "a number"
    what = f"{kind} {wanted}".rstrip()
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    if ok and integer:
        ok = float(value).is_integer()
    ok = ok and math.isfinite(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        raise ValueError(f"{name}: config[{key!r}] must be {what}, got {value!r}")
    return int(value) if integer else float(value)


def flag(name, config, key, default):
    value = config.get(key, default)
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: config[{key!r}] must be True or False, got {value!r}")
    return bool(value)


def per_element(name, config, key, x):
    """config[key] as an array of x's shape and dtype (one value per element
    of x, e.g. learningRates), or None when absent."""
    value = config.get(key)
    if value is None:
        return None
    try:
        array = value.numpy() if isinstance(value, CudaTensor) else np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: config[{key!r}] must be an array of numbers, got {type(value).__name__}") \
            from None
    if array.size != x.size:
        raise ValueError(f"{name}: config[{key!r}] must have one value per element of x ({x.size}), "
                         f"got {array.size}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name}: config[{key!r}] must be finite")
    return array_namespace(x).asarray(array.reshape(x.shape).astype(x.dtype))


def evaluate(name, opfunc, x):
    """(loss, gradient) from opfunc(x): the loss as a float, the gradient as
    a fresh array of x's shape and dtype (so the method may change it, and
    an opfunc that returns the same array every time is safe)."""
    return loss_and_gradient(name, opfunc(x), x, "opfunc")


def loss_and_gradient(name, result, x, source):
    """Check a (loss, gradient) pair that `source` returned, as evaluate()."""
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError(f"{name}: {source} must return (loss, gradient), got {type(result).__name__}"
                        + (f" of length {len(result)}" if isinstance(result, (tuple, list)) else ""))
    loss, grad = result
    if isinstance(loss, _ARRAYS) and loss.size == 1:
        loss = loss.reshape(()).item()
    if not isinstance(loss, numbers.Real) or isinstance(loss, (bool, np.bool_)):
        raise TypeError(f"{name}: the loss {source} returns must be a number, got {type(loss).__name__}")
    xp = array_namespace(x)
    if not isinstance(grad, _ARRAYS) or array_namespace(grad) is not xp:
        where = "numpy array" if xp is np else f"CudaTensor of device {xp.device.name!r}, as x"
        raise TypeError(f"{name}: the gradient {source} returns must be a {where}, got {type(grad).__name__}")
    if grad.shape != x.shape:
        raise ValueError(f"{name}: the gradient {source} returns has shape {list(grad.shape)} "
                         f"but x has shape {list(x.shape)}")
    if grad.dtype.kind not in "fiu":
        raise TypeError(f"{name}: the gradient {source} returns must be real numbers, got {grad.dtype}")
    return float(loss), xp.array(grad, dtype=x.dtype, copy=True)


def state_array(name, state, key, x, fill=0.0):
    """state[key], an array of x's shape, created filled with `fill` on the
    first call.  A stored array of another shape means the state belongs to
    another x."""
    value = state.get(key)
    if value is None:
        value = array_namespace(x).full(x.shape, fill, dtype=x.dtype)
        state[key] = value
        return value
    if not isinstance(value, _ARRAYS) or value.shape != x.shape:
        got = f"shape {list(value.shape)}" if isinstance(value, _ARRAYS) else type(value).__name__
        raise ValueError(f"{name}: state[{key!r}] is {got} but x has shape {list(x.shape)}; "
                         f"use a fresh state dict for a different x")
    return value


def counter(name, state, key):
    """state[key], a count of steps or evaluations, 0 on the first call."""
    value = state.get(key, 0)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{name}: state[{key!r}] must be a count (an integer >= 0), got {value!r}")
    state[key] = int(value)
    return int(value)


def dot(a, b):
    """a . b over all elements, as a Python float."""
    return float(array_namespace(a, b).vdot(a, b))
