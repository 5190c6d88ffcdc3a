"""Loading the rnn package's modules from Torch7 files: what the classes'
``_t7_fixup`` share.

A recurrent cell (LSTM, FastLSTM, GRU) was saved with its step module: a
tree of nn modules, or an nngraph gModule (FastLSTM.usenngraph), plus the
clones of earlier steps.  Those fields reach the module raw (TorchObjects,
see ``_t7_raw_fields``); the fixup reads the weights out of them and builds
the cell again the nn_legacy way, so nngraph is never needed.  The Element-
Research package (``rho``, ``recurrentModule``) and torch/rnn (``seqlen``,
``modules[1]``) are both read."""
import numpy as np

from .._helpers.lua import LuaTable, T7Error, TorchObject

# the fields of a recurrent module that hold the step module, its clones and
# the state of the last sequence: taken raw, and dropped once read
CELL_RAW_FIELDS = ("recurrentModule", "modules", "sharedClones", "i2g", "o2g", "inputGate", "forgetGate",
                   "hiddenLayer", "outputGate", "cellLayer", "outputs", "cells", "gradInputs", "gradOutputs",
                   "_gradOutputs", "gradCells", "zeroTensor", "cell", "_input", "gradPrevOutput",
                   "userGradPrevOutput", "userGradPrevCell", "initialModule")

# fields of any rnn-package recurrent module that describe the last sequence
STATE_FIELDS = ("outputs", "cells", "gradInputs", "gradOutputs", "_gradOutputs", "gradCells", "zeroTensor",
                "cell", "_input", "sharedClones", "nSharedClone", "rmInSharedClones", "updateGradInputStep",
                "accGradParametersStep", "gradPrevOutput", "userGradPrevOutput", "userGradPrevCell", "seqlen",
                "dpnn_mediumEmpty", "dpnn_parameters", "dpnn_gradParameters", "zeroMask", "zeroMaskStep",
                "_zeroMask", "step", "_output")


def _items(table):
    """The values of a Lua table (list or dict) in key order 1..n first."""
    if isinstance(table, LuaTable):
        items = table.as_list()
        if items is not None:
            return items
        keys = sorted((k for k in table if isinstance(k, float)))
        return [table[k] for k in keys]
    if isinstance(table, (list, tuple)):
        return list(table)
    if isinstance(table, dict):
        return [table[k] for k in sorted(table, key=lambda k: (not isinstance(k, (int, float)), str(k)))]
    return []


def children(obj):
    """The child modules of a raw torch object (its ``modules`` table, in
    order; a gModule lists its modules there too)."""
    fields = obj.fields if isinstance(obj, TorchObject) and isinstance(obj.fields, dict) else {}
    return [m for m in _items(fields.get("modules")) if isinstance(m, TorchObject)]


def walk(obj, seen=None):
    """obj and every module below it, depth first in ``modules`` order (the
    order of Torch7's parameters()); each object once."""
    seen = set() if seen is None else seen
    if not isinstance(obj, TorchObject) or id(obj) in seen:
        return []
    seen.add(id(obj))
    found = [obj]
    for child in children(obj):
        found += walk(child, seen)
    return found


def field(obj, name, default=None):
    fields = obj.fields if isinstance(obj, TorchObject) and isinstance(obj.fields, dict) else {}
    return fields.get(name, default)


def step_module(module, cls_name):
    """The raw step module of a loaded recurrent module: ``recurrentModule``
    (Element-Research) or ``modules[1]`` (torch/rnn)."""
    fields = vars(module)
    step = fields.get("recurrentModule")
    if not isinstance(step, TorchObject):
        items = _items(fields.get("modules"))
        step = items[0] if items else None
    if not isinstance(step, TorchObject):
        raise T7Error(f"{cls_name}: the file holds no step module (recurrentModule or modules[1])")
    return step


def unwrap_mask(step):
    """(the step module inside a MaskZero / TrimZero, its nInputDim or None)."""
    if step.class_name in ("nn.MaskZero", "nn.TrimZero"):
        inner = children(step) or [field(step, "module")]
        if not isinstance(inner[0], TorchObject):
            raise T7Error(f"{step.class_name} in the file decorates no module")
        n = field(step, "nInputDim")
        return inner[0], (int(n) if isinstance(n, (int, float)) else 1)
    return step, None


