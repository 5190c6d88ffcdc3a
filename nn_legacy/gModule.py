"""nngraph's graph module, without a graph engine: the graph is lowered,
once, into ordinary containers (Sequential, ConcatTable, SelectTable,
NarrowTable, Identity), and forward, backward, parameters, ``cuda()``,
save/load and ONNX export are theirs.

How a graph lowers (docs/guides/graph-models.md has the picture):

- The values the graph computes are kept in an *environment*, a table of
  the values still to be read (one value alone is kept bare, not in a
  table).  Each stage is a ConcatTable whose children are SelectTables
  (keeping the values read later) and the expressions of the new values;
  a value nobody reads afterwards is dropped.  ConcatTable sums the
  gradients its children give an entry: a value read by several nodes gets
  the sum of their gradients, as nngraph summed them.
- A node's expression picks its inputs from the environment (SelectTable;
  NarrowTable for a run of entries; ConcatTable of SelectTables, or of the
  expressions of inputs it alone reads, for any other order; nothing when
  it reads the whole environment in order), then
  applies its module.  One input is given unwrapped, several as a table in
  the order the node was given them; a node without a module passes its
  input on; the nodes of ``split(n)`` are SelectTables.
- A node read only by the next node of a chain is not kept: the chain is
  one Sequential, and a graph that is a chain lowers to one Sequential.
  Without in-place modules, a node read by one node of several inputs is
  not kept either: its reader's expression computes it (the reader's
  ConcatTable of inputs holds its expression), a tree of expressions.
- Modules run in the order nngraph ran them (``forwardnodes``) whenever it
  can matter: when the graph holds an in-place module, nodes are chained
  and grouped only where that keeps nngraph's order exactly, so a value an
  in-place module changes is seen changed by exactly the nodes that saw it
  changed in nngraph (values pass by reference in both).  Otherwise stages
  are chosen to make backward's plumbing cheapest (see ``_stages``).
- Several inputs: the environment starts as the input table itself.
- gModule runs its stages itself, as their containers would run them:
  forward picks the kept values and each expression's inputs from the
  environment without a Python call per selector (setting every
  selector's and container's output as their own forward does; from the
  second call on, by a plan of the tree compiled once and checked against
  the tree at every call: see _Plan), and
  backward adds the environment's gradient sparsely: a stage's selectors
  (SelectTable, NarrowTable, ConcatTable of SelectTables, a split's
  picker) would each give a gradient laid out as the whole environment,
  zeros but for their entries, for the ConcatTable to sum; gModule instead
  adds each gradient into the entry (or the part of a split entry) it
  belongs to, in the children's order (the same sums, bit for bit), and
  zero-fills only what nobody reads (``_stage_gradient``).  A gradient only
  one reader gives is passed on as it is, not copied (as nngraph passes
  it), unless the graph holds an in-place module (whose backward writes
  into its gradOutput): then sums and single gradients alike go into
  buffers of gModule's own.  The selectors' own gradInput buffers are not
  filled; every module's is.  A stage a user edited into another shape
  runs (that child, or that stage) through the containers' own methods.
"""
import weakref

import numpy as np

from ._bases.tables import check_length, check_nested_like, nested_copy, nested_zeros
from ._helpers.graph_nodes import GraphNode, works_in_place
from ._helpers.lua import T7Error, TorchObject
from .ConcatTable import ConcatTable
from .Container import _message, add_table, show_layout
from .Identity import Identity
from .Module import Module
from .NarrowTable import NarrowTable
from .SelectTable import SelectTable
from .Sequential import Sequential

IN = -1   # the value given to forward


class _Record:
    """One node of the graph, in an order where inputs come first: its
    module (or None), the indices of its inputs (IN: the graph's input),
    the 0-based entry it selects (split's nodes), and how errors name it."""
    __slots__ = ("module", "inputs", "select", "name")

    def __init__(self, module, inputs, select, name):
        self.module, self.inputs, self.select, self.name = module, list(inputs), select, name


