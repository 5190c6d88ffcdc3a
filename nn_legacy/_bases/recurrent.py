"""Plumbing shared by the recurrent modules (AbstractRecurrent and the
sequencers): step clones that share parameters, nested array arithmetic that
works on the host and, for the modules that move with ``cuda()``, on a CUDA
device, and the rnn package's ``remember`` modes."""
import copy
from itertools import repeat

import numpy as np

from thnn.cuda import CudaTensor

from .._helpers.arrays import check_float_array
from .tables import check_length

REMEMBER_MODES = ("both", "train", "eval", "neither")


# ---------------------------------------------------------------- clones
def shared_clone(module, keep=()):
    """A deep copy of module whose parameters and parameter gradients are the
    very arrays of module (so every clone updates and accumulates into the
    same arrays), as the rnn package's ``stepClone``.  The modules in keep
    are not copied at all: the clone holds the same instances (a recurrent
    module inside the step module counts its own steps)."""
    memo = {}
    for m, p, g in module._all_parameters():
        for name in (p, g):
            value = getattr(m, name)
            memo[id(value)] = value
    for m, name in _clone_shared(module):    # running averages, as dpnn's clones shared them
        value = getattr(m, name)
        memo[id(value)] = value
    for m in keep:
        memo[id(m)] = m
    return copy.deepcopy(module, memo)   # (a CudaTensor deep-copies on its device)


def share_parameters(clone, original, cache=None):
    """Point clone's parameters and gradients at original's again (after
    ``flattenParameters``, ``type`` or an assignment replaced original's
    arrays).

    cache: a dict the caller keeps (a sequencer, for its step clones).
    With it, a call whose every watched attribute still holds the very
    array (by identity) it held after the last full pass, and whose
    containers still hold the same children, returns at once; anything
    else (a new weight array, float() / double() / type(), reset() that
    replaced an array, a parameter set where there was None, a child
    replaced) takes the full pass again, which records the new state."""
    if cache is not None:
        entry = cache.get(id(clone))
        if (entry is not None and entry[0] is clone and entry[1] is original
                and list(map(id, map(getattr, entry[2], entry[3], repeat(None)))) == entry[4]
                and [tuple(c.modules) for c in entry[5]] == entry[6]):
            return
    _share_all(clone, original)
    if cache is not None:
        cache[id(clone)] = _share_snapshot(clone, original)


def _share_snapshot(clone, original):
    """What share_parameters' cache compares: (clone, original, the watched
    modules and attribute names of both trees (every parameter and gradient
    name a module's class declares, set, None or absent, and its
    _clone_shared names; a module in both trees, such as a recurrent module
    the clone keeps, once), their values' ids now, the containers, their
    children now, and the values themselves, held so that no id can be
    reused while cached)."""
    modules = list({id(m): m for m in original.listModules() + clone.listModules()}.values())
    watched = [(m, name) for m in modules for pair in getattr(m, "_parameter_names", ()) for name in pair]
    watched += [(m, name) for m in modules for name in getattr(m, "_clone_shared", ())]
    values = [getattr(o, n, None) for o, n in watched]
    containers = [m for m in modules if isinstance(getattr(m, "modules", None), list)]
    return (clone, original, [o for o, _ in watched], [n for _, n in watched], [id(v) for v in values],
            containers, [tuple(c.modules) for c in containers], values)


def _share_all(clone, original):
    for (m, p, g), (c, _, _) in zip(original._all_parameters(), clone._all_parameters()):
        for name in (p, g):
            value = getattr(m, name)
            if getattr(c, name) is not value:
                setattr(c, name, value)
    for (m, name), (c, _) in zip(_clone_shared(original), _clone_shared(clone)):
        value = getattr(m, name)
        if getattr(c, name) is not value:
            setattr(c, name, value)


def _clone_shared(module):
    """(module, attribute) of the arrays below module that step clones share
    besides the parameters: those a class names in ``_clone_shared``
    (BatchNormalization's running averages)."""
    found = []
    for m in module.listModules() if hasattr(module, "listModules") else [module]:
        for name in getattr(m, "_clone_shared", ()):
            if getattr(m, name, None) is not None:
                found.append((m, name))
    return found


def top_recurrent(module, kinds):
    """The modules of kinds below module (module itself excluded), not
    looking inside the ones found: those manage their own time steps."""
    found = []
    for child in getattr(module, "modules", ()):
        if isinstance(child, kinds):
            found.append(child)
        else:
            found += top_recurrent(child, kinds)
    return found