def refuse_batch_normalization(cls_name, step):
    if any(m.class_name.endswith("BatchNormalization") for m in walk(step)):
        raise T7Error(f"{cls_name}: its step module holds a BatchNormalization, which the rnn package's "
                      f"{cls_name} never built (only FastLSTM's recurrent batch normalization, FastLSTM.bn, loads)")


def refuse_dropout(cls_name, module):
    p = vars(module).get("p", 0)
    if isinstance(p, (int, float)) and p != 0:
        raise T7Error(f"{cls_name}: this one has dropout inside its step (p={p:g}), which nn_legacy does not "
                      "implement")


def linear_arrays(obj, what):
    """(weight, bias or None) of a raw Linear / LinearNoBias / CMul."""
    if not isinstance(obj, TorchObject):
        raise T7Error(f"{what}: expected a module, got {type(obj).__name__}")
    weight, bias = field(obj, "weight"), field(obj, "bias")
    if not isinstance(weight, np.ndarray) or weight.dtype not in (np.float32, np.float64):
        raise T7Error(f"{what}: {obj.class_name} has no float weight")
    if not isinstance(bias, np.ndarray) or bias.size == 0:
        bias = None
    return weight, bias


def set_parameters(module, weight, bias, what):
    """module's weight (and bias) become the file's arrays, checked against
    the shapes module was built with; gradients start at zero."""
    for name, value in (("weight", weight), ("bias", bias)):
        mine = getattr(module, name, None)
        if mine is None and value is None:
            continue
        if mine is None or value is None:
            raise T7Error(f"{what}: the file's {type(module).__name__} {'has' if value is not None else 'lacks'} "
                          f"a {name}")
        if value.size != mine.size:
            raise T7Error(f"{what}: {name} of {value.size} elements in the file, {list(mine.shape)} expected")
        value = np.ascontiguousarray(value).reshape(mine.shape)
        setattr(module, name, value)
        setattr(module, "grad" + name[0].upper() + name[1:], np.zeros_like(value))


def size_field(module, *names):
    """The first of names the loaded module has, as a positive int."""
    fields = vars(module)
    for name in names:
        value = fields.get(name)
        if isinstance(value, (int, float)) and value >= 1 and float(value).is_integer():
            return int(value)
    raise T7Error(f"{type(module).__name__}: the file gives no {' or '.join(names)}")


def rho_of(module):
    """rho (Element-Research) or seqlen (torch/rnn); 9999 when neither."""
    fields = vars(module)
    for name in ("rho", "seqlen"):
        value = fields.get(name)
        if isinstance(value, (int, float)) and value >= 1:
            return int(min(value, 2 ** 31 - 1))
    return 9999


def drop_state_fields(module, extra=()):
    for name in STATE_FIELDS + tuple(extra):
        vars(module).pop(name, None)


PARAMETER_CLASSES = ("nn.Linear", "nn.LinearNoBias", "nn.CMul")


def fill_step(step, raw_parameters, cls_name):
    """Give the step module built from the file's sizes the file's weights:
    raw_parameters are the raw Linear / LinearNoBias / CMul modules in
    Torch7's parameters() order, one per module of step that has any."""
    from ..CMul import CMul
    mine = [m for m in step.listModules()[1:] if m._owned_parameters()]
    if len(raw_parameters) != len(mine):
        raise T7Error(f"{cls_name}: the file's step module has {len(raw_parameters)} weight layers "
                      f"({', '.join(m.class_name for m in raw_parameters)}), {len(mine)} expected")
    for k, (m, raw) in enumerate(zip(mine, raw_parameters)):
        what = f"{cls_name} weight layer {k}"
        weight, bias = linear_arrays(raw, what)
        expected = "nn.CMul" if isinstance(m, CMul) else "nn.Linear"
        if (raw.class_name == "nn.CMul") != (expected == "nn.CMul"):
            raise T7Error(f"{what}: {raw.class_name} in the file where a {expected[3:]} belongs")
        set_parameters(m, weight, bias, what)
    return step


def raw_parameters(raw):
    return [m for m in walk(raw) if m.class_name in PARAMETER_CLASSES]


