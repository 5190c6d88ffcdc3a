"""Gradient checks by central differences, as Torch7's nn.Jacobian.

Every check compares an analytic Jacobian (from the module's backward
verbs) with a numeric one, ``(f(x + h) - f(x - h)) / 2h`` in float64 with
``h = 1e-6``, and returns a :class:`Report`: the largest absolute
difference and where it occurred.  A Report compares as that number::

    from nn_legacy import jacobian
    report = jacobian.testJacobian(module, x)
    assert report < 1e-5, report     # shows e.g. <... at output [0, 1], input[0, 2] ...>

Functions:

- ``testJacobian(module, input)``: d output / d input, through updateGradInput.
- ``testJacobianParameters(module, input, param, dparam)``: d output / d param,
  through accGradParameters (``param`` and ``dparam`` are the module's arrays,
  e.g. ``module.weight, module.gradWeight``).
- ``testJacobianUpdateParameters(module, input, param)``: the same through
  accUpdateGradParameters (the parameter's change for a unit step).
- ``testEachParameter(module, input)``: both parameter checks for every
  parameter, a (accGradParameters, accUpdateGradParameters) pair of Reports
  each, in ``parameters()`` order (far cheaper than the calls one by one).
- ``testAllParameters(module, input)``: both parameter checks for every parameter,
  the worst Report (a ValueError for a module without parameters).

A Report names the element where the worst error occurred: ``input[0, 2]``
or the parameter, ``weight[2, 3]``, with the path to its module inside a
container: ``Sequential (2) -> Linear.weight[2, 3]``.  Integer input
(LookupTable's indices) has no gradient: testJacobian refuses it, and the
parameter checks take it as it is.
- ``testCriterion(criterion, input, target)``: d loss / d input, through backward.

Options: ``perturbation`` (h); ``seed`` (the module generator is reseeded
before every forward, so stochastic layers repeat); and, for testJacobian,
``kinks`` and ``kink_radius``: input elements within the radius of a kink
(``kinks=(0,)`` for ReLU) are left out, as the function has no derivative
there.  Parameter Jacobians need no such skip: a parameter moves no input
onto a kink.  The module and inputs should be float64.
"""
import numpy as np

from ._helpers.random import manualSeed


class Report:
    """The outcome of a check: ``max_error`` and the place it occurred
    (``where``: (output index, input or parameter index)), the analytic and
    numeric values there, and how many input elements were skipped at kinks."""

    def __init__(self, what, analytic, numeric, in_shape, out_shape, skipped=0, name="input"):
        self.what = what
        self.name = name   # what the column index indexes: "input", "Linear.weight", ...
        self.skipped = skipped
        diff = np.abs(analytic - numeric) if analytic.size else np.zeros((1, 1))
        diff[np.isnan(diff)] = np.inf
        flat = int(np.argmax(diff))
        self.max_error = float(diff.flat[flat])
        if analytic.size:
            row, col = np.unravel_index(flat, analytic.shape)
            self.where = (_ints(np.unravel_index(row, out_shape)) if out_shape else (),
                          _ints(np.unravel_index(col, in_shape)))   # plain ints: (0, 2), not (np.int64(0), ...)
            self.analytic, self.numeric = float(analytic[row, col]), float(numeric[row, col])
        else:
            self.where, self.analytic, self.numeric = None, 0.0, 0.0

    def __float__(self):
        return self.max_error

    def __lt__(self, other):
        return self.max_error < float(other)

    def __le__(self, other):
        return self.max_error <= float(other)

    def __gt__(self, other):
        return self.max_error > float(other)

    def __ge__(self, other):
        return self.max_error >= float(other)

    def __repr__(self):
        if self.where is None:
            return f"<{self.what}: nothing to compare>"
        out_idx, in_idx = self.where
        skip = f", {self.skipped} kink points skipped" if self.skipped else ""
        element = f"{self.name}[{', '.join(map(str, in_idx))}]"
        return (f"<{self.what}: max error {self.max_error:.3g} at output {list(out_idx)}, {element} "
                f"(analytic {self.analytic:.9g}, numeric {self.numeric:.9g}){skip}>")


def _ints(index):
    return tuple(int(i) for i in index)


def _forward(module, input, seed):
    if seed is not None:
        manualSeed(seed)
    return np.array(module.forward(input.copy()), dtype=np.float64, copy=True)


