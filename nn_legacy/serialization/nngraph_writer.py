"""save_lua of an ``nn.gModule``: the node graph nngraph's ``gModule:__init__``
would have made (torch/nngraph gmodule.lua, node.lua; torch/graph), rebuilt
from the lowered containers.

A gModule holds no node graph: it was lowered into containers, which a user
may have edited since.  The graph is found again by running those
containers *symbolically*: a value is a node (what a node of the graph
outputs) or a list of values (a table), and

- Sequential runs its children in turn, ConcatTable gives the list of its
  children's values, ParallelTable child i's value of entry i, Identity its
  value, SelectTable and NarrowTable an entry or a run of entries of a list;
- every other module (and every module the graph lists in
  ``graph_modules``, whatever its class: ``nn.Identity()()``'s inputs, a
  user's SelectTable, a nested gModule) becomes one node reading the value
  it is given: a node alone, or a list of nodes (nngraph gives several
  inputs as a table in order, one input unwrapped);
- entry i of a node's output (a SelectTable given a node) becomes nngraph's
  ``split(n)`` (a node holding ``nSplitOutputs`` and a node per entry with
  ``selectindex``) when entries 0..n-1 of that output are all read, as
  nngraph required of a split (and nngraph checks that the table has n
  entries); otherwise (some entries unread, a negative index) a node of
  ``nn.SelectTable``;
- a table built of nodes (a list handed on as an argument or an output)
  becomes a node without a module reading them (it passes its input table
  on), a table of one entry a node of ``nn.ConcatTable(nn.Identity())``
  (nngraph's JustTable: a node with one input gets it unwrapped), and a
  node read twice by one reader is read the second time through a node
  without a module (nngraph refuses the same input twice).

Nodes are written in ``forwardnodes`` in the order the containers run
them, so nngraph runs the modules in the lowered model's order: a value an
in-place module changes is seen changed by exactly the readers that see it
changed here (values pass by reference in both).  ``backwardnodes`` is that
order reversed.  ``modules`` lists ``graph_modules`` first (the order
``parameters()`` flattens in, so a flat parameter vector keeps its
meaning), then the modules of the nodes made here.

Refused, with a TypeError naming the container or module: a ParallelTable,
SelectTable or NarrowTable that does not fit the list it is given, an empty
table given to a module, the same module object at two nodes, a graph input
no output depends on (nngraph's backward needs a gradient for every input),
and a module whose output no output depends on when it holds parameters or
works in place (dropping it would change what Lua trains or computes; other
such modules are left out, as nngraph leaves out what does not reach its
output)."""
from .._helpers.graph_nodes import works_in_place
from .._helpers.lua import TorchObject
from ..ConcatTable import ConcatTable
from ..Identity import Identity
from ..NarrowTable import NarrowTable
from ..ParallelTable import ParallelTable
from ..SelectTable import SelectTable
from ..Sequential import Sequential

_PLUMBING = (Sequential, ConcatTable, ParallelTable, SelectTable, NarrowTable, Identity)


class _Node:
    """A node being built: module (or None), its inputs (nodes, in order),
    selectindex (0-based) or nSplitOutputs, and where it came from."""
    __slots__ = ("module", "inputs", "select", "n_split", "label", "pick_of")

    def __init__(self, module, inputs, label, select=None, n_split=None, pick_of=None):
        self.module, self.inputs, self.label = module, list(inputs), label
        self.select, self.n_split, self.pick_of = select, n_split, pick_of


def _has_parameters(module):
    try:
        return bool(module.parameters()[0])
    except (AttributeError, TypeError, ValueError):
        return False