class gModule(Sequential):
    """A graph of modules built the nngraph way, lowered into containers.

    ::

        x = nn.Identity()()
        h = nn.Tanh()(nn.Linear(4, 8)(x))
        y = nn.CAddTable()([nn.Linear(8, 8)(h), h])
        g = nn.gModule([x], [y])        # a Sequential of ordinary containers

    inputs / outputs: lists of graph nodes (``module(...)`` makes them).  With
    one input, forward takes the value itself, with several a table (list)
    of them in order; with one output, forward returns it, with several a
    list.  ``graph_modules`` lists the graph's modules in nngraph's order
    (``gModule.modules`` in Lua); ``parameters()`` and ``flattenParameters()``
    follow it, so a flat parameter vector lines up with one Torch7 made.
    ``load_lua`` lowers the ``nn.gModule`` objects of Torch7 files the same way.

    Refused, with the node named: the same module object at two nodes (its
    one output buffer cannot hold two values; use ``clone()``, or
    ``clone('weight', 'bias', 'gradWeight', 'gradBias')`` to share
    parameters), and nodes without inputs besides the graph's inputs
    (nnop's parameter nodes).

    A Torch7 file's object of a class nn_legacy does not have that holds
    nngraph's graph fields (forwardnodes, innode, outnode: a subclass of
    nn.gModule, as research models and rnn-package graphs define them) loads
    as a gModule, with a T7Warning: its own fields are attributes,
    ``lua_class`` is its torch class name and ``lua_fields`` its own fields'
    names (one named like a method of the class is kept in the dict
    ``lua_shadowed`` instead); what its Lua methods did differently is not
    run."""

    _t7_graph = True     # load_lua checks the graphs it loaded for cycles
    lua_class = None     # the torch class of a gModule subclass loaded as its base
    lua_fields = ()      # and the names of its own fields

    def __init__(self, inputs, outputs):
        super().__init__()
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        records, outs = _records_from_nodes(inputs, outputs)
        try:
            self._lower(records, outs, len(inputs))
        except T7Error as e:
            raise ValueError(str(e)) from None

    # ---------------------------------------------------------------- lowering
    def _lower(self, records, outputs, n_inputs, graph_modules=None):
        seen = {}
        for r in records:
            if r.module is None:
                continue
            if id(r.module) in seen:
                raise T7Error(f"nn.gModule: the same {type(r.module).__name__} object is the module of two nodes, "
                              f"{seen[id(r.module)]} and {r.name}: lowering needs one module per node (its output "
                              f"buffer holds one value); clone it, sharing parameters with clone('weight', 'bias', "
                              f"'gradWeight', 'gradBias') if they were meant to be shared")
            seen[id(r.module)] = r.name
        strict = any(works_in_place(r.module) for r in records if r.module is not None)
        self.modules = _lower(records, outputs, strict)
        self._share_gradients = not strict
        self._stage_sums = None
        # for ONNX (value semantics): the readers of a value an in-place module changed read its output
        rerouted, outs = _value_semantics(records, outputs)
        self._value_semantics = None if rerouted is None else Sequential(*_lower(rerouted, outs, True))
        self.nInputs = n_inputs
        self.nOutputs = len(outputs)
        self.nNodes = len(records) + 1          # and nngraph's output node
        if graph_modules is None:
            graph_modules = [r.module for r in records if r.module is not None]
        self.graph_modules = list(graph_modules)
        self.output, self.gradInput = None, None

    # ---------------------------------------------------------------- Torch7 files
    _t7_raw_fields = ("forwardnodes", "backwardnodes", "innode", "outnode", "fg", "bg")
    _t7_fixup_converts = True    # _t7_fixup gets the reader's converter for the modules in the nodes

    def _t7_fixup(self, version, convert):
        fields = vars(self)
        records, outs, n_inputs = _records_from_t7(fields, convert)
        listed = fields.get("modules")
        graph_modules = None
        if isinstance(listed, list) and listed:
            if not all(isinstance(m, Module) for m in listed):
                bad = next(m for m in listed if not isinstance(m, Module))
                raise T7Error(f"nn.gModule: modules holds a {_what(bad)}, not a module")
            graph_modules = list(dict.fromkeys(listed))    # a module listed twice is refused below anyway
        for key in self._t7_raw_fields + ("verbose", "modules", "lua_class", "lua_fields", "lua_shadowed"):
            fields.pop(key, None)       # (the last three are load_lua's to set, for a subclass)
        self._lower(records, outs, n_inputs, graph_modules)

    def _t7_unfixup(self, fields):
        """save_lua: the lowering's own fields are not Torch7's; save_lua writes
        in their place the node graph nngraph would hold (forwardnodes, innode,
        modules...: nn_legacy/serialization/nngraph_writer.py rebuilds it from
        the lowered containers)."""
        for key in ("modules", "graph_modules", "nOutputs", "nNodes", "lua_class", "lua_fields", "lua_shadowed"):
            fields.pop(key, None)

    # ---------------------------------------------------------------- the container's ways
    def updateOutput(self, input):
        """Sequential's forward, with the stages run as their containers run
        them but without a Python call per selector: by the tree's forward
        plan (see _Plan) while the tree is as it was when the plan was
        made, else stage by stage (see _picks_output), making a new plan."""
        plan = _PLANS.get(self)
        if type(plan) is _Plan and plan.fits(self):
            current = plan.run(self, input)
        else:
            seen = []
            current = self._stages_output(input, 0, seen)
            if type(plan) is _Plan and plan.run is None:
                _PLANS[self] = _PLAN_AGAIN      # (a tree edited at every call: no plan for a while)
            elif type(plan) is int and plan > 1:
                _PLANS[self] = plan - 1
            else:
                try:
                    _PLANS[self] = _Plan(self, seen)
                except Exception:      # (a selector whose index does not compare: no plan for a while)
                    _PLANS[self] = _PLAN_AGAIN
        self.output = current
        return current

    def _stages_output(self, current, start, seen=None):
        """The output of stages start, start + 1, ... given the input of
        stage start; seen (a list) gets each stage's input as a plan sees
        it: its length if a list, else None."""
        modules = self.modules
        for i in range(start, len(modules)):
            stage = modules[i]
            if seen is not None:
                seen.append(len(current) if type(current) is list else None)
            if type(stage) is ConcatTable and type(current) is list and stage.modules:
                try:
                    current = _picks_output(stage, current, len(current))
                except (ValueError, TypeError, RuntimeError, IndexError) as e:
                    raise type(e)(f"{type(self).__name__} ({i}) -> {e}") from e
            else:
                current = self._child(i, "updateOutput", current)
        return current

    def updateGradInput(self, input, gradOutput):
        return self._backward_stages("updateGradInput", input, gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._backward_stages("backward", input, gradOutput, scale)

    #: the stages' own gradient buffers (one list per stage, see _put); a work buffer
    _stage_sums = None
    _buffer_names = ("_stage_sums",)
    #: whether a gradient only one reader gives is passed on as it is (nngraph's way) rather than copied:
    #: only in graphs without in-place modules (an in-place module's backward writes into its gradOutput)
    _share_gradients = False

    def _backward_stages(self, method, input, gradOutput, *extra):
        """Sequential's backward, with the stages' gradients added sparsely (see the module docstring)."""
        if self.gradInputSkipped:
            return getattr(super(), method)(input, gradOutput, *extra)
        inputs = self._inputs(input)
        sums = self._stage_sums
        if type(sums) is not list or len(sums) != len(self.modules):
            sums = self._stage_sums = [[] for _ in self.modules]
        current = gradOutput
        for i in reversed(range(len(self.modules))):
            stage = self.modules[i]
            if type(stage) is ConcatTable and type(inputs[i]) is list and stage.modules:
                try:
                    current = _stage_gradient(stage, inputs[i], current, method, extra, self._share_gradients,
                                              sums[i])
                except (ValueError, TypeError, RuntimeError, IndexError) as e:
                    if self.output is None:
                        self._need_output()     # backward before forward: say so (as Container._child does)
                    raise type(e)(f"{type(self).__name__} ({i}) -> {e}") from e
            else:
                current = self._child(i, method, inputs[i], current, *extra)
        self.gradInput = current
        return current

    def _all_parameters(self):
        """The graph modules' parameters in nngraph's order, then any other
        the lowered tree holds (a module a user added)."""
        entries, seen, found = [], set(), set()
        for m in self.graph_modules:
            if id(m) in seen:
                continue
            seen.add(id(m))
            for e in m._all_parameters():
                if (id(e[0]), e[1]) not in found:
                    found.add((id(e[0]), e[1]))
                    entries.append(e)
        for e in super()._all_parameters():
            if (id(e[0]), e[1]) not in found:
                found.add((id(e[0]), e[1]))
                entries.append(e)
        return entries

    def _onnx(self, g, x, y):
        """the lowered containers' nodes; where an in-place module changed a
        value read later, the same containers with those readers reading
        the in-place module's output (ONNX values are never changed in
        place: the export computes what the model computes)"""
        if self._value_semantics is not None:
            return g.inner(self, "_value_semantics", x)
        return super()._onnx(g, x, y)

    def replace(self, fn):
        replaced = {}

        def recorded(m):
            new = fn(m)
            replaced[id(m)] = new
            return new
        out = super().replace(recorded)
        self.graph_modules = [replaced.get(id(m), m) for m in self.graph_modules]
        self._share_gradients = self._share_gradients and not any(works_in_place(m) for m in self.modules)
        return out

    def __repr__(self):
        body = super().__repr__()
        modules = len(self.graph_modules)
        kind = "nn.gModule" if self.lua_class is None else f"{self.lua_class} loaded as nn.gModule, its base"
        head = (f"{kind} (an nngraph graph of {self.nNodes} nodes, {modules} module{'s' * (modules != 1)}, "
                f"{self.nInputs} input{'s' * (self.nInputs != 1)} -> {self.nOutputs} output"
                f"{'s' * (self.nOutputs != 1)}; lowered"
                + (f"; its own fields: {', '.join(self.lua_fields)}" if self.lua_fields else "") + ")")
        if body == "nn.Sequential":
            return head
        return head + body[len("nn.Sequential"):]


def refuse_graphs_holding_themselves(value):
    """T7Error when a gModule in value (what load_lua made of a file) holds
    itself through its nodes' modules: a damaged file, whose forward would
    never end."""
    def below(v):
        if isinstance(v, Module):
            return [x for x in vars(v).values() if isinstance(x, (Module, list, tuple, dict))]
        if isinstance(v, dict):
            return list(v.values())
        return list(v) if isinstance(v, (list, tuple)) else []
    graphs, seen, todo = [], set(), [value]
    while todo:
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, gModule):
            graphs.append(v)
        todo.extend(below(v))
    for g in graphs:
        seen, todo = set(), list(g.graph_modules) + list(g.modules)
        while todo:
            v = todo.pop()
            if v is g:
                raise T7Error("nn.gModule: the graph holds itself (a module of one of its nodes contains it)")
            if id(v) not in seen:
                seen.add(id(v))
                todo.extend(below(v))