def _numeric(f, x, perturbation, skip):
    """d f / d x, one column per element of x (x is perturbed in place, then restored)."""
    base = f()
    jac = np.zeros((base.size, x.size))
    flat = x.reshape(-1)  # x is contiguous: this is a view
    for i in range(x.size):
        if skip[i]:
            continue
        orig = flat[i]
        flat[i] = orig + perturbation
        plus = f().reshape(-1)
        flat[i] = orig - perturbation
        minus = f().reshape(-1)
        flat[i] = orig
        jac[:, i] = (plus - minus) / (2 * perturbation)
    return jac, base.shape


def _skip_mask(x, kinks, radius):
    skip = np.zeros(x.size, dtype=bool)
    for k in kinks:
        skip |= np.abs(x.reshape(-1) - k) < radius
    return skip


def _unit(shape, index):
    g = np.zeros(int(np.prod(shape)), dtype=np.float64)
    g[index] = 1
    return g.reshape(shape)


def _input(module, input, check):
    """input as a C-ordered copy: float64 for floats; integer input (indices,
    LookupTable's) kept as it is for the parameter checks, refused by
    testJacobian (it has no gradient)."""
    if not isinstance(input, np.ndarray) and isinstance(input, (list, tuple)) and any(
            isinstance(v, (np.ndarray, list, tuple)) for v in input):
        raise TypeError(f"{check}: {type(module).__name__} gets a table (list) input; these checks take one "
                        f"array (wrap the module so it maps one array to one array)")
    x = np.asarray(input)
    if x.dtype.kind in "biu":
        if check == "testJacobian":
            raise TypeError(f"testJacobian: the input of {type(module).__name__} is {x.dtype} (indices), which "
                            f"has no gradient; check its parameters with testAllParameters")
        return np.array(x, copy=True, order="C")
    dtype = module._dtype() if hasattr(module, "_dtype") else None
    if dtype is not None and dtype != np.float64:   # (the input would be blamed for the module's dtype)
        raise TypeError(f"{check}: {type(module).__name__} is {np.dtype(dtype)}; these checks need a float64 "
                        f"module (central differences are below float32's precision): call module.double() first")
    return np.array(x, dtype=np.float64, copy=True, order="C")


def parameter_name(module, param):
    """Where param lives in module: ``Linear.weight``, or inside a container
    the path as errors show it, ``Sequential (2) -> Linear.weight``;
    "parameter" when it is not one of module's."""
    path = _find(module, param)
    return path if path is not None else "parameter"


def _find(module, param):
    for m, p, _ in module._owned_parameters() if hasattr(module, "_owned_parameters") else ():
        if getattr(m, p) is param:
            return f"{type(m).__name__}.{p}"
    for i, child in enumerate(getattr(module, "modules", None) or ()):
        inner = _find(child, param) if hasattr(child, "_all_parameters") else None
        if inner is not None:
            return f"{type(module).__name__} ({i}) -> {inner}"
    return None


def testJacobian(module, input, perturbation=1e-6, kinks=(), kink_radius=1e-3, seed=None):
    """d output / d input: numeric against updateGradInput."""
    x = _input(module, input, "testJacobian")
    skip = _skip_mask(x, kinks, kink_radius)
    numeric, out_shape = _numeric(lambda: _forward(module, x, seed), x, perturbation, skip)
    analytic = np.zeros_like(numeric)
    for k in range(numeric.shape[0]):
        _forward(module, x, seed)
        analytic[k] = np.asarray(module.updateGradInput(x.copy(), _unit(out_shape, k))).reshape(-1)
    analytic[:, skip] = 0
    return Report("Jacobian w.r.t. input", analytic, numeric, x.shape, out_shape, int(skip.sum()))


def _parameter_numerics(module, input, params, check, seed, perturbation):
    """The module's input as _input gives it, and d output / d param by
    central differences for each param (perturbed in place, so each must be
    one of the module's own contiguous arrays)."""
    x = _input(module, input, check)
    if not all(p.flags.c_contiguous for p in params):
        raise ValueError(f"{check}: the parameter must be contiguous")
    numerics = [_numeric(lambda: _forward(module, x, seed), p, perturbation, np.zeros(p.size, dtype=bool))[0]
                for p in params]
    out_shape = _forward(module, x, seed).shape
    return x, numerics, out_shape