def acc_update_by_swap(module, call):
    """accUpdateGradParameters for a module whose accGradParameters reaches
    every parameter: with each gradient array replaced by its parameter,
    ``call()`` (accGradParameters with scale -lr) steps the parameters
    directly; the gradients are untouched and restored after."""
    entries = module._all_parameters()
    saved = [getattr(m, g) for m, _, g in entries]
    for m, p, g in entries:
        setattr(m, g, getattr(m, p))
    try:
        call()
    finally:
        for (m, _, g), value in zip(entries, saved):
            setattr(m, g, value)


# ---------------------------------------------------------------- arrays
def zeros(like, shape):
    """A zero array of shape with like's dtype, on like's device."""
    if isinstance(like, CudaTensor):
        return like.device.empty(tuple(shape), like.dtype).fill_(0)
    return np.zeros(shape, like.dtype)


def zeros_like(value):
    """Zeros laid out as value (an array or a nested list of arrays)."""
    if isinstance(value, list):
        return [zeros_like(v) for v in value]
    return zeros(value, value.shape)


def plus(a, b):
    """A new array (or nested list) a + b; None stands for zeros."""
    if a is None:
        return copy_of(b)
    if b is None:
        return copy_of(a)
    if isinstance(a, list):
        return [plus(x, y) for x, y in zip(a, b)]
    if isinstance(a, CudaTensor):
        return a.contiguous().clone().add_(b.contiguous())
    return np.add(a, b)


def add_into(total, value):
    """total += value, array by array through the nesting (host arrays)."""
    if isinstance(total, list):
        for t, v in zip(total, value):
            add_into(t, v)
    else:
        total += value


def copy_of(value):
    """A new copy of an array or nested list (host or device)."""
    if isinstance(value, list):
        return [copy_of(v) for v in value]
    if isinstance(value, CudaTensor):
        return value.clone()
    return np.array(value, copy=True)


def first_array(value):
    """The first array of a (nested) table: the input a step's mask reads."""
    while isinstance(value, (list, tuple)):
        if not value:
            raise ValueError("an empty table has no first array")
        value = value[0]
    return value


def batch_size(module, input, n):
    """The batch of a step input of n features per sample: None for 1D
    [n], B for 2D [B, n]; a ValueError naming the module otherwise."""
    if isinstance(input, (np.ndarray, CudaTensor)) and input.ndim in (1, 2) and input.shape[-1] == n:
        return input.shape[0] if input.ndim == 2 else None
    got = f"{input.ndim}D of size {list(input.shape)}" if hasattr(input, "shape") else type(input).__name__
    raise ValueError(f"{type(module).__name__}: input must be 1D [{n}] or 2D [batch, {n}], got {got}")


def step_inputs(module, input, names):
    """The arrays of a step module's input table (names: "x", "h"[, "c"]):
    x float ``[inputSize]`` or ``[batch, inputSize]`` of the module's dtype,
    each state of x's dtype and ``[outputSize]`` or ``[batch,
    outputSize]``.  TypeError for a wrong type or dtype, ValueError for a
    wrong size, each naming the module and the entry."""
    values = check_length(module, input, len(names), "input", "[" + ", ".join(names) + "]")
    x = values[0]
    check_float_array(module, x, "input x")
    module._kernels(x, "input x")
    b = batch_size(module, x, module.inputSize)
    shape = (module.outputSize,) if b is None else (b, module.outputSize)
    for name, v in zip(names[1:], values[1:]):
        check_float_array(module, v, f"input {name}", x.dtype)
        if tuple(v.shape) != shape:
            raise ValueError(f"{type(module).__name__}: input {name} must be of size {list(shape)} (x is "
                             f"{list(x.shape)}), got {list(v.shape)}")
    return values


def check_remember(module, mode):
    if mode not in REMEMBER_MODES:
        raise ValueError(f"{type(module).__name__}.remember: one of {', '.join(map(repr, REMEMBER_MODES))}, "
                         f"got {mode!r}")
    return mode


def remembers(mode, train):
    """Whether a module in remember mode keeps its state between forward
    calls, in training (train=True) or evaluation."""
    return mode == "both" or mode == ("train" if train else "eval")