# ---------------------------------------------------------------- building the records
def _records_from_nodes(inputs, outputs):
    """Records of a graph built in Python, laid out as nngraph lays a
    gModule out: an input node fed the graph's input, split into one entry
    per graph input when there are several."""
    for what, nodes in (("inputs", inputs), ("outputs", outputs)):
        if not nodes:
            raise ValueError(f"nn.gModule: no {what} (give a list of graph nodes)")
        for i, n in enumerate(nodes):
            if not isinstance(n, GraphNode):
                raise TypeError(f"nn.gModule: {what}[{i}] is a {type(n).__name__}, not a graph node (make one "
                                f"with module(...), e.g. x = nn.Identity()())")
        if len({id(n) for n in nodes}) != len(nodes):
            raise ValueError(f"nn.gModule: the same node is given twice in {what}")
    for i, n in enumerate(inputs):
        if n.inputs:
            raise ValueError(f"nn.gModule: inputs[{i}] ({n.describe()}) has inputs of its own; a graph input "
                             f"is a node made with no argument, e.g. nn.Identity()()")
    # every node the outputs depend on, inputs before the nodes that read them (depth first, in order)
    order, state, stack = [], {}, [(n, False) for n in reversed(outputs)]
    while stack:
        node, done = stack.pop()
        if done:
            state[id(node)] = 2
            order.append(node)
            continue
        if state.get(id(node)) == 2:
            continue
        if state.get(id(node)) == 1:
            raise ValueError(f"nn.gModule: the graph has a cycle through {node.describe()}")
        state[id(node)] = 1
        stack.append((node, True))
        stack.extend((i, False) for i in reversed(node.inputs) if state.get(id(i)) != 2)
    index = {id(n): k for k, n in enumerate(order)}
    for i, n in enumerate(inputs):
        if id(n) not in index:
            raise ValueError(f"nn.gModule: inputs[{i}] ({n.describe()}) does not lead to any output")
    records = [_Record(None, [IN], None, "the graph's input node")]
    feed = [0] * len(inputs)
    if len(inputs) > 1:
        records.append(_Record(None, [0], None, f"the split of the graph's {len(inputs)} inputs"))
        feed = []
        for i in range(len(inputs)):
            records.append(_Record(None, [1], i, f"graph input {i}"))
            feed.append(len(records) - 1)
    fed = {id(n): f for n, f in zip(inputs, feed)}
    base = len(records)
    for node in order:
        name = node.describe()
        if id(node) in fed:
            records.append(_Record(node.module, [fed[id(node)]], None, name))
            continue
        if not node.inputs:
            raise ValueError(f"nn.gModule: {name} has no inputs and is not one of the graph's inputs (list it "
                             f"in inputs, or connect it)")
        if node.n_split is not None:
            used = [c for c in node.consumers if id(c) in index]
            if len(used) != node.n_split:
                raise ValueError(f"nn.gModule: {node.n_split - len(used)} of the {node.n_split} outputs of "
                                 f"{name} are unused (nngraph refuses it too)")
        records.append(_Record(node.module, [base + index[id(i)] for i in node.inputs], node.select, name))
    return records, [base + index[id(n)] for n in outputs]


def _items(table):
    """The values of keys 1, 2, ... of a Lua table as read (a LuaTable that
    also has other keys, like nngraph's mapindex), or of a list."""
    if isinstance(table, list):
        return list(table)
    if not isinstance(table, dict):
        return []
    out, i = [], 1
    while float(i) in table:
        out.append(table[float(i)])
        i += 1
    return out


def _what(value):
    return value.class_name if isinstance(value, TorchObject) else type(value).__name__


