"""Export of nn_legacy models to ONNX: ``export(model, example_input, f)``.

    import nn_legacy as nn
    net = nn.load_lua("model.t7")
    nn.onnx.export(net, np.zeros((1, 3, 32, 32), np.float32), "model.onnx")

The model is exported as it computes in evaluation mode: Dropout
disappears (Torch7's original Dropout becomes its test-time scaling), batch
normalization uses its running statistics.  Its parameters are stored as
they are, float32 or float64 (as the model).  The user's model is left
untouched: the exporter works on copies.

How it works.  The exporter walks the module tree with the example input,
running each module's forward (in nn_legacy, on a copy of the model) to
know the arrays that flow there, and asks each module for its ONNX nodes:
every module class maps itself, in its ``_onnx(g, x, y)`` method (next to
its ``_t7_fixup``), where ``g`` is the :class:`Graph` being built, ``x`` the
input :class:`Value` (a list of them for a table) and ``y`` the output the
module computed (names not yet given; None for containers, which call
``g.child`` for their children and return their children's Values, unless
the class sets ``_onnx_leaf`` to be mapped as a whole).  A leaf returns the
ONNX name(s) of its output, or input Values it passes through unchanged.  A class without an ONNX equivalent says why in
``_onnx_unsupported``; a mapping may also raise :class:`NotExportable` for
one configuration.  Every such module is collected, and one
:class:`ExportError` names them all with their paths before anything is
written.

The batch.  The first dim of the example input is taken as the batch (of
a table input, the first dim of the arrays whose first dim is the first
array's), and a second copy of the model is run in step on the input with
one more sample.  Where every module's output changes
with it only along its first dim, the exported graph takes any batch size
(the ONNX input's first dim is the symbolic ``batch``).  Where a module
does not take the larger batch, or its output changes otherwise (a View
whose sizes contain the batch, a module taking the input as one sample),
the graph is exported with the example's sizes, fixed, and a
:class:`StaticBatchWarning` names that module.

The opset: 19 by default, at least 19 (earlier onnxruntime releases are
reported to compute AveragePool of opsets 7 to 18 wrongly with ceil_mode
and count_include_pad), at most what the installed onnx package knows.
"""
import copy
import os
import warnings

import numpy as np

from .._helpers.onnx_types import _ELEMENT_TYPES, NotExportable  # noqa: F401 (re-exported)

MIN_OPSET = 19
DEFAULT_OPSET = 19

INSTALL_HINT = 'pip install -e ".[onnx]" in a clone of thnn (or: pip install onnx onnxruntime)'   # (not on PyPI)


class ExportError(ValueError):
    """Modules of the model have no ONNX equivalent; ``problems`` lists
    them, one ``path -> Class: reason`` line each."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class StaticBatchWarning(UserWarning):
    """The exported graph has a fixed batch size (the message says which module fixes it)."""


def _onnx_modules():
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        raise ImportError(f"nn_legacy.onnx.export needs the onnx package: {INSTALL_HINT}") from None
    return onnx, helper, numpy_helper


# ---------------------------------------------------------------- values
class Value:
    """An ONNX tensor: its name and the arrays nn_legacy computes there for
    the example input (``value``) and for the probe input, one sample larger
    (``probe``; None once the batch is fixed or where it is unknown)."""

    __slots__ = ("graph", "name", "value", "probe")

    def __init__(self, graph, name, value, probe=None):
        self.graph, self.name, self.value, self.probe = graph, name, value, probe

    @property
    def shape(self):
        return self.value.shape

    @property
    def ndim(self):
        return self.value.ndim

    @property
    def dtype(self):
        return self.value.dtype

    @property
    def batched(self):
        """True when the first dim changes with the batch of the graph's input."""
        return (self.graph.dynamic and self.probe is not None and self.probe.ndim == self.value.ndim >= 1
                and self.probe.shape[0] != self.value.shape[0])

    def __repr__(self):
        return f"Value({self.name!r}, {list(self.shape)}{', batched' if self.batched else ''})"


def _nested(fn, value):
    if isinstance(value, (list, tuple)):
        return [_nested(fn, v) for v in value]
    return fn(value)


