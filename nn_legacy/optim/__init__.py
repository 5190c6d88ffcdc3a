"""nn_legacy.optim: Torch7's optimisation methods over a flat numpy vector.

Every method has Torch7's calling convention::

    x, fx = optim.sgd(opfunc, x, config, state)

- ``opfunc(x)`` returns ``(loss, gradient)`` at x (gradient: an array of
  x's shape);
- ``x`` is a float32 or float64 numpy array, updated **in place** -- usually
  the flat parameter array of ``model.flattenParameters()``, so the model
  sees every step -- and returned;
- ``config`` holds the hyper-parameters under Torch7's names
  (``learningRate``, ``momentum``, ...; None for the defaults); a key the
  method does not know is an error;
- ``state`` is a dict the method keeps its memory in (momentum buffers,
  step counters such as ``state['evalCounter']``); pass the same dict on
  every call.  When it is None, config holds the state as well, as in
  Torch7;
- ``fx`` is a list of losses: for the one-step methods, ``[f(x)]`` before
  the step.

``asgd`` also returns the averaged x, ``cg`` and ``lbfgs`` the number of
evaluations they used, as in Torch7.

A training step through a model::

    params, grads = model.flattenParameters()
    def feval(x):                       # x is params
        model.zeroGradParameters()
        output = model.forward(inputs)
        loss = criterion.forward(output, targets)
        model.backward(inputs, criterion.backward(output, targets))
        return loss, grads
    optim.sgd(feval, params, config)    # params, hence the model, updated in place
"""
from .adadelta import adadelta
from .adagrad import adagrad
from .adam import adam
from .adamax import adamax
from .asgd import asgd
from .cg import cg
from .lbfgs import lbfgs
from .nag import nag
from .rmsprop import rmsprop
from .rprop import rprop
from .sgd import sgd

__all__ = ["adadelta", "adagrad", "adam", "adamax", "asgd", "cg", "lbfgs", "nag", "rmsprop", "rprop",
           "sgd"]