def _records_from_t7(fields, convert):
    """Records of a gModule as Torch7 saved it: forwardnodes (topological
    order), nodes whose data hold module, mapindex (inputs in order),
    selectindex; innode / outnode."""
    nodes = _items(fields.get("forwardnodes"))
    if not nodes:
        raise T7Error("nn.gModule: the file holds no forwardnodes (not a gModule nngraph saved)")
    datas = []
    for k, node in enumerate(nodes):
        data = node.fields.get("data") if isinstance(node, TorchObject) and isinstance(node.fields, dict) else None
        if not isinstance(data, dict):
            raise T7Error(f"nn.gModule: forwardnodes[{k + 1}] is a {_what(node)} without a data table, "
                          f"not an nngraph.Node")
        datas.append(data)
    where = {id(d): k for k, d in enumerate(datas)}
    if len(where) != len(datas):
        raise T7Error("nn.gModule: forwardnodes lists a node twice")

    def data_of(field, default):
        node = fields.get(field)
        if node is None:         # (not in the file: the first / last of forwardnodes, as nngraph ordered them)
            return default
        data = node.fields.get("data") if isinstance(node, TorchObject) and isinstance(node.fields, dict) else None
        if not isinstance(data, dict):
            raise T7Error(f"nn.gModule: {field} is a {_what(node)} without a data table, not an nngraph.Node")
        if id(data) not in where:
            raise T7Error(f"nn.gModule: {field} is not one of forwardnodes")
        return where[id(data)]

    first = data_of("innode", 0)
    last = data_of("outnode", len(nodes) - 1)
    if first == last:
        raise T7Error("nn.gModule: innode and outnode are the same node")

    def name(k):
        data = datas[k]
        notes = data.get("annotations") if isinstance(data.get("annotations"), dict) else {}
        ident = data.get("forwardNodeId")
        text = f"node {int(ident)}" if isinstance(ident, float) and ident.is_integer() else f"forwardnodes[{k + 1}]"
        module = data.get("module")
        if module is not None:
            text += f" ({_what(module)})"
        if isinstance(notes.get("name"), str):
            text += f" named {notes['name']!r}"
        if isinstance(notes.get("_debugLabel"), str):
            text += f" declared at {notes['_debugLabel']}"
        return text

    def inputs_of(k):
        found = []
        for d in _items(datas[k].get("mapindex")):
            if id(d) not in where:
                raise T7Error(f"nn.gModule: an input of {name(k)} is not one of forwardnodes")
            j = where[id(d)]
            if j >= k or j == last:
                raise T7Error(f"nn.gModule: {name(k)} reads {name(j)}, which does not come before it in "
                              f"forwardnodes (not a topological order)")
            found.append(j)
        if len(set(found)) != len(found):
            raise T7Error(f"nn.gModule: {name(k)} has the same input twice")
        return found

    slot = {}
    records = []
    for k, data in enumerate(datas):
        if k == last:
            continue
        module = data.get("module")
        select = data.get("selectindex")
        if select is not None:
            if isinstance(select, bool) or not isinstance(select, float) or not select.is_integer() or select < 1:
                raise T7Error(f"nn.gModule: {name(k)} has selectindex {select!r}, not a positive whole number")
            select = int(select) - 1
        if k == first:
            ins = [IN]
            if _items(data.get("mapindex")):
                raise T7Error(f"nn.gModule: the input node {name(k)} has inputs")
        else:
            ins = [slot[j] if j in slot else _missing(name, j, k) for j in inputs_of(k)]
            if not ins:
                kind = "an nnop parameter node" if module is not None else "a node fed by nothing"
                raise T7Error(f"nn.gModule: {name(k)} has no inputs ({kind}): nn_legacy lowers graphs fed only "
                              f"by their inputs")
        if module is not None:
            module = convert(module, f"root.{name(k)}")
            if not isinstance(module, Module):
                raise T7Error(f"nn.gModule: the module of {name(k)} is a {_what(module)}, which does not load as "
                              f"an nn_legacy module")
        if select is not None and (module is not None or len(ins) != 1):
            raise T7Error(f"nn.gModule: {name(k)} selects entry {select + 1} but has a module or several inputs")
        slot[k] = len(records)
        records.append(_Record(module, ins, select, name(k)))
    outs = [slot[j] for j in _map_outputs(datas, last, where, name)]
    n_inputs = fields.get("nInputs")
    if isinstance(n_inputs, float) and n_inputs.is_integer() and n_inputs >= 1:
        n_inputs = int(n_inputs)
    else:     # files from before nInputs: what nngraph made of them
        n_inputs = sum(1 for r in records if r.select is not None and records[r.inputs[0]].inputs
                       == [slot[first]]) or 1
    return records, outs, n_inputs


def _missing(name, j, k):
    raise T7Error(f"nn.gModule: {name(k)} reads the output node {name(j)}")


def _map_outputs(datas, last, where, name):
    outs = []
    for d in _items(datas[last].get("mapindex")):
        if id(d) not in where or where[id(d)] == last:
            raise T7Error("nn.gModule: an output of the graph is not one of forwardnodes")
        outs.append(where[id(d)])
    if not outs:
        raise T7Error(f"nn.gModule: the output node {name(last)} has no inputs: the graph has no outputs")
    if len(set(outs)) != len(outs):
        raise T7Error("nn.gModule: the same node is given twice as an output")
    return outs


def _value_semantics(records, outputs):
    """The records with every read of a value that an in-place module
    changed afterwards (the same array, reached through nodes that pass
    their input on) turned into a read of that module's output; (None, None)
    when no read changes.  What the model computes, written with values
    that never change (for ONNX)."""
    alias, latest, out, changed = [], {}, [], False

    def read(v, k):
        if v == IN:
            return v
        w = latest.get(alias[v])
        return w if w is not None and v < w != k else v
    for k, r in enumerate(records):
        ins = [read(v, k) for v in r.inputs]
        changed = changed or ins != r.inputs
        out.append(_Record(r.module, ins, r.select, r.name))
        same = len(r.inputs) == 1 and r.select is None and (
            r.module is None or type(r.module) is Identity or getattr(r.module, "inplace", False) is True)
        a = ("in",) if r.inputs == [IN] and r.module is None else (alias[r.inputs[0]] if same and r.inputs[0] != IN
                                                                    else k)
        alias.append(a)
        if r.module is not None and getattr(r.module, "inplace", False) is True and len(r.inputs) == 1:
            latest[a] = k
    outs = [read(o, len(records)) for o in outputs]
    if not changed and outs == list(outputs):
        return None, None
    return out, outs


# ---------------------------------------------------------------- forward and backward of a stage
# A stage is a ConcatTable whose input is the environment (a list).  Its
# children are expressions, as the lowering makes them: a SelectTable (a
# value kept for later), or a Sequential led by what picks its input from
# the environment (a SelectTable, a NarrowTable, or a ConcatTable of
# expressions), maybe followed by a split's picker (a SelectTable), then
# the node's modules.  gModule runs these shapes itself (the same calls of
# the same modules, the same outputs and gradients, without a Python call
# per selector); anything else in their place (what a user edited in) runs
# through its own methods, as a module reading the environment.
_FAIL = (ValueError, TypeError, RuntimeError, IndexError)   # what the containers name their children in


def _reads(module, n):
    """The entries of an environment of n entries a selector reads, in the
    order of its output: an int for a SelectTable in range, a list for a
    NarrowTable in range; None for anything else."""
    t = type(module)
    if t is SelectTable:
        k = module.index
        return k % n if -n <= k < n else None
    if t is NarrowTable:
        start = module.offset + n if module.offset < 0 else module.offset
        length = n - start + module.length + 1 if module.length < 0 else module.length
        return list(range(start, start + length)) if 0 <= start < n and 1 <= length <= n - start else None
    return None