class _Walk:
    def __init__(self, g):
        self.g = g
        self.listed = {id(m) for m in g.graph_modules}
        self.nodes = []          # in the order the containers run them
        self.applied = {}        # id(module) -> where it was applied
        self.picks = {}          # (id(node), entry) -> its pick node

    def new(self, module, inputs, label, **kw):
        n = _Node(module, inputs, label, **kw)
        self.nodes.append(n)
        return n

    # ------------------------------------------------------------ the symbolic run
    def run(self, m, v, where):
        t = type(m)
        if id(m) in self.listed or t not in _PLUMBING:
            return self.apply(m, v, where)
        if t is Identity:
            return v
        if t is Sequential:
            for i, child in enumerate(m.modules):
                v = self.run(child, v, f"{where}.modules[{i}]")
            return v
        if t is ConcatTable:
            return [self.run(child, v, f"{where}.modules[{i}]") for i, child in enumerate(m.modules)]
        if t is ParallelTable:
            if not isinstance(v, list) or len(v) != len(m.modules):
                raise TypeError(f"save_lua: {where} (nn.ParallelTable of {len(m.modules)} modules) is given "
                                f"{self.shape(v)}, not a table of {len(m.modules)} entries the graph can name: "
                                f"nngraph's node graph cannot express it")
            return [self.run(child, x, f"{where}.modules[{i}]") for i, (child, x) in enumerate(zip(m.modules, v))]
        if t is SelectTable:
            if isinstance(v, list):
                if not -len(v) <= m.index < len(v):
                    raise TypeError(f"save_lua: {where} (nn.SelectTable({m.index})) is given a table of {len(v)} "
                                    f"entries: no such entry")
                return v[m.index]
            return self.pick(v, m.index, where)
        # NarrowTable
        if not isinstance(v, list):
            return self.apply(m, v, where)
        n = len(v)
        start = m.offset + n if m.offset < 0 else m.offset
        length = n - start + m.length + 1 if m.length < 0 else m.length
        if not (0 <= start < n and 1 <= length <= n - start):
            raise TypeError(f"save_lua: {where} (nn.NarrowTable({m.offset}, {m.length})) is given a table of {n} "
                            f"entries: the run it takes is not there")
        return v[start:start + length]

    @staticmethod
    def shape(v):
        return f"a table of {len(v)} entries" if isinstance(v, list) else "one value (a node's output)"

    def pick(self, node, index, where):
        if index < 0:    # (nngraph's split counts from the front: a SelectTable node)
            return self.apply(SelectTable(index), node, where)
        key = (id(node), index)
        if key not in self.picks:
            self.picks[key] = self.new(None, [node], f"{where}: entry {index}", select=index, pick_of=node)
        return self.picks[key]

    def apply(self, m, v, where):
        if id(m) in self.applied:
            raise TypeError(f"save_lua: the same {type(m).__name__} object is the module of two nodes ("
                            f"{self.applied[id(m)]} and {where}): nngraph runs a module once per node and its "
                            f"output buffer holds one value; clone it")
        self.applied[id(m)] = where
        label = f"{where} ({type(m).__name__})"
        if isinstance(v, list):
            if not v:
                raise TypeError(f"save_lua: {label} is given an empty table, which no nngraph node can give")
            ins = self.distinct([self.as_node(x, where) for x in v], where)
            if len(ins) == 1:      # one input is given unwrapped: the table {x} is a node of its own
                ins = [self.new(ConcatTable(Identity()), ins, f"{where}: the table of one entry")]
        else:
            ins = [v]
        return self.new(m, ins, label)

    def as_node(self, v, where):
        """A node whose output is v (a table built of nodes is a node of its own)."""
        if isinstance(v, _Node):
            return v
        if not v:
            raise TypeError(f"save_lua: {where} makes an empty table, which no nngraph node can give")
        ins = self.distinct([self.as_node(x, where) for x in v], where)
        if len(ins) == 1:
            return self.new(ConcatTable(Identity()), ins, f"{where}: a table of one entry")
        return self.new(None, ins, f"{where}: a table of {len(ins)} entries")

    def distinct(self, nodes, where):
        """nodes, a node met again read through a node without a module (nngraph: one input once)."""
        seen, out = set(), []
        for n in nodes:
            if id(n) in seen:
                n = self.new(None, [n], f"{where}: the same value again")
            seen.add(id(n))
            out.append(n)
        return out


def node_graph(g, key):
    """The fields nngraph's gModule held for g (a gModule): forwardnodes,
    backwardnodes, fg, bg, innode, outnode, nInputs, modules, verbose; as
    the writer's values (TorchObjects, dicts, the modules themselves; a Lua
    table used as a key is key(table): t7_writer's Key)."""
    w = _Walk(g)
    innode = w.new(None, [], "the graph's input node")
    if g.nInputs > 1:
        middle = w.new(None, [innode], "the split of the graph's inputs", n_split=g.nInputs)
        value = [w.new(None, [middle], f"graph input {i}", select=i) for i in range(g.nInputs)]
        fixed = {id(middle)} | {id(n) for n in value}
    else:
        value, fixed = innode, set()
    out = value
    for i, stage in enumerate(g.modules):
        out = w.run(stage, out, f"gModule.modules[{i}]")
    outputs = w.distinct([out] if isinstance(out, _Node) else
                         [w.as_node(out, "the graph's output")] if len(out) == 1 else
                         [w.as_node(x, f"the graph's output {i}") for i, x in enumerate(out)], "the graph's outputs")
    outnode = _Node(None, outputs, "the graph's output node")
    nodes = _live(w.nodes, outnode, fixed)
    nodes = _splits(nodes)
    # nngraph's backward takes the input's gradient from one node: the input node is read by one node
    readers = [n for n in nodes if innode in n.inputs] + ([outnode] if innode in outnode.inputs else [])
    if len(readers) != 1:
        one = _Node(None, [innode], "the graph's input")
        for n in readers:
            n.inputs = [one if i is innode else i for i in n.inputs]
        nodes.insert(1, one)
    return _lua_fields(g, nodes + [outnode], innode, outnode, key)