def check_like(module, value, like, name="gradOutput", what="the output"):
    """value (an array or nested table) is laid out as like: same nesting,
    shapes and dtypes, and on the same side (host or device)."""
    if isinstance(like, list):
        if not isinstance(value, (list, tuple)) or len(value) != len(like):
            got = f"a table of {len(value)}" if isinstance(value, (list, tuple)) else type(value).__name__
            raise ValueError(f"{type(module).__name__}: {name} must be a table of {len(like)} like {what}, got {got}")
        for i, (v, w) in enumerate(zip(value, like)):
            check_like(module, v, w, f"{name}[{i}]", what)
        return
    if type(value) is not type(like) and not (isinstance(value, np.ndarray) and isinstance(like, np.ndarray)):
        raise TypeError(f"{type(module).__name__}: {name} must be a {type(like).__name__} like {what}, "
                        f"got {type(value).__name__}")
    if value.dtype != like.dtype:
        raise TypeError(f"{type(module).__name__}: {name} must be {like.dtype} like {what}, got {value.dtype}")
    if tuple(value.shape) != tuple(like.shape):
        raise ValueError(f"{type(module).__name__}: {name} must be {like.dtype} of size {list(like.shape)} like "
                         f"{what}, got {value.dtype} of size {list(value.shape)}")


class CachedDeltas:
    """For a step module whose backward starts from ``_deltas(input,
    gradOutput)`` (LSTMStep, GRUStep): ``_deltas_of`` computes them once per
    gradOutput object, so accGradParameters takes those of updateGradInput
    (stepping the weights in between, as accUpdateGradParameters does over
    time, does not change them).  updateOutput and updateGradInput set
    ``_cache = None``."""

    _cache = None

    def _deltas_of(self, input, gradOutput):
        cached = self._cache
        if cached is not None and cached[0] is gradOutput and cached[1] is self.output:
            return cached[2]
        result = self._deltas(input, gradOutput)
        self._cache = [gradOutput, self.output, result]
        return result

    def type(self, dtype=None, _memo=None):
        if dtype is not None:
            self._cache = None       # not converted: computed again when needed
        return super().type(dtype, _memo)


# ---------------------------------------------------------------- ONNX
# The step modules map themselves as a whole (their Container children hold
# the weights); these helpers give their gates a batch dim and run their
# Linear children as Gemm nodes.
def onnx_step(g, inputs, build):
    """build(names) on the step's input Values given a batch dim: one sample
    gets a batch of one, which its outputs (a name or a list) lose again."""
    batched = inputs[0].ndim == 2
    names = [v.name if batched else g.op("Unsqueeze", [v, g.ints([0])]) for v in inputs]
    outs = build(names)
    if batched:
        return outs
    squeeze = lambda name: g.op("Squeeze", [name, g.ints([0])])   # noqa: E731
    return [squeeze(o) for o in outs] if isinstance(outs, list) else squeeze(outs)


def onnx_gemm(g, name, owner, child):
    """Gemm of name [batch, n] by the Linear (or LinearNoBias) owner.modules[child]."""
    linear = owner.modules[child]
    bias = None if getattr(linear, "bias", None) is None else g.param(linear.bias, f"{child}.bias")
    return g.op("Gemm", [name, g.param(linear.weight, f"{child}.weight"), bias], transB=1)


def onnx_forget(g, sequencer, *modules):
    """A sequencer's export starts new sequences, as its forward does: the
    modules forget (the work copy and the probe's), and the states the
    exporter carried for the recurrent modules inside are dropped."""
    if sequencer.hasMemory():
        from .._helpers.onnx_types import NotExportable
        raise NotExportable("it remembers its state from call to call (remember()), which an ONNX graph cannot "
                            "keep; remember('neither') to export it")
    for copy_ in (sequencer, g.twin(sequencer)):
        for m in ([copy_] if copy_ is not None else []):
            for inner in (m.modules[i] for i in modules):
                inner.forget()
    for m in sequencer.listModules():
        g.memo.pop(("recurrent state", id(m)), None)


class OutputIsState:
    """AbstractRecurrent's hooks (see its doc) for a recurrent module whose
    state is its previous output (GRU, Recurrence): the step module takes
    ``[x_t, y_{t-1}]`` and returns ``y_t``, its gradInput is ``[dL/dx_t,
    dL/dy_{t-1}]``."""

    def _step_input(self, input, prev, step):
        return [input, prev]

    def _step_output(self, out):
        return out, out

    def _step_gradOutput(self, gradOutput, gradState, state):
        return plus(gradOutput, gradState)

    def _step_gradInput(self, gradInput, step):
        if not isinstance(gradInput, list) or len(gradInput) != 2:
            raise TypeError(f"{type(self).__name__}: the step module's gradInput must be the table [dL/dx, "
                            f"dL/dy_prev]")
        return gradInput[0], gradInput[1]