def _named(container, k, e):
    """e, with the container's name and its child's index in front, as Container._child names it."""
    return type(e)(f"{type(container).__name__} ({k}) -> {_message(container.modules[k], e)}")


def _picker(ms, v):
    """The index a split's picker (ms[1], after the selector) takes from the table v, or None."""
    m = ms[1]
    if type(m) is SelectTable and type(v) is list and -len(v) <= m.index < len(v):
        return m.index % len(v)
    return None


def _output(e, env, n):
    """e.updateOutput(env), for an expression e."""
    t = type(e)
    if t is SelectTable and -n <= e.index < n:       # a kept value
        e.output = v = env[e.index]
        return v
    if t is Sequential and len(e.modules) > 1:
        ms = e.modules
        k = 0
        try:
            m = ms[0]
            if type(m) is SelectTable and -n <= m.index < n:
                m.output = v = env[m.index]
            else:
                v = _picks_output(m, env, n)
            k = 1
            m = ms[1]
            if type(m) is SelectTable and type(v) is list and -len(v) <= m.index < len(v):   # a split's picker
                m.output = v = v[m.index]
                k = 2
            for k in range(k, len(ms)):
                v = ms[k].updateOutput(v)
        except _FAIL as err:
            raise _named(e, k, err) from err
        e.output = v
        return v
    return e.updateOutput(env)


def _picks_output(m, env, n):
    """m.updateOutput(env), for the module leading an expression."""
    t = type(m)
    if t is ConcatTable and m.modules:
        outputs = []
        for c, child in enumerate(m.modules):
            if type(child) is SelectTable and -n <= child.index < n:     # a kept value (as _output)
                child.output = v = env[child.index]
            else:
                try:
                    v = _output(child, env, n)
                except _FAIL as err:
                    raise _named(m, c, err) from err
            outputs.append(v)
        old = m.output      # (same_list: the table handed out before, when it holds the same arrays)
        if type(old) is list and len(old) == len(outputs):
            for a, b in zip(old, outputs):
                if a is not b:
                    break
            else:
                return old
        m.output = outputs
        return outputs
    at = _reads(m, n)
    if type(at) is int:
        m.output = env[at]
        return m.output
    if at is not None:
        m.output = list(env[at[0]:at[-1] + 1])
        return m.output
    return m.updateOutput(env)


# ---------------------------------------------------------------- forward's plan
# What forward does, for a given tree, is the same from call to call: which
# entries each selector takes, which modules run in what order, which
# container's output is set to what.  A _Plan writes that down once as
# straight Python code (one line per module call or output set, no visit
# of the tree), and forward runs it for as long as the tree stays as it was:
# every container the plan looks inside still holds the same children, every
# selector still has its index (plan.fits; a user who edits the tree gets a
# new plan, made while forward runs the stages one by one as before).  What
# depends on the values (the environment's length where a stage's input is
# another module's output, a split's table) is tested where it is used; a
# test that fails hands the rest of the stages to _stages_output.  A module
# that raises gets its error named as the containers would name it.  A plan
# found stale before its first use (a tree edited at every call) is followed
# by _PLAN_AGAIN calls stage by stage before the next one is made.
_PLANS = weakref.WeakKeyDictionary()     # gModule -> its _Plan (nothing is added to the module itself)
_PLAN_AGAIN = 32     # after a plan found stale before its first use, the calls until the next plan is made