def _live(nodes, outnode, fixed):
    """The nodes the outputs depend on; what else ran is left out, unless
    leaving it out changes what Lua computes or trains (refused)."""
    live, todo = set(), [outnode]
    while todo:
        n = todo.pop()
        for i in n.inputs:
            if id(i) not in live:
                live.add(id(i))
                todo.append(i)
    for n in nodes:
        if id(n) in live or id(n) in fixed:
            continue
        if n.module is not None and (works_in_place(n.module) or _has_parameters(n.module)):
            why = "works in place" if works_in_place(n.module) else "holds parameters"
            raise TypeError(f"save_lua: {n.label}: no output of the graph depends on this module's output, and it "
                            f"{why}: nngraph's graph would leave it out (nngraph runs only what reaches an output)")
    for n in nodes:
        if (id(n) in fixed and n.select is not None or n is nodes[0] and not fixed) and id(n) not in live:
            which = f"input {n.select}" if n.select is not None else "the input"
            raise TypeError(f"save_lua: {which} of the graph is read by nothing an output depends on: "
                            f"nngraph's backward needs a gradient for every input")
    return [n for n in nodes if id(n) in live or n is nodes[0] or id(n) in fixed]


def _splits(nodes):
    """Entry picks of a node's output: split(n) when entries 0..n-1 are all
    read, else nodes of nn.SelectTable."""
    picked = {}
    for n in nodes:
        if n.pick_of is not None:
            picked.setdefault(id(n.pick_of), []).append(n)
    out = []
    for n in nodes:
        out.append(n)
        picks = picked.get(id(n))
        if not picks:
            continue
        entries = sorted(p.select for p in picks)
        if entries == list(range(len(entries))) and len(entries) > 1:
            middle = _Node(None, [n], f"split({len(entries)}) of {n.label}", n_split=len(entries))
            out.append(middle)
            for p in picks:
                p.inputs = [middle]
        else:
            for p in picks:
                p.module, p.select = SelectTable(p.select), None
    return out


def _object(class_name, fields):
    obj = TorchObject(class_name, 1)
    obj.fields = fields
    return obj


def _lua_fields(g, nodes, innode, outnode, Key):
    """The Lua objects of the graph (see node_graph)."""
    datas = {}
    for n in nodes:
        d = {"annotations": {"_debugLabel": f"[nn_legacy save_lua]: {n.label}"}}
        if n.module is not None:
            d["module"] = n.module
        if n.select is not None:
            d["selectindex"] = n.select + 1
        if n.n_split is not None:
            d["nSplitOutputs"] = n.n_split
        if n is innode or n is outnode or n.select is not None:
            d["input"] = {}
        datas[id(n)] = d
    for n in nodes:
        mapindex = {}
        for k, i in enumerate(n.inputs):
            mapindex[k + 1] = datas[id(i)]
            mapindex[Key(datas[id(i)])] = k + 1
        datas[id(n)]["mapindex"] = mapindex
    # the backward graph, breadth first from the output node (graph.Node:graph()); ids in that order
    order, edges, todo, seen = [outnode], [], [outnode], {id(outnode)}
    while todo:
        n = todo.pop(0)
        for i in n.inputs:
            edges.append((n, i))
            if id(i) not in seen:
                seen.add(id(i))
                order.append(i)
                todo.append(i)
    ids = {id(n): k + 1 for k, n in enumerate(order)}
    bg = {id(n): _object("nngraph.Node", {}) for n in order}
    fg = {id(n): _object("nngraph.Node", {}) for n in order}
    readers = {id(n): [] for n in order}
    for a, b in edges:
        if a not in readers[id(b)]:
            readers[id(b)].append(a)

    def children(objs, kids):
        out = {}
        for k, n in enumerate(kids):
            out[k + 1] = objs[id(n)]
            out[Key(objs[id(n)])] = k + 1
        return out
    for n in order:
        d = datas[id(n)]
        d["forwardNodeId"] = ids[id(n)]
        d["reverseMap"] = {Key(bg[id(r)]): True for r in readers[id(n)]}
        for objs, kids in ((bg, n.inputs), (fg, readers[id(n)])):
            objs[id(n)].fields.update({"data": d, "id": ids[id(n)], "children": children(objs, kids),
                                       "visited": False, "marked": False})

    def graph(objs, pairs):
        listed, es = {}, {}
        for k, n in enumerate(order):
            listed[k + 1] = objs[id(n)]
            listed[Key(objs[id(n)])] = k + 1
        for k, (a, b) in enumerate(pairs):
            e = _object("graph.Edge", {"from": objs[id(a)], "to": objs[id(b)]})
            es[k + 1] = e
            es[Key(e)] = k + 1
        return _object("graph.Graph", {"nodes": listed, "edges": es})
    if len(order) != len(nodes):
        raise AssertionError("save_lua: a node of the graph is not reached from its output node")
    in_nodes = [n.module for n in nodes if n.module is not None]
    at = {id(m) for m in in_nodes}
    modules = list({id(m): m for m in g.graph_modules if id(m) in at}.values())
    listed = {id(m) for m in modules}
    modules += [m for m in in_nodes if id(m) not in listed]
    return {"forwardnodes": {k + 1: fg[id(n)] for k, n in enumerate(nodes)},
            "backwardnodes": {k + 1: bg[id(n)] for k, n in enumerate(reversed(nodes))},
            "innode": fg[id(innode)], "outnode": bg[id(outnode)],
            "fg": graph(fg, [(b, a) for a, b in edges]), "bg": graph(bg, edges),
            "modules": {k + 1: m for k, m in enumerate(modules)},
            "nInputs": g.nInputs, "verbose": False}