def _leaves(value):
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _copy(value):
    return _nested(lambda a: np.array(a, copy=True) if isinstance(a, np.ndarray) else a, value)


def _show(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


# ---------------------------------------------------------------- the graph
class Graph:
    """The ONNX graph being built, and the helpers the modules' ``_onnx``
    methods build it with.

    ``g.op(type, inputs, **attributes)`` adds a node and returns its output
    name (a list of names with ``outputs=n``); an input is a name, a
    :class:`Value`, a numpy array (stored as a constant: float arrays in the
    model's float type) or None (an omitted optional input).
    ``g.param(array, "weight")`` stores a parameter under the module's path
    (``3.1.weight``).  ``g.float`` is the model's float dtype; ``g.opset``
    the opset being written."""

    def __init__(self, opset, float_dtype, batch, twin_root, work_root, wanted_indices):
        _, self.helper, self.numpy_helper = _onnx_modules()
        self.opset = opset
        self.float = np.dtype(float_dtype)
        self.batch = batch   # the example's batch size
        self.nodes, self.initializers = [], []
        self._names = set()
        self._params = {}
        self.dynamic = True
        self.static_reason = None
        self.problems = []
        self._path, self._scope, self._running = [], [], []
        self._twins = {id(work_root): twin_root}
        self.wanted_indices = wanted_indices
        self.memo = {}   # what one module leaves for another (a max pooling's indices for its unpooling)

    # ---- names ----
    def _fresh(self, base):
        name, k = base, 1
        while name in self._names:
            name = f"{base}_{k}"
            k += 1
        self._names.add(name)
        return name

    @property
    def scope(self):
        """The module's place in the tree as child indices, '3.1' ('' at the root)."""
        return ".".join(self._scope)

    # ---- nodes and constants ----
    def const(self, array, hint="const", exact_type=False):
        """A constant tensor (an initializer): float arrays in the model's
        float type and integers as int64, unless ``exact_type``."""
        array = np.array(array, copy=True, order="C")
        if not exact_type and array.dtype.kind == "f":
            array = array.astype(self.float)
        elif not exact_type and array.dtype.kind in "iu":
            array = array.astype(np.int64)
        name = self._fresh(f"/{self.scope}/{hint}" if self.scope else f"/{hint}")
        self.initializers.append(self.numpy_helper.from_array(array, name))
        return name

    def exact(self, value):
        """Whether a float attribute (ONNX keeps them in float32) holds value
        exactly, or it does not matter (a float32 model)."""
        return self.float == np.float32 or float(np.float32(value)) == float(value)

    def ints(self, values):
        return self.const(np.asarray(values, dtype=np.int64).reshape(-1), "ints")

    def param(self, array, what):
        """A parameter of the module (``3.1.weight``), stored once however
        many modules share that very array."""
        key = id(array)
        if key in self._params and self._params[key][0] is array:
            return self._params[key][1]
        name = self._fresh(f"{self.scope}.{what}" if self.scope else what)
        data = np.array(array, copy=True, order="C")
        data = data.astype(self.float) if data.dtype.kind == "f" else data
        self.initializers.append(self.numpy_helper.from_array(data, name))
        self._params[key] = (array, name)   # the array is kept, so its id stays unique
        return name

    def _input_name(self, item):
        if item is None:
            return ""
        if isinstance(item, Value):
            return item.name
        if isinstance(item, str):
            return item
        if isinstance(item, float):
            return self.const(np.array(item))
        if isinstance(item, np.ndarray):
            return self.const(item)
        raise TypeError(f"Graph.op: an input must be a name, a Value, a numpy array or None, got {item!r}")

    def op(self, op_type, inputs, outputs=1, **attributes):
        """Add a node; its output name, or a list of ``outputs`` names."""
        names = [self._input_name(i) for i in inputs]
        while names and names[-1] == "":
            names.pop()
        node_name = self._fresh(f"/{self.scope}/{op_type}" if self.scope else f"/{op_type}")
        outs = [self._fresh(f"{node_name}_output_{k}") for k in range(outputs)]
        attributes = {k: v for k, v in attributes.items() if v is not None}
        self.nodes.append(self.helper.make_node(op_type, names, outs, name=node_name, **attributes))
        return outs[0] if outputs == 1 else outs

    # ---- helpers for the mappings ----
    def with_batch(self, x, rank, build):
        """``build(name)`` for an op that needs a batch dim (rank ``rank``):
        one sample (rank - 1 dims) is given a batch of one and loses it after."""
        if x.ndim == rank:
            return build(x.name)
        if x.ndim != rank - 1:
            raise NotExportable(f"expected a {rank - 1}D or {rank}D input, got {_show(x.shape)}")
        inner = build(self.op("Unsqueeze", [x, self.ints([0])]))
        if isinstance(inner, list):
            return [self.op("Squeeze", [name, self.ints([0])]) for name in inner]
        return self.op("Squeeze", [inner, self.ints([0])])

    def conv(self, x, weight, bias, kernel, strides, pads, dilations=None, group=1, transpose=False,
             output_padding=None):
        """Conv (ConvTranspose with ``transpose``) of x, batched or one
        sample; kernel, strides, pads (the same at both ends), dilations and
        output_padding per spatial dim, outermost first ([kT,] kH, kW)."""
        op = "ConvTranspose" if transpose else "Conv"
        dilations = None if dilations is None or all(d == 1 for d in dilations) else list(dilations)
        output_padding = None if output_padding is None or not any(output_padding) else list(output_padding)
        return self.with_batch(x, len(kernel) + 2, lambda v: self.op(
            op, [v, weight, bias], kernel_shape=list(kernel), strides=list(strides), pads=list(pads) * 2,
            dilations=dilations, group=group if group != 1 else None, output_padding=output_padding))

    def pool(self, op, x, y, kernel, strides, pads, ceil_mode=False, dilations=None, outputs=1, **attributes):
        """MaxPool or AveragePool (``op``) of x, batched or one sample, the
        sizes per spatial dim outermost first; ``outputs=2`` gives MaxPool's
        indices too.  In ceil mode Torch7 drops a last window that would
        start in the padding; onnxruntime does too, but ONNX's formula
        keeps it: such a window is cut off by a Slice to y's size."""
        n = len(kernel)
        dilations = [1] * n if dilations is None else list(dilations)
        cut = []
        if ceil_mode:
            for axis, (size, k, s, p, d, want) in enumerate(zip(x.shape[-n:], kernel, strides, pads, dilations,
                                                                y.shape[-n:])):
                if -(-(size + 2 * p - d * (k - 1) - 1) // s) + 1 != want:
                    cut.append((2 + axis, want))   # the axis in the batched form

        def build(v):
            out = self.op(op, [v], outputs=outputs, kernel_shape=list(kernel), strides=list(strides),
                          pads=list(pads) * 2, ceil_mode=1 if ceil_mode else None,
                          dilations=None if all(d == 1 for d in dilations) else dilations, **attributes)
            if cut:
                out = [self.op("Slice", [o, self.ints([0] * len(cut)), self.ints([w for _, w in cut]),
                                         self.ints([a for a, _ in cut])]) for o in ([out] if outputs == 1 else out)]
                out = out[0] if outputs == 1 else out
            return out
        return self.with_batch(x, n + 2, build)

    def frames(self, x, build, features_first=False):
        """``build(name)`` on a sequence of frames ``[batch, features,
        frames]`` (Conv and pooling's layout), for x laid out ``[(batch,)
        frames, features]`` (``[(batch,) features, frames]`` with
        features_first)."""
        def batched(v):
            if features_first:
                return build(v)
            out = build(self.op("Transpose", [v], perm=[0, 2, 1]))
            return self.op("Transpose", [out], perm=[0, 2, 1])
        return self.with_batch(x, 3, batched)

    def sizes(self, x, ndim, last):
        """The shape of x (``ndim`` dims) with its last dims replaced by
        ``last`` (Resize's sizes), the first ones taken at run time."""
        keep = ndim - len(last)
        return self.op("Concat", [self.slice(self.op("Shape", [x]), 0, 0, keep), self.ints(last)], axis=0)

    def reshape(self, x, y):
        """x reshaped to the shape of the output y (its first dim left to
        the runtime where it follows the batch)."""
        shape = list(y.shape)
        if y.batched:
            shape[0] = -1
        return self.op("Reshape", [x, self.ints(shape)])

    def slice(self, x, axis, start, stop, step=1):
        return self.op("Slice", [x, self.ints([start]), self.ints([stop]), self.ints([axis]), self.ints([step])])

    def pad(self, x, before, after, mode="constant", value=None):
        """Pad (mode constant, reflect or edge) by per-dim amounts that may
        be negative: the positive parts are padded first, then the negative
        ones cut off (so a reflection reads the uncut input, as Torch7)."""
        grow_before = [max(p, 0) for p in before]
        grow_after = [max(p, 0) for p in after]
        out = x
        if any(grow_before) or any(grow_after):
            fill = None if value is None else np.array(value, dtype=self.float)
            out = self.op("Pad", [out, self.ints(grow_before + grow_after), fill], mode=mode)
        cut = [(axis, -b, -a) for axis, (b, a) in enumerate(zip(before, after)) if b < 0 or a < 0]
        if cut:
            starts = [max(b, 0) for _, b, _ in cut]
            ends = [-a if a > 0 else np.iinfo(np.int64).max for _, _, a in cut]
            out = self.op("Slice", [out, self.ints(starts), self.ints(ends), self.ints([c[0] for c in cut])])
        return out

    def concat(self, values, axis):
        """Concat of the Values along axis, as a Value (for containers)."""
        if not values:
            raise NotExportable("the container is empty")
        if axis < 0 or axis >= values[0].ndim:
            raise NotExportable(f"dimension {axis} is out of range for outputs of {values[0].ndim} dimensions")
        name = self.op("Concat", values, axis=axis)
        value = np.concatenate([v.value for v in values], axis=axis)
        probes = [v.probe for v in values]
        probe = None if any(p is None for p in probes) else np.concatenate(probes, axis=axis)
        return Value(self, name, value, probe)

    def arrays(self, x, which="value"):
        """The example arrays (``which="probe"``: the probe's, or None if one
        is missing) of a Value or (nested) table of Values."""
        arrays = _nested(lambda v: getattr(v, which), x)
        return None if any(a is None for a in _leaves(arrays)) else arrays

    def constant(self, array, hint="const"):
        """A constant as a Value (the same for any batch)."""
        return Value(self, self.const(array, hint), np.asarray(array), np.asarray(array))

    def expand_batch(self, array, like):
        """array repeated for every sample of the Value like's batch, taken at run time, as a Value."""
        array = np.asarray(array)
        shape = self.op("Concat", [self.slice(self.op("Shape", [like]), 0, 0, 1), self.ints(array.shape)], axis=0)
        name = self.op("Expand", [self.const(array, "repeated"), shape])

        def repeated(a):
            return None if a is None else np.array(np.broadcast_to(array, a.shape[:1] + array.shape))
        return Value(self, name, repeated(like.value), repeated(like.probe))

    def zeros_like(self, x):
        """A Value of zeros shaped as x (its shape taken at run time)."""
        from onnx import helper
        dtype = _ELEMENT_TYPES[x.dtype.name]
        name = self.op("ConstantOfShape", [self.op("Shape", [x])], value=helper.make_tensor("zero", dtype, [1], [0]))
        return Value(self, name, np.zeros_like(x.value), None if x.probe is None else np.zeros_like(x.probe))

    def stack(self, values):
        """Values of one shape stacked along a new first dim (Unsqueeze, Concat), as a Value."""
        name = self.op("Concat", [self.op("Unsqueeze", [v, self.ints([0])]) for v in values], axis=0)
        probes = [v.probe for v in values]
        return Value(self, name, np.stack([v.value for v in values]),
                     None if any(p is None for p in probes) else np.stack(probes))

    def derive(self, name, x, fn):
        """A Value for ``name`` holding fn of x's arrays (for a container
        that reshapes what it passes to its children)."""
        return Value(self, name, fn(x.value), None if x.probe is None else fn(x.probe))

    def fix_batch(self, reason):
        """Export with the example's fixed batch, for the reason given (the
        module being exported named in front)."""
        if self.dynamic:
            self.dynamic = False
            self.static_reason = f"{self.where(self._running[-1])}: {reason}" if self._running else reason

    def where(self, module=None):
        return " -> ".join(self._path + ([type(module).__name__] if module is not None else []))

    # ---- running the tree ----
    def twin(self, module):
        """The module's copy that runs on the probe input (None once the batch is fixed)."""
        return self._twins.get(id(module)) if self.dynamic else None

    def child(self, container, index, x):
        """Export child ``index`` of the container on x."""
        module = container.modules[index]
        twin = self.twin(container)
        if twin is not None:
            self._twins[id(module)] = twin.modules[index]
        self._path.append(f"{type(container).__name__} ({index})")
        self._scope.append(str(index))
        try:
            return self.run(module, x)
        finally:
            self._path.pop()
            self._scope.pop()

    def inner(self, owner, attribute, x):
        """Export the module the owner keeps in ``attribute`` (not a child of a container) on x."""
        module = getattr(owner, attribute)
        twin = self.twin(owner)
        if twin is not None:
            self._twins[id(module)] = getattr(twin, attribute)
        self._path.append(f"{type(owner).__name__}.{attribute}")
        self._scope.append(attribute)
        try:
            return self.run(module, x)
        finally:
            self._path.pop()
            self._scope.pop()

    def run(self, module, x):
        """module's output Values for the input Values x."""
        self._running.append(module)
        try:
            return self._run(module, x)
        finally:
            self._running.pop()

    def _run(self, module, x):
        from ..Container import Container
        reason = _unsupported(module)
        if reason is None and (not isinstance(module, Container) or getattr(module, "_onnx_leaf", False)):
            y = self._forward(module, x)
            try:
                names = module._onnx(self, x, y)
            except NotExportable as e:
                reason = str(e)
            else:
                return self._attach(module, names, y)
        elif reason is None:
            try:
                return module._onnx(self, x, None)
            except NotExportable as e:
                reason = str(e)
        self.problems.append(f"{self.where(module)}: {reason}")
        try:   # what it computes, for the modules after it
            y = self._forward(module, x)
        except (ValueError, TypeError, NotImplementedError):
            raise ExportError(self.problems) from None
        return _nested(lambda v: Value(self, self._fresh("/unexported"), v.value, v.probe), y)

    def _forward(self, module, x):
        """The module's output for x's example and probe arrays, as Values
        without names; fixes the batch where the probe shows it cannot vary."""
        example = _nested(lambda v: v.value, x)
        try:
            out = _copy(module.forward(_copy(example)))
        except (ValueError, TypeError, IndexError) as e:
            from ..Container import _message
            raise type(e)(" -> ".join(self._path + [_message(module, e)])) from e
        for a in _leaves(out):
            if not isinstance(a, np.ndarray):
                raise NotImplementedError(f"{self.where(module)}: the output is a {type(a).__name__}, "
                                          f"not an array or a table of arrays")
        probe_out = None
        twin = self.twin(module)
        if twin is not None:
            probe = _nested(lambda v: v.probe, x)
            if any(p is None for p in _leaves(probe)):
                probe_out = None
            else:
                try:
                    probe_out = _copy(twin.forward(_copy(probe)))
                except (ValueError, TypeError, IndexError) as e:
                    self.fix_batch(f"does not take a batch of {self.batch + 1} ({e})")
                if probe_out is not None and not _varies_with_batch(out, probe_out):
                    self.fix_batch(f"gives {_show_layout(out)} for a batch of {self.batch} but "
                                   f"{_show_layout(probe_out)} for a batch of {self.batch + 1}")
                    probe_out = None
        if probe_out is None:
            return _nested(lambda a: Value(self, None, a), out)
        return _zip_values(self, out, probe_out)

    def _attach(self, module, names, y):
        """The mapping's result as Values: names get the computed arrays."""
        if isinstance(names, Value):
            return names
        if isinstance(names, str):
            if not isinstance(y, Value):
                raise TypeError(f"{self.where(module)}: _onnx gave one name for a table output")
            return Value(self, names, y.value, y.probe)
        if isinstance(names, (list, tuple)) and isinstance(y, list) and len(names) == len(y):
            return [self._attach(module, n, v) for n, v in zip(names, y)]
        raise TypeError(f"{self.where(module)}: _onnx gave {names!r} for an output laid out as {_layout_of(y)}")


def _unsupported(module):
    """Why the module cannot be exported, or None."""
    reason = getattr(module, "_onnx_unsupported", None)
    if reason:
        return f"no ONNX equivalent ({reason})"
    if getattr(type(module), "_onnx", None) is None:
        return "no ONNX mapping"
    return None


def _varies_with_batch(out, probe):
    """Every array of the probe's output is the example's, or differs from
    it in its first dim only."""
    if isinstance(out, (list, tuple)):
        return isinstance(probe, (list, tuple)) and len(out) == len(probe) and all(
            _varies_with_batch(o, p) for o, p in zip(out, probe))
    return isinstance(probe, np.ndarray) and probe.ndim == out.ndim and (
        probe.shape == out.shape or (out.ndim >= 1 and probe.shape[1:] == out.shape[1:]))


def _zip_values(graph, out, probe):
    if isinstance(out, (list, tuple)):
        return [_zip_values(graph, o, p) for o, p in zip(out, probe)]
    return Value(graph, None, out, probe)


def _show_layout(value):
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(_show_layout(v) for v in value) + "}"
    return _show(value.shape)


def _layout_of(y):
    return _show_layout(_nested(lambda v: v.value, y))


# ---------------------------------------------------------------- export
def export(model, example_input, f, opset=None):
    """Write ``model`` (an nn_legacy module, as it computes in evaluation
    mode) to ``f`` in ONNX and return the ``onnx.ModelProto``.

    example_input: a numpy array, or a list of arrays (nested as the model
    takes them) for a table input; it fixes every dim but the first, the
    batch, which stays free in the graph where the model allows it (see
    the module docstring).  f: a path, a binary file, or None to write
    nothing.  opset: 19 (the default) or later.

    Raises ExportError naming every module without an ONNX equivalent,
    before writing anything; ImportError when the onnx package is missing."""
    onnx, helper, _ = _onnx_modules()
    from ..Criterion import Criterion
    from ..Module import Module
    if isinstance(model, Criterion) or not isinstance(model, Module):
        raise TypeError(f"nn_legacy.onnx.export: model must be an nn_legacy module, got {type(model).__name__}")
    if any(not isinstance(p, np.ndarray) for p in model.parameters()[0]):
        raise TypeError("nn_legacy.onnx.export: the model's parameters are on a CUDA device; bring it to the host "
                        "first (model.float() or model.double())")
    opset = DEFAULT_OPSET if opset is None else opset
    newest = onnx.defs.onnx_opset_version()
    if not isinstance(opset, int) or not MIN_OPSET <= opset <= newest:
        raise ValueError(f"nn_legacy.onnx.export: opset must be an integer from {MIN_OPSET} to {newest} (the "
                         f"newest this onnx knows), got {opset!r}")
    inputs = _checked_input(example_input)
    arrays = _leaves(inputs)
    floats = [a.dtype for a in arrays if a.dtype.kind == "f"]
    float_dtype = floats[0] if floats else (model._dtype() or np.dtype(np.float32))
    if float_dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"nn_legacy.onnx.export: float inputs must be float32 or float64, got {float_dtype}")

    work, twin = copy.deepcopy(model), copy.deepcopy(model)
    work.evaluate()
    twin.evaluate()
    wanted = {id(m.pooling) for m in work.listModules() if hasattr(m, "pooling")}
    batch = arrays[0].shape[0] if arrays and arrays[0].ndim >= 1 else 0
    g = Graph(opset, float_dtype, batch, twin, work, wanted)
    in_names = ["input"] if len(arrays) == 1 else [f"input{i}" for i in range(len(arrays))]
    counter = iter(in_names)
    if batch < 1:
        g.fix_batch("the input has no first dim to take as the batch")

    def batched(a):   # of a table, the arrays whose first dim is the first array's are batches
        return g.dynamic and a.ndim >= 1 and a.shape[0] == batch

    x = _nested(lambda a: Value(g, next(counter), a, np.concatenate([a, a[:1]]) if batched(a) else a), inputs)
    for name in in_names:
        g._names.add(name)

    y = g.run(work, x)
    if g.problems:
        raise ExportError(g.problems)

    outputs = _leaves(y)
    out_names = ["output"] if len(outputs) == 1 else [f"output{i}" for i in range(len(outputs))]
    _name_outputs(g, outputs, out_names)
    if not g.dynamic:
        hint = " (an example of 2 samples or more may keep it free: Torch7 read a batch of 1 as one sample " \
               "in places)" if batch == 1 else ""
        warnings.warn(f"nn_legacy.onnx.export: the batch size is fixed at {batch} in the exported graph: "
                      f"{g.static_reason}{hint}", StaticBatchWarning, stacklevel=2)

    def info(name, array, probe_changes):
        dims = list(array.shape)
        if probe_changes and dims:
            dims[0] = "batch" if dims[0] == batch else f"batch_{name}"
        dtype = _ELEMENT_TYPES.get(array.dtype.name)
        if dtype is None:
            raise TypeError(f"nn_legacy.onnx.export: {name} is {array.dtype}, which ONNX has no type for here")
        return helper.make_tensor_value_info(name, dtype, dims)

    graph = helper.make_graph(
        g.nodes, "nn_legacy", [info(n, v.value, v.batched) for n, v in zip(in_names, _leaves(x))],
        [info(n, v.value, v.batched) for n, v in zip(out_names, outputs)], g.initializers)
    proto = helper.make_model(graph, producer_name="thnn nn_legacy", opset_imports=[helper.make_opsetid("", opset)],
                              doc_string=repr(model))
    proto.ir_version = helper.find_min_ir_version_for(list(proto.opset_import))
    onnx.checker.check_model(proto, full_check=True)
    if f is not None:
        data = proto.SerializeToString()
        if isinstance(f, (str, bytes, os.PathLike)):
            with open(f, "wb") as out:
                out.write(data)
        else:
            f.write(data)
    return proto


def _checked_input(value):
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError("nn_legacy.onnx.export: example_input is an empty table")
        return [_checked_input(v) for v in value]
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "biuf":
        raise TypeError(f"nn_legacy.onnx.export: example_input must be a numpy array of numbers or a list of "
                        f"them, got {type(value).__name__}")
    return np.ascontiguousarray(value)


def _name_outputs(g, outputs, out_names):
    """Give the graph's outputs their names: the node making one is renamed
    when that is all the name is used for; else an Identity node copies it
    (a graph input, a constant, or a tensor given out twice)."""
    produced = {out: node for node in g.nodes for out in node.output}
    inputs_used = {name for node in g.nodes for name in node.input}
    taken = set()
    for value, new in zip(outputs, out_names):
        old = value.name
        node = produced.get(old)
        if node is not None and old not in inputs_used and old not in taken:
            node.output[list(node.output).index(old)] = new
        else:
            g.nodes.append(g.helper.make_node("Identity", [old], [new], name=g._fresh(f"/{new}/Identity")))
        taken.add(old)


# ---------------------------------------------------------------- what exports
def support(cls):
    """(True, how) for a module class that exports, how being the first
    line of its mapping's docstring; (False, why) for one that does not."""
    reason = getattr(cls, "_onnx_unsupported", None)
    if reason:
        return False, f"no ONNX equivalent ({reason})"
    mapping = getattr(cls, "_onnx", None)
    if mapping is None:
        return False, "no ONNX mapping"
    doc = (mapping.__doc__ or "").strip().splitlines()
    return True, doc[0].strip() if doc else ""


#: abstract bases, not modules of their own (their subclasses are in the table)
_BASES = ("Module", "Container", "AbstractRecurrent", "AbstractSequencer")


def support_table():
    """The Markdown table of every module class and its ONNX form, as the
    README shows it."""
    import nn_legacy
    from ..Module import Module
    names = sorted(n for n in nn_legacy.__all__ if isinstance(getattr(nn_legacy, n), type)
                   and issubclass(getattr(nn_legacy, n), Module) and n not in _BASES)
    rows = ["| module | ONNX |", "|---|---|"]
    count = 0
    for name in names:
        ok, how = support(getattr(nn_legacy, name))
        count += ok
        rows.append(f"| {name} | {how if ok else 'not exported: ' + how} |")
    rows.append("")
    rows.append(f"{count} of {len(names)} module classes export.")
    return "\n".join(rows)