class _Plan:
    """The forward of one gModule's tree as it is now (see above).  Made
    from a forward run stage by stage (seen: each stage's input as
    _stages_output saw it); compiled on its first use, so that a tree a
    user edits at every call does not compile at every call."""
    __slots__ = ("top", "objs", "names", "values", "lines", "consts", "run", "fits_code", "usable", "_vars",
                 "_names")

    def __init__(self, g, seen):
        self.top = list(g.modules)
        self.objs, self.names, self.values = [], [], []     # what fits() compares
        self.lines, self.consts = [], {"_FAIL": _FAIL, "_renamed": _renamed, "_PATHS": []}
        self.run = self.fits_code = None
        self.usable = True
        self._emit_stages(g, seen)

    def fits(self, g):
        """Whether g's tree is the one the plan was made for: g's stages,
        and every container the plan looks into, hold the same children
        (a list equal to the one seen, child by child the same objects);
        every selector's index (offset, length) is the object it was.  The
        first time, compared here; then by compiled code, with the plan."""
        try:
            if self.fits_code is not None:
                return self.fits_code(g)
            if not self.usable or g.modules != self.top:
                return False
            for obj, name, value in zip(self.objs, self.names, self.values):
                now = getattr(obj, name)
                if (now != value) if name == "modules" else (now is not value):
                    return False
        except Exception:      # (a child that compares strangely: make a new plan)
            return False
        self._compile()
        return True

    def _compile(self):
        namespace = dict(self.consts)
        namespace["top"] = self.top
        test = ["g.modules == top"]
        for k, (obj, name, value) in enumerate(zip(self.objs, self.names, self.values)):
            namespace[f"w{k}"] = value
            test.append(f"{self._const(obj)}.{name} {'==' if name == 'modules' else 'is'} w{k}")
            namespace[self._const(obj)] = obj
        source = ["def fits(g):", "    return (" + "\n            and ".join(test) + ")"] + self.lines
        exec(compile("\n".join(source), "<gModule forward plan>", "exec"), namespace)
        self.fits_code, self.run = namespace["fits"], namespace["run"]
        self.lines = self.consts = self._names = self.objs = self.names = self.values = None

    # ---- making it
    def _watch(self, obj, name):
        value = getattr(obj, name)
        self.objs.append(obj)
        self.names.append(name)
        self.values.append(list(value) if name == "modules" else value)
        if name != "modules" and type(value) is not int:
            self.usable = False     # (an index set to something else: the stages run one by one, as they can)
        return value

    def _const(self, value):
        name = self._names.get(id(value))
        if name is None:
            name = self._names[id(value)] = f"o{len(self.consts)}"
            self.consts[name] = value
        return name

    def _path(self, path):
        """The number by which the code names path (how an error is named: see _renamed)."""
        self.consts["_PATHS"].append(path)
        return len(self.consts["_PATHS"]) - 1

    def _var(self):
        self._vars += 1
        return f"v{self._vars}"

    def _call(self, target, m, arg, path):
        """target = m.updateOutput(arg); an error it raises is named along path (see _renamed).  An
        Identity's forward is written out (its output is its input), as the selectors' are."""
        if type(m) is Identity:
            self._line(f"{target} = {self._const(m)}.output = {arg}")
            return
        self._line(f"s = {self._path(path)}")
        self._line(f"{target} = {self._const(m)}.updateOutput({arg})")

    def _line(self, text):
        self.lines.append("        " + text)

    def _emit_stages(self, g, seen):
        self._vars, self._names = 0, {}
        self.lines += ["def run(g, x):", "    s = None", "    try:"]
        cur, known = "x", None
        for i, stage in enumerate(self.top):
            if i >= len(seen):
                break       # (a stage a module added while forward ran: the rest runs stage by stage)
            n = seen[i]
            rest = f"return g._stages_output({cur}, {i})"
            if type(stage) is ConcatTable and stage.modules and n is not None:
                if known != n:
                    self._line(f"if type({cur}) is not list or len({cur}) != {n}:")
                    self._line(f"    s = None; {rest}")
                out = self._picks(stage, cur, n, (i, ()))
                known = len(stage.modules)
            else:
                if type(stage) is ConcatTable and stage.modules:
                    self._line(f"if type({cur}) is list:")
                    self._line(f"    s = None; {rest}")
                out = self._var()
                self._line("s = None")
                if type(stage) is Identity:
                    self._line(f"{out} = {self._const(stage)}.output = {cur}")
                else:     # (called directly, its error named as Container._child names it)
                    self._line("try:")
                    self._line(f"    {out} = {self._const(stage)}.updateOutput({cur})")
                    self._line("except _FAIL as err:")
                    self._line(f"    raise g._child_error({i}, 'updateOutput', err) from err")
                known = None
            cur = out
        if len(seen) < len(self.top):
            self._line(f"return g._stages_output({cur}, {len(seen)})")
        self._line(f"return {cur}")
        self.lines += ["    except _FAIL as err:", "        if s is None:", "            raise",
                       "        raise _renamed(g, _PATHS[s], err)"]

    def _output(self, e, env, n, path):
        """_output's work for expression e of env (n entries), as lines; the variable holding e's output."""
        t = type(e)
        if t is SelectTable and -n <= e.index < n:
            return self._select(e, env)
        if t is Sequential and len(e.modules) > 1:
            ms = self._watch(e, "modules")
            i, chain = path
            v = self._picks(ms[0], env, n, (i, chain + ((e, 0),)))     # (a variable of its own)
            m = ms[1]
            if type(m) is SelectTable:      # a split's picker, when its input is a table holding its entry
                k = self._watch(m, "index")
                test = f"len({v}) > {k}" if k >= 0 else f"len({v}) >= {-k}"
                self._line(f"if type({v}) is list and {test}:")
                self._line(f"    {v} = {self._const(m)}.output = {v}[{k}]")
                self._line("else:")
                self._line(f"    s = {self._path((i, chain + ((e, 1),)))}")
                self._line(f"    {v} = {self._const(m)}.updateOutput({v})")
            else:
                self._call(v, m, v, (i, chain + ((e, 1),)))
            for k in range(2, len(ms)):
                self._call(v, ms[k], v, (i, chain + ((e, k),)))
            self._line(f"{self._const(e)}.output = {v}")
            return v
        v = self._var()
        self._call(v, e, env, path)
        return v

    def _select(self, m, env):
        v = self._var()
        self._line(f"{v} = {self._const(m)}.output = {env}[{self._watch(m, 'index')}]")
        return v

    def _picks(self, m, env, n, path):
        """_picks_output's work for m (path: how an error in m's children is named)."""
        t = type(m)
        if t is ConcatTable and m.modules:
            i, chain = path
            outs = []
            for c, child in enumerate(self._watch(m, "modules")):
                outs.append(self._output(child, env, n, (i, chain + ((m, c),))))
            t, name, v = self._var(), self._const(m), self._var()
            same = " and ".join(f"{t}[{k}] is {o}" for k, o in enumerate(outs))
            self._line(f"{t} = {name}.output")
            self._line(f"if type({t}) is list and len({t}) == {len(outs)} and {same}:")
            self._line(f"    {v} = {t}")
            self._line("else:")
            self._line(f"    {v} = {name}.output = [{', '.join(outs)}]")
            return v
        if t is SelectTable:
            self._watch(m, "index")
        elif t is NarrowTable:
            self._watch(m, "offset")
            self._watch(m, "length")
        at = _reads(m, n)
        v = self._var()
        if type(at) is int:
            self._line(f"{v} = {self._const(m)}.output = {env}[{at}]")
        elif at is not None:
            self._line(f"{v} = {self._const(m)}.output = {env}[{at[0]}:{at[-1] + 1}]")
        else:
            self._call(v, m, env, path)
        return v


def _renamed(g, path, err):
    """err, a module's error, named by the containers along path (stage,
    ((container, child index), ...) from the outside in) and by g, as
    _picks_output, _output and updateOutput name it."""
    i, chain = path
    for c, k in reversed(chain):
        named = type(err)(f"{type(c).__name__} ({k}) -> {_message(c.modules[k], err)}")
        named.__cause__ = err
        err = named
    named = type(err)(f"{type(g).__name__} ({i}) -> {err}")
    named.__cause__ = err
    return named


def _plain_like(g, v):
    """g and v are numpy arrays of one shape (the usual case, checked fast)."""
    return type(g) is np.ndarray and type(v) is np.ndarray and g.shape == v.shape and g.dtype.kind in "fc"


def _zeros(b, v):
    """nested_zeros(b, v), numpy's usual case checked fast."""
    if type(b) is np.ndarray and type(v) is np.ndarray and b.shape == v.shape and b.dtype == v.dtype \
            and b.flags.writeable:
        b[...] = 0
        return b
    return nested_zeros(b, v)


_UNSET = object()


def _put(stage, total, slot, g, i, count, buffers, share):
    """Add g, the gradient child i gives, into total[slot], in the order the
    children give them, as ConcatTable sums its children's gradients.  A
    slot only one child writes takes g itself when ``share`` (as nngraph
    passes a single reader's gradient on); else the first gradient is
    copied into the stage's own buffer (``buffers[slot]``, kept from call
    to call) and the others are added into it."""
    t = total[slot]
    if t is _UNSET:
        if share and count[slot] == 1:
            total[slot] = g
            return
        b = buffers[slot]
        if _plain_like(g, b) and b.dtype == g.dtype and b.flags.writeable:
            b[...] = g
        else:
            b = buffers[slot] = nested_copy(b, g)
        total[slot] = b
    elif type(g) is np.ndarray and type(t) is np.ndarray and g.shape == t.shape:
        t += g
    else:
        add_table(stage, t, g, i)