def _accgrad_reports(module, x, params, dparams, numerics, out_shape, seed):
    """accGradParameters' Jacobians: one backward per output element fills
    the rows of every parameter at once."""
    analytics = [np.zeros_like(n) for n in numerics]
    for k in range(analytics[0].shape[0] if analytics else 0):
        _forward(module, x, seed)
        for d in dparams:
            d.fill(0)
        unit = _unit(out_shape, k)
        module.updateGradInput(x.copy(), unit)  # containers pass gradients down through gradInput
        module.accGradParameters(x.copy(), unit, 1)
        for analytic, d in zip(analytics, dparams):
            analytic[k] = d.reshape(-1)
    return [Report("Jacobian w.r.t. parameter", a, n, p.shape, out_shape, name=parameter_name(module, p))
            for a, n, p in zip(analytics, numerics, params)]


def _accupdate_reports(module, x, params, numerics, out_shape, seed):
    """accUpdateGradParameters' Jacobians (lr = 1: a parameter moves by
    minus its gradient), one update per output element for all parameters."""
    analytics = [np.zeros_like(n) for n in numerics]
    every = module.parameters()[0]
    saved = [p.copy() for p in every]  # the update moves every parameter: restore them all
    for k in range(analytics[0].shape[0] if analytics else 0):
        _forward(module, x, seed)
        unit = _unit(out_shape, k)
        module.updateGradInput(x.copy(), unit)
        before = [p.copy() for p in params]
        module.accUpdateGradParameters(x.copy(), unit, 1)
        for analytic, b, p in zip(analytics, before, params):
            analytic[k] = (b - p).reshape(-1)
        for p, value in zip(every, saved):
            p[...] = value
    return [Report("Jacobian w.r.t. parameter (accUpdateGradParameters)", a, n, p.shape, out_shape,
                   name=parameter_name(module, p)) for a, n, p in zip(analytics, numerics, params)]


def testJacobianParameters(module, input, param, dparam, perturbation=1e-6, seed=None):
    """d output / d param: numeric against accGradParameters (param and dparam
    are the module's own arrays, e.g. module.weight and module.gradWeight)."""
    x, numerics, out_shape = _parameter_numerics(module, input, [param], "testJacobianParameters", seed,
                                                 perturbation)
    return _accgrad_reports(module, x, [param], [dparam], numerics, out_shape, seed)[0]


def testJacobianUpdateParameters(module, input, param, perturbation=1e-6, seed=None):
    """d output / d param: numeric against accUpdateGradParameters with lr = 1
    (the parameter moves by minus its gradient)."""
    x, numerics, out_shape = _parameter_numerics(module, input, [param], "testJacobianUpdateParameters", seed,
                                                 perturbation)
    return _accupdate_reports(module, x, [param], numerics, out_shape, seed)[0]


def testEachParameter(module, input, perturbation=1e-6, seed=None):
    """testJacobianParameters and testJacobianUpdateParameters for every
    (parameter, gradient) pair of the module, in parameters() order: a list
    of (accGradParameters Report, accUpdateGradParameters Report).  The same
    reports as those calls give one by one, at a fraction of the cost: one
    numeric Jacobian per parameter serves both checks, and one backward per
    output element fills every parameter's analytic rows.  A module without
    parameters is a ValueError (a custom module whose parameters are not
    found would otherwise pass unchecked)."""
    params, grads = module.parameters()
    if not params:
        raise ValueError(f"testAllParameters: {type(module).__name__} has no parameters (parameters() is empty). "
                         f"Parameters are found by name (weight/gradWeight, bias/gradBias, as in Torch7); declare "
                         f"others in the class attribute _parameter_names (docs/guides/writing-a-module.md)")
    x, numerics, out_shape = _parameter_numerics(module, input, params, "testAllParameters", seed, perturbation)
    return list(zip(_accgrad_reports(module, x, params, grads, numerics, out_shape, seed),
                    _accupdate_reports(module, x, params, numerics, out_shape, seed)))


def testAllParameters(module, input, perturbation=1e-6, seed=None):
    """testEachParameter's worst Report."""
    return max((r for pair in testEachParameter(module, input, perturbation, seed) for r in pair),
               key=lambda r: r.max_error)


def testCriterion(criterion, input, target, perturbation=1e-6):
    """d loss / d input: numeric against backward."""
    x = np.array(input, dtype=np.float64, copy=True, order="C")
    numeric, _ = _numeric(lambda: np.array([criterion.forward(x.copy(), target)]), x, perturbation,
                          np.zeros(x.size, dtype=bool))
    criterion.forward(x.copy(), target)
    analytic = np.asarray(criterion.backward(x.copy(), target), dtype=np.float64).reshape(1, -1)
    return Report("criterion gradient w.r.t. input", analytic, numeric, x.shape, ())