def by_role(step, raw_parameters):
    """raw_parameters put in the order of step's weight layers by what each
    layer is (a bias or not, the weight's size), not by where it sits: an
    nngraph gModule lists its modules in graph order.  Layers alike in both
    keep their order.  What matches nothing is left for fill_step to refuse."""
    mine = [m for m in step.listModules()[1:] if m._owned_parameters()]
    left, ordered = list(raw_parameters), []
    for m in mine:
        def fits(raw):
            weight, bias = field(raw, "weight"), field(raw, "bias")
            has_bias = isinstance(bias, np.ndarray) and bias.size > 0
            return (isinstance(weight, np.ndarray) and weight.size == m.weight.size
                    and has_bias == (getattr(m, "bias", None) is not None))
        match = next((raw for raw in left if fits(raw)), None)
        if match is None:
            return raw_parameters
        left.remove(match)
        ordered.append(match)
    return ordered + left


# ---------------------------------------------------------------- FastLSTM with bn
def batch_normalizations(raw):
    """The BatchNormalization modules in a raw step module."""
    return [m for m in walk(raw) if m.class_name.endswith("BatchNormalization")]


def has_array(obj, name):
    value = field(obj, name)
    return isinstance(value, np.ndarray) and value.size > 0


def _bn_size(obj):
    for name in ("running_mean", "running_var", "running_std", "weight"):
        value = field(obj, name)
        if isinstance(value, np.ndarray) and value.size:
            return value.size
    raise T7Error(f"{obj.class_name} in FastLSTM's step module has no running averages")


def _node_roles(raw):
    """id(module) -> the role its gModule node names (annotations.name,
    'bn_wx' / 'bn_wh' / 'bn_c' as FastLSTM.nngraphModel annotated them), or
    'bn_wh' for a BN whose node feeds an nn.Add (the bias after BN_h).
    nn_legacy's own FastLSTMBNStep (save_lua writes it under its name)
    lists them in a fixed order: i2g, o2g, bn_wx, bn_wh, the Add, bn_c."""
    if raw.class_name == "nn.FastLSTMBNStep":
        kids = children(raw)
        return {id(kids[2]): "bn_wx", id(kids[3]): "bn_wh"} if len(kids) == 6 else {}
    roles = {}
    for node in _items(field(raw, "forwardnodes")):
        data = field(node, "data")
        if not isinstance(data, dict):
            continue
        module = data.get("module")
        if not isinstance(module, TorchObject):
            continue
        notes = data.get("annotations")
        name = notes.get("name") if isinstance(notes, dict) else None
        if name in ("bn_wx", "bn_wh", "bn_c"):
            roles[id(module)] = name
            continue
        for child in _items(field(node, "children")):
            child_data = field(child, "data")
            child_module = child_data.get("module") if isinstance(child_data, dict) else None
            if isinstance(child_module, TorchObject) and child_module.class_name == "nn.Add":
                roles.setdefault(id(module), "bn_wh")
    return roles


def fast_lstm_bn_parts(module, raw, H, template):
    """The raw modules of a batch-normalized FastLSTM step: i2g, o2g, bn_wx,
    bn_wh, add (the bias after BN_h) and bn_c.  i2g and o2g are told apart
    by their shapes and biases (template: a FastLSTMStep of the sizes), the
    two BNs of 4H features by their gModule nodes (name or what follows)."""
    fields = vars(module)
    if isinstance(fields.get("i2g"), TorchObject) and isinstance(fields.get("o2g"), TorchObject):
        i2g, o2g = fields["i2g"], fields["o2g"]
    else:
        ordered = by_role(template, raw_parameters(raw))
        if len(ordered) != 2:
            raise T7Error(f"FastLSTM: the file's step module has {len(ordered)} weight layers, 2 expected "
                          "(i2g and o2g)")
        i2g, o2g = ordered
    adds = [m for m in walk(raw) if m.class_name == "nn.Add"]
    if len(adds) != 1:
        raise T7Error(f"FastLSTM (bn): the file's step module has {len(adds)} nn.Add modules, 1 expected (the "
                      "bias after the hidden-to-hidden batch normalization)")
    bns = batch_normalizations(raw)
    small = [m for m in bns if _bn_size(m) == H]
    large = [m for m in bns if _bn_size(m) == 4 * H]
    if len(bns) != 3 or len(small) != 1 or len(large) != 2:
        raise T7Error(f"FastLSTM (bn): the file's step module has batch normalizations of "
                      f"{[_bn_size(m) for m in bns]} features, [4H, 4H, H] = [{4 * H}, {4 * H}, {H}] expected")
    roles = _node_roles(raw)
    wh = [m for m in large if roles.get(id(m)) == "bn_wh"]
    wx = [m for m in large if roles.get(id(m)) == "bn_wx"]
    if len(wh) == 1:
        wx = [m for m in large if m is not wh[0]]
    elif len(wx) == 1:
        wh = [m for m in large if m is not wx[0]]
    else:
        raise T7Error("FastLSTM (bn): the file's gModule does not tell its two batch normalizations of 4H "
                      "features apart (no node named bn_wx / bn_wh, none feeding the nn.Add)")
    return {"i2g": i2g, "o2g": o2g, "bn_wx": wx[0], "bn_wh": wh[0], "add": adds[0], "bn_c": small[0]}