def _count(e, env, n, count, parts):
    """How many gradients e gives each entry of env (count), and each part
    of an entry it reads through a split's picker (parts: entry -> {part: n})."""
    t = type(e)
    if t is SelectTable and -n <= e.index < n:
        count[e.index % n] += 1
        return
    if t is Sequential and len(e.modules) > 1:
        ms = e.modules
        at = _reads(ms[0], n)
        if type(at) is int and type(ms[0]) is SelectTable:
            part = _picker(ms, env[at])
            if part is not None:
                p = parts.setdefault(at, {})
                p[part] = p.get(part, 0) + 1
                return
        _count_picks(ms[0], env, n, count, parts)
        return
    for j in range(n):
        count[j] += 1


def _count_picks(m, env, n, count, parts):
    if type(m) is ConcatTable and m.modules:
        for child in m.modules:
            _count(child, env, n, count, parts)
        return
    at = _reads(m, n)
    if type(at) is int:
        count[at] += 1
    elif at is not None:
        for j in at:
            count[j] += 1
    else:
        for j in range(n):
            count[j] += 1


class _Backward:
    """One stage's backward: where the gradients go (see _stage_gradient)."""
    __slots__ = ("stage", "env", "n", "method", "extra", "total", "count", "buffers", "share", "split", "i")

    def put(self, j, g):
        if j in self.split:     # an entry read through pickers: part by part
            parts = self.total[j]
            if type(g) is not list or len(g) != len(parts):
                raise ValueError(f"{type(self.stage).__name__}: gradInput of module ({self.i}) is {show_layout(g)} "
                                 f"for entry {j}, which is {show_layout(self.env[j])}")
            for s, gs in enumerate(g):
                _put(self.stage, parts, s, gs, self.i, self.split[j], self.buffers[j], self.share)
            return
        _put(self.stage, self.total, j, g, self.i, self.count, self.buffers, self.share)

    def put_all(self, g, who):
        g = check_length(who, g, self.n, f"gradInput of module ({self.i})", "the input")
        for j in range(self.n):
            self.put(j, g[j])

    def expression(self, e, g):
        """Back through expression e, given the gradient g of its output."""
        env, n = self.env, self.n
        t = type(e)
        if t is SelectTable and -n <= e.index < n:      # a kept value
            j = e.index % n
            if not _plain_like(g, env[j]):
                try:
                    check_nested_like(e, g, env[j])
                except ValueError as err:
                    raise ValueError(_message(e, err)) from err
            self.put(j, g)
            return
        if t is Sequential and len(e.modules) > 1:
            ms = e.modules
            at = _reads(ms[0], n)
            part = None
            if type(at) is int and type(ms[0]) is SelectTable and at in self.split:
                part = _picker(ms, env[at])
            first = 1 if part is None else 2
            k = len(ms) - 1
            try:
                for k in range(len(ms) - 1, first - 1, -1):
                    g = getattr(ms[k], self.method)(ms[k - 1].output, g, *self.extra)
                if part is not None:
                    v = env[at][part]
                    if not _plain_like(g, v):
                        k = 1
                        try:
                            check_nested_like(ms[1], g, v)
                        except _FAIL as err:
                            raise type(err)(_message(ms[1], err)) from err
                    _put(self.stage, self.total[at], part, g, self.i, self.split[at], self.buffers[at], self.share)
                    return
                k = 0
                self.picks(ms[0], g)
            except _FAIL as err:
                raise _named(e, k, err) from err
            return
        self.put_all(getattr(e, self.method)(env, g, *self.extra), e)

    def picks(self, m, g):
        """Back through the module leading an expression (its output's gradient g)."""
        if type(m) is ConcatTable and m.modules:
            g = check_length(m, g, len(m.modules), "gradOutput", "the output")
            for c, child in enumerate(m.modules):
                try:
                    self.expression(child, g[c])
                except _FAIL as err:
                    raise _named(m, c, err) from err
            return
        at = _reads(m, self.n)
        if type(at) is int:
            self.put(at, g)
        elif at is not None:
            g = check_length(m, g, len(at), "gradOutput", "the output")
            for j, gj in zip(at, g):
                self.put(j, gj)
        else:
            self.put_all(getattr(m, self.method)(self.env, g, *self.extra), m)


def _stage_gradient(stage, env, gradOutput, method, extra, share, buffers):
    """ConcatTable.updateGradInput / backward of a stage whose input is the
    environment (a list): the gradient of each expression goes straight
    into the entries it reads (see _put), and the entries no child reads
    are zeros.  A kept value's gradient is its gradOutput; an expression's
    modules run backward, and their gradInput is the gradient of the
    entries (or of the part of a split entry) it read; anything else gives
    a gradient laid out as the environment, added entry by entry.
    buffers: the stage's own arrays (a list, filled here)."""
    children = stage.modules
    if type(gradOutput) is not list or len(gradOutput) != len(children):
        gradOutput = check_length(stage, gradOutput, len(children), "gradOutput", "the output")
    n = len(env)
    if len(buffers) != n:
        buffers[:] = [None] * n
    count, parts = [0] * n, {}
    for child in children:
        _count(child, env, n, count, parts)
    b = _Backward()
    b.stage, b.env, b.n, b.method, b.extra, b.share, b.count, b.buffers = \
        stage, env, n, method, extra, share, count, buffers
    total = b.total = [_UNSET] * n
    split = b.split = {}      # entry -> how many children write each of its parts
    for j, p in parts.items():
        m = len(env[j])
        if type(buffers[j]) is not list or len(buffers[j]) != m:
            buffers[j] = [None] * m
        total[j] = [_UNSET] * m
        split[j] = [p.get(s, 0) + count[j] for s in range(m)]   # (count[j]: gradients of the whole entry)
    for i, child in enumerate(children):
        b.i = i
        try:
            b.expression(child, gradOutput[i])
        except _FAIL as err:
            raise _named(stage, i, err) from err
    for j in range(n):
        if j in split:
            t = total[j]
            for k in range(len(t)):
                if t[k] is _UNSET:
                    t[k] = buffers[j][k] = _zeros(buffers[j][k], env[j][k])
        elif total[j] is _UNSET:
            total[j] = buffers[j] = _zeros(buffers[j], env[j])
    stage.gradInput = total
    return total


# ---------------------------------------------------------------- the lowering proper
def _unpacked_inputs(records, consumers, outputs):
    """(skipped, given): for a graph of several inputs laid out as nngraph
    lays it (an input node, its split, one picker per input), the input and
    split records (not computed) and the pickers in input order (their values
    are the entries of the table forward gets); else (set(), [])."""
    starts = [k for k, r in enumerate(records) if r.inputs == [IN]]
    if len(starts) != 1:
        return set(), []
    r0 = starts[0]
    if records[r0].module is not None or records[r0].select is not None or len(consumers[r0]) != 1:
        return set(), []
    r1 = consumers[r0][0]
    split = records[r1]
    picks = consumers[r1]
    if split.module is not None or split.select is not None or len(split.inputs) != 1 or not picks \
            or r0 in outputs or r1 in outputs \
            or any(records[p].select is None or records[p].inputs != [r1] for p in picks):
        return set(), []
    picks = sorted(picks, key=lambda p: records[p].select)
    if [records[p].select for p in picks] != list(range(len(picks))):
        return set(), []
    return {r0, r1}, picks


def _stages(kept, heads, outputs, strict, given=()):
    """The kept nodes in stages, none reading a value made in its own stage,
    and the last stage reading each value (len(stages) for the outputs).
    With an in-place module: runs of the nodes in order (nngraph's order
    exactly).  Else the cheapest of that, each node as early as its inputs
    allow, and each as late as its readers allow, by what backward pays for
    the plumbing: every selector's gradient is laid out as the whole
    environment (zeros but for its entry), so a stage costs its children
    times the values it reads from."""
    if not kept:
        return [], {o: 0 for o in outputs}
    in_order, made, n = {IN: -1, **{v: -1 for v in given}}, set(), 0
    for m in kept:
        if any(v in made for v in heads[m]):
            n, made = n + 1, set()
        in_order[m] = n
        made.add(m)
    plans = [in_order]
    if not strict:
        early = {IN: -1, **{v: -1 for v in given}}
        for m in kept:
            early[m] = 1 + max(early[v] for v in heads[m])
        last = max(early[m] for m in kept)
        readers = {}
        for m in kept:
            for v in heads[m]:
                readers.setdefault(v, []).append(m)
        late = dict(early)
        for m in reversed(kept):
            late[m] = min([late[r] - 1 for r in readers.get(m, ())] + [last])
        plans += [early, late]
    best = None
    for group_of in plans:
        groups = [[] for _ in range(1 + max(group_of[m] for m in kept))]
        for m in kept:
            groups[group_of[m]].append(m)
        last_use = {}
        for m in kept:
            for v in heads[m]:
                last_use[v] = max(last_use.get(v, -1), group_of[m])
        for o in outputs:
            last_use[o] = len(groups)
        cost, live = 0, max(1, len(given))
        for g, group in enumerate(groups):
            keep = sum(1 for v, end in last_use.items() if end > g and group_of.get(v, -1) < g)
            cost += (keep + len(group)) * live
            live = keep + len(group)
        if best is None or cost < best[0]:
            best = (cost, groups, last_use)
    return best[1], best[2]


def _lower(records, outputs, strict):
    """The top-level modules (a Sequential's children) computing the graph."""
    n = len(records)
    consumers = [[] for _ in range(n)]
    for k, r in enumerate(records):
        for j in r.inputs:
            if j != IN:
                consumers[j].append(k)
    outputs_set = set(outputs)
    # several inputs: the environment starts as the input table itself, nngraph's split of it not made
    skipped, given = _unpacked_inputs(records, consumers, outputs_set)
    # fused[k]: k's value is computed inside the expression of its one reader: a chain, and without
    # in-place modules (where the order of the nodes cannot matter) a tree, a node of several inputs
    # computing those read by it alone
    fused = [k not in outputs_set and len(consumers[k]) == 1
             and (not strict or (consumers[k][0] == k + 1 and len(records[k + 1].inputs) == 1))
             and k not in skipped and k not in given for k in range(n)]
    kept = [k for k in range(n) if not fused[k] and k not in skipped and k not in given]
    chains, trees, heads = {}, {}, {}

    def chain_of(m):
        chain = [m]
        while len(records[chain[-1]].inputs) == 1 and records[chain[-1]].inputs[0] != IN \
                and fused[records[chain[-1]].inputs[0]]:
            chain.append(records[chain[-1]].inputs[0])
        chains[m] = chain[::-1]
        ins = records[chain[-1]].inputs
        trees[m] = len(ins) > 1 and any(v != IN and fused[v] for v in ins)
        read = []
        for v in ins:
            for h in (heads_of(v) if trees[m] and v != IN and fused[v] else [v]):
                if h not in read:
                    read.append(h)
        return read

    def heads_of(m):
        if m not in heads:
            heads[m] = chain_of(m)
        return heads[m]

    for m in kept:
        heads_of(m)
    groups, last_use = _stages(kept, heads, outputs, strict, given)
    ours = set()     # the Sequentials made here (spliced into their parent; a user's are left alone)

    def seq(parts):
        parts = [p for p in parts if p is not None]
        if not parts:
            return Identity()
        if len(parts) == 1:
            return parts[0]
        s = Sequential()
        for p in parts:
            if id(p) in ours:
                s.modules.extend(p.modules)
            else:
                s.add(p)
        ours.add(id(s))
        return s

    def gather(env, values):
        if len(env) == 1 and env is not given:
            return None       # one input, the bare environment itself
        at = [env.index(v) for v in values]
        if len(at) == 1:
            return SelectTable(at[0])
        if at == list(range(len(env))) and env is not given:    # (not the user's table: it may hold more)
            return None
        if at == list(range(at[0], at[0] + len(at))):
            return NarrowTable(at[0], len(at))
        return ConcatTable(*[SelectTable(j) for j in at])

    def expression(env, m):
        """m's chain of modules, fed by its inputs picked from env, or (a tree) computed from env."""
        ins = records[chains[m][0]].inputs
        if trees[m]:
            bare = len(env) == 1 and env is not given
            picks = ConcatTable(*[expression(env, v) if v != IN and fused[v] else
                                  Identity() if bare else SelectTable(env.index(v)) for v in ins])
        else:
            picks = gather(env, ins)
        return seq([picks] + [step(records[k]) for k in chains[m]])

    def step(r):
        if r.select is not None:
            return SelectTable(r.select)
        return r.module

    stages, env = [], given or [IN]
    for end, group in enumerate(groups):
        keep = [v for v in env if last_use.get(v, -1) > end]
        children = [Identity() if len(env) == 1 and env is not given else SelectTable(env.index(v)) for v in keep]
        children += [expression(env, m) for m in group]
        env = keep + group
        stages.append(children[0] if len(children) == 1 else ConcatTable(*children))
    if len(outputs) == 1 and env is given:
        stages.append(SelectTable(env.index(outputs[0])))
    elif len(outputs) > 1 and (env != outputs or env is given):
        stages.append(ConcatTable(*[SelectTable(env.index(o)) for o in outputs]))
    top = seq(stages)
    return list(top.modules) if id(top) in ours else [top]