def _bn_arrays(obj, n, what):
    """(weight or None, bias or None, running_mean, running_var) of a raw BN of n features."""
    arrays = {}
    for name in ("weight", "bias", "running_mean", "running_var", "running_std"):
        value = field(obj, name)
        if isinstance(value, np.ndarray) and value.size:
            if value.dtype not in (np.float32, np.float64) or value.size != n:
                raise T7Error(f"{what}: {name} must hold {n} floats, got {value.size} of {value.dtype}")
            arrays[name] = np.ascontiguousarray(value).reshape(n)
    if "running_var" not in arrays:
        if "running_std" not in arrays:
            raise T7Error(f"{what}: the file holds no running_var (nor the older running_std)")
        eps = field(obj, "eps", 1e-5)
        std = arrays["running_std"].astype(np.float64)
        arrays["running_var"] = (std ** -2 - float(eps)).astype(arrays["running_std"].dtype)
    if "running_mean" not in arrays:
        raise T7Error(f"{what}: the file holds no running_mean")
    return arrays.get("weight"), arrays.get("bias"), arrays["running_mean"], arrays["running_var"]


def fill_bn_step(step, parts):
    """Give a FastLSTMBNStep the weights and running averages of the raw parts."""
    for name, mine in (("i2g", step.i2g), ("o2g", step.o2g)):
        weight, bias = linear_arrays(parts[name], f"FastLSTM {name}")
        set_parameters(mine, weight, bias, f"FastLSTM {name}")
    _, bias = linear_arrays_bias_only(parts["add"], "FastLSTM bias (nn.Add)")
    set_parameters(step.bias_module, None, bias, "FastLSTM bias (nn.Add)")
    for name in ("bn_wx", "bn_wh", "bn_c"):
        mine = getattr(step, name)
        what = f"FastLSTM {name}"
        weight, bias, mean, var = _bn_arrays(parts[name], mine.running_mean.size, what)
        if (weight is None) != (mine.weight is None):
            raise T7Error(f"{what}: the file's BatchNormalization {'lacks' if weight is None else 'has'} the "
                          "affine weight the others have")
        set_parameters(mine, weight, bias, what)
        mine.running_mean, mine.running_var = mean.copy(), var.astype(mean.dtype)
    return step


def linear_arrays_bias_only(obj, what):
    bias = field(obj, "bias")
    if not isinstance(bias, np.ndarray) or bias.dtype not in (np.float32, np.float64) or bias.size == 0:
        raise T7Error(f"{what}: {obj.class_name} has no float bias")
    return None, bias


# ---------------------------------------------------------------- torch/rnn's StepLSTM, StepGRU
def check_step_weights(step):
    """A loaded StepLSTM / StepGRU: sizes as ints (the first StepLSTM, April
    2017, had no hiddensize: it is outputsize), weight [inputsize +
    outputsize, gates * hidden] and bias [gates * hidden], no projection."""
    name = type(step).__name__
    fields = vars(step)
    step.inputsize = size_field(step, "inputsize", "inputSize")
    step.outputsize = size_field(step, "outputsize", "outputSize")
    gates = 3 if name == "StepGRU" else 4
    if gates == 4:
        step.hiddensize = size_field(step, "hiddensize", "outputsize", "outputSize")
        weight_o = fields.pop("weightO", None)
        fields.pop("gradWeightO", None)
        if (isinstance(weight_o, np.ndarray) and weight_o.size) or step.hiddensize != step.outputsize:
            raise T7Error(f"{name}: this one projects its hidden state (weightO, LSTMP: hiddensize "
                          f"{step.hiddensize}, outputsize {step.outputsize}), which nn_legacy does not implement")
    hidden = step.outputsize
    for pname, shape in (("weight", (step.inputsize + hidden, gates * hidden)), ("bias", (gates * hidden,))):
        value = fields.get(pname)
        if not isinstance(value, np.ndarray) or value.dtype not in (np.float32, np.float64) \
                or value.size != int(np.prod(shape)):
            got = f"{value.size} {value.dtype}" if isinstance(value, np.ndarray) else type(value).__name__
            raise T7Error(f"{name}: {pname} must hold {int(np.prod(shape))} floats ({list(shape)}), got {got}")
        setattr(step, pname, np.ascontiguousarray(value).reshape(shape))
        setattr(step, "grad" + pname[0].upper() + pname[1:], np.zeros(shape, value.dtype))
    step._t7_maskzero = bool(fields.pop("maskzero", False))


# ---------------------------------------------------------------- nn_legacy's own step modules and fused cells
class OwnT7Module:
    """The _t7_fixup of nn_legacy's own step modules and fused cells (see
    fixup_own_module): ``_t7_sizes`` name the constructor's size arguments,
    ``_t7_fresh()`` builds one of the file's sizes."""

    _t7_sizes = ("inputSize", "outputSize")
    _t7_gates = 4

    def _t7_fresh(self):
        return type(self)(*(getattr(self, n) for n in self._t7_sizes))

    def _t7_parameter_count(self):
        """The parameters the fresh module of the file's sizes holds (at
        least): gates * H * (D + H + 1) for a step module."""
        return self._t7_gates * self.outputSize * (self.inputSize + self.outputSize + 1)

    def _t7_fixup(self, version):
        from .._helpers.random import generator
        for n in self._t7_sizes:
            setattr(self, n, size_field(self, n))
        need, have = self._t7_parameter_count(), _array_elements(self, set())
        if need > have:   # (a hostile file's sizes must not make the fresh module allocate past what it holds)
            sizes = ", ".join(f"{n} {getattr(self, n)}" for n in self._t7_sizes)
            raise T7Error(f"{type(self).__name__}: {sizes} make {need} parameters; the file holds {have} numbers")
        bits = generator().bit_generator
        state = bits.state   # (the fresh module's reset draws: the generator is left as it was)
        try:
            fresh = self._t7_fresh()
        finally:
            bits.state = state
        fixup_own_module(self, fresh)


def _array_elements(module, seen):
    """The elements of the arrays in a loaded module and the modules below it."""
    if id(module) in seen:
        return 0
    seen.add(id(module))
    total = 0
    for value in vars(module).values():
        if isinstance(value, np.ndarray):
            total += value.size
        elif isinstance(value, list):
            total += sum(_array_elements(m, seen) for m in value if hasattr(m, "__dict__"))
    return total


def fixup_own_module(module, fresh):
    """A step module or fused cell of nn_legacy's own (FastLSTMStep,
    GRUStep, FastLSTMBNStep, LSTMCellFused, GRUCellFused: classes that Lua's
    rnn package never had, written by save_lua under their own names) loaded
    again: ``fresh`` is one built from the file's sizes (already made ints by
    the caller).  The file's modules must be the classes fresh holds, in its
    order, with parameters and running averages of its shapes; what fresh
    has and the file does not (its private work memory) is taken from fresh.
    Anything else is a T7Error naming the part."""
    name = type(module).__name__
    fields = vars(module)
    mine = fresh.modules if hasattr(fresh, "modules") else []
    theirs = fields.get("modules", []) if mine else []
    if not isinstance(theirs, list) or len(theirs) != len(mine):
        count = len(theirs) if isinstance(theirs, list) else type(theirs).__name__
        raise T7Error(f"{name}: the file's modules are {count}, {len(mine)} expected "
                      f"({', '.join(type(m).__name__ for m in mine)})")
    pairs = [(name, fresh, module)] + [(f"{name} module {k}", a, b) for k, (a, b) in enumerate(zip(mine, theirs))]
    for what, a, b in pairs:
        if type(b) is not type(a):
            raise T7Error(f"{what}: a {type(b).__name__} in the file where a {type(a).__name__} belongs")
        for key, value in vars(a).items():
            if key.startswith("_") or key in ("output", "gradInput") or not isinstance(value, np.ndarray):
                continue
            other = vars(b).get(key)
            if not isinstance(other, np.ndarray) or other.shape != value.shape or other.dtype.kind != "f":
                got = f"{list(other.shape)} {other.dtype}" if isinstance(other, np.ndarray) else type(other).__name__
                raise T7Error(f"{what}: {key} must be floats of {list(value.shape)}, got {got}")
        for key, value in vars(a).items():
            vars(b).setdefault(key, value)
