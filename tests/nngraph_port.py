"""Test-only: a port of nngraph's graph construction (torch/nngraph node.lua,
gmodule.lua; torch/graph Node.lua / init.lua) that builds the Torch7 objects
a saved ``nn.gModule`` holds, to write with t7_writer; and an independent
evaluator that runs such a graph the way gmodule.lua does (forward in
forwardnodes order with per-node input lists, backward in reverse with the
gradients of a node summed over its readers) over numpy formulas of the
modules, reading their raw Torch7 fields.

    x = node(F.obj("Identity"))                # nn.Identity()()
    h = node(F.linear(W, b), x)                # nn.Linear(...)(x)
    a, b = split(node(F.obj("SplitTable", dimension=2.0), h), 2)
    g = Graph([x], [a, b])                     # nn.gModule({x}, {a, b})
    g.t7()                                     # the T7Object torch.save wrote
    forward(g, x), backward(g, x, gradOutput)  # nngraph's numbers

Nothing here imports nn_legacy: the evaluator is the reference the lowered
model is compared against."""
import numpy as np

from t7_writer import Key, T7Object


class Node:
    """nngraph.Node: data (a Lua table shared by the forward and backward
    graphs' node objects), children (in the graph as built: the inputs)."""

    def __init__(self, data):
        self.data = data
        data.setdefault("annotations", {})
        data.setdefault("mapindex", {})
        self.consumers = []          # reverseMap, written once the node objects exist
        self.children = []
        self.sub = None              # a nested graph's Graph (data.module holds its T7Object)

    def add(self, child, domap=False):
        if child not in self.children:
            self.children.append(child)
        if domap:
            mapindex = self.data["mapindex"]
            n = sum(1 for k in mapindex if isinstance(k, int)) + 1
            assert all(v is not child.data for k, v in mapindex.items() if isinstance(k, int)), "same input twice"
            mapindex[n] = child.data
            mapindex[Key(child.data)] = n
            child.consumers.append(self)

    def inputs(self):
        m = self.data["mapindex"]
        return [m[i] for i in range(1, 1 + sum(1 for k in m if isinstance(k, int)))]


def node(module=None, *inputs, label=None):
    """module(inputs...): a node whose data holds module (a T7Object or a Graph)."""
    n = Node({"module": module.t7() if isinstance(module, Graph) else module})
    n.sub = module if isinstance(module, Graph) else None
    n.data["annotations"]["_debugLabel"] = label or f"[test]:{len(inputs)}_"
    for i in inputs:
        n.add(i, True)
    return n


def split(n, count):
    """node:split(count): a node without module holding nSplitOutputs, and
    count nodes with selectindex 1..count; split(1) is a JustElement node."""
    if count == 1:
        return node(T7Object("nngraph.JustElement", {"gradInput": {}, "train": True}), n)
    label = n.data["annotations"].get("_debugLabel", "")
    mnode = Node({"nSplitOutputs": count, "annotations": {"_debugLabel": label + " split at [test]-mnode"}})
    mnode.add(n, True)
    out = []
    for i in range(1, count + 1):
        s = Node({"selectindex": i, "input": {}, "annotations": {"_debugLabel": f"{label}-{i}"}})
        s.add(mnode, True)
        out.append(s)
    return out


class Graph:
    """nn.gModule(inputs, outputs), as gmodule.lua builds it."""

    def __init__(self, inputs, outputs, with_modules=True, with_n_inputs=True, extra=None):
        self.outnode = Node({"input": {}})
        for o in outputs:
            self.outnode.add(o, True)
        self.innode = Node({"input": {}})
        if len(inputs) == 1:
            inputs[0].add(self.innode, True)
        else:
            for i, s in zip(inputs, split(self.innode, len(inputs))):
                assert not i.children, "an input should have no inputs"
                i.add(s, True)
        self.n_inputs = len(inputs)
        # the backward graph: breadth first from the output node (graph.Node:graph())
        self.bg_nodes, self.bg_edges, todo = [self.outnode], [], [self.outnode]
        while todo:
            n = todo.pop(0)
            for c in n.children:
                self.bg_edges.append((n, c))
                if c not in self.bg_nodes:
                    self.bg_nodes.append(c)
                    todo.append(c)
        # topological order: depth first from the output node over the inputs, post-order (Graph:topsort)
        order, seen = [], set()

        def visit(n):
            if id(n) in seen:
                return
            seen.add(id(n))
            for c in n.children:
                visit(c)
            order.append(n)
        visit(self.outnode)
        self.order = order                     # forwardnodes' data order: innode first, outnode last
        for n in order:
            if "nSplitOutputs" in n.data:
                used = [c for c in n.consumers if id(c) in seen]
                assert len(used) == n.data["nSplitOutputs"], "unused split outputs"
        self.with_modules, self.with_n_inputs, self.extra = with_modules, with_n_inputs, extra or {}
        self._t7 = None

    def modules(self):
        return [n.data["module"] for n in self.order if n.data.get("module") is not None]

    def t7(self):
        """The nn.gModule object as torch.save wrote it (built once: nested graphs are shared)."""
        if self._t7 is not None:
            return self._t7
        bg = {id(n): T7Object("nngraph.Node", {}) for n in self.bg_nodes}
        fg = {id(n): T7Object("nngraph.Node", {}) for n in self.bg_nodes}
        ids = {id(n): i + 1 for i, n in enumerate(self.bg_nodes)}
        consumers = {id(n): [] for n in self.bg_nodes}
        for a, b in self.bg_edges:
            consumers[id(b)].append(a)

        def children(objs, nodes):
            out = {}
            for i, n in enumerate(nodes):
                out[i + 1] = objs[id(n)]
                out[Key(objs[id(n)])] = i + 1
            return out
        for n in self.bg_nodes:
            n.data["forwardNodeId"] = float(ids[id(n)])
            n.data["reverseMap"] = {Key(bg[id(c)]): True for c in n.consumers if id(c) in bg}
            for objs, kids in ((bg, n.children), (fg, consumers[id(n)])):
                objs[id(n)].fields.update({"data": n.data, "id": float(ids[id(n)]), "children": children(objs, kids),
                                           "visited": False, "marked": False})

        def graph(objs, edges):
            nodes = {}
            for i, n in enumerate(self.bg_nodes):
                nodes[i + 1] = objs[id(n)]
                nodes[Key(objs[id(n)])] = i + 1
            es = {}
            for i, (a, b) in enumerate(edges):
                e = T7Object("graph.Edge", {"from": objs[id(a)], "to": objs[id(b)]})
                es[i + 1] = e
                es[Key(e)] = i + 1
            return T7Object("graph.Graph", {"nodes": nodes, "edges": es})
        fields = {"forwardnodes": {i + 1: fg[id(n)] for i, n in enumerate(self.order)},
                  "backwardnodes": {i + 1: bg[id(n)] for i, n in enumerate(reversed(self.order))},
                  "innode": fg[id(self.innode)], "outnode": bg[id(self.outnode)],
                  "bg": graph(bg, self.bg_edges), "fg": graph(fg, [(b, a) for a, b in self.bg_edges]),
                  "verbose": False, "train": True, "_type": "torch.DoubleTensor", "output": np.zeros(0),
                  "gradInput": np.zeros(0)}
        if self.with_modules:
            fields["modules"] = {i + 1: m for i, m in enumerate(self.modules())}
        if self.with_n_inputs:
            fields["nInputs"] = float(self.n_inputs)
        fields.update(self.extra)
        self._t7 = T7Object("nn.gModule", fields)
        return self._t7


# ---------------------------------------------------------------- the evaluator (gmodule.lua's way)
def _mapindex(data, of):
    m = data["mapindex"]
    for k, v in m.items():
        if isinstance(k, int) and v is of:
            return k
    raise AssertionError("not an input")


class Run:
    """One forward (and backward) of a Graph; grads: id(module T7Object) ->
    {field: accumulated gradient}."""

    def __init__(self, graph, grads=None):
        self.g = graph
        self.grads = {} if grads is None else grads
        self.inputs, self.outputs, self.subruns = {}, {}, {}

    def forward(self, input):
        g = self.g
        self.inputs = {id(g.innode.data): [input] if g.n_inputs <= 1 else list(input)}
        for n in g.order:
            d = n.data
            x = self.inputs.get(id(d), [])
            if "selectindex" in d:
                out = x[0][d["selectindex"] - 1]
            else:
                x = x[0] if len(x) == 1 else x
                self.inputs[id(d)] = x
                m = d.get("module")
                out = x if m is None else self._forward(n.sub or m, x, d)
            self.outputs[id(d)] = out
            for c in n.consumers:
                lst = self.inputs.setdefault(id(c.data), [])
                k = _mapindex(c.data, d)
                while len(lst) < k:
                    lst.append(None)
                lst[k - 1] = out
        out = self.outputs[id(g.outnode.data)]
        return out

    def _forward(self, m, x, d):
        if isinstance(m, Graph):
            run = self.subruns[id(d)] = Run(m, self.grads)
            return run.forward(x)
        return FORWARD[m.class_name](m.fields, x)

    def backward(self, gradOutput):
        g = self.g
        gos = {id(g.outnode.data): [gradOutput]}
        for n in reversed(g.order):
            d = n.data
            go = _total(gos.get(id(d)))
            if "selectindex" in d:
                child = n.children[0]
                table = gos.setdefault(id(child.data), [{}])[0]
                table[d["selectindex"]] = go
                continue
            if isinstance(go, dict):    # a split's table of gradients
                go = [go[i] for i in range(1, len(go) + 1)]
            m = n.sub or d.get("module")
            if m is None:
                gi = go
            elif isinstance(m, Graph):
                gi = self.subruns[id(d)].backward(go)
            else:
                gi = BACKWARD[m.class_name](m.fields, self.inputs[id(d)], self.outputs[id(d)], go,
                                            self.grads.setdefault(id(m), {}))
            for c in n.children:
                k = _mapindex(d, c.data)
                gos.setdefault(id(c.data), []).append(gi if len(n.children) == 1 else gi[k - 1])
        gi = gos[id(g.innode.data)][0]
        return gi


def _total(gs):
    assert gs, "a node nobody reads"
    if len(gs) == 1:
        return gs[0]
    total = _copy(gs[0])
    for g in gs[1:]:
        total = _add(total, g)
    return total


def _copy(v):
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return np.array(v, dtype=np.float64)


def _add(a, b):
    if isinstance(a, dict):
        b = b if isinstance(b, dict) else {i + 1: x for i, x in enumerate(b)}
        return {k: _add(a[k], b[k]) for k in a}
    if isinstance(a, list):
        b = [b[i] for i in range(1, len(b) + 1)] if isinstance(b, dict) else b
        return [_add(x, y) for x, y in zip(a, b)]
    return a + b


def _acc(grads, name, value):
    grads[name] = grads.get(name, 0) + value


def _dim(f, x, key="dimension"):
    """A Lua dimension field as a numpy axis (nInputDims: one more for a batch)."""
    d = int(f[key]) - 1
    n = f.get("nInputDims")
    if n is not None and np.ndim(x) > n:
        d += 1
    return d


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _linear_b(f, x, y, go, grads):
    W = f["weight"]
    _acc(grads, "weight", go.T @ x if x.ndim == 2 else np.outer(go, x))
    if f.get("bias") is not None and np.size(f.get("bias")):
        _acc(grads, "bias", go.sum(0) if x.ndim == 2 else go)
    return go @ W


def _leaky_f(f, x):
    neg = f["negval"]
    if f.get("inplace"):
        x[x <= 0] *= neg
        return x
    return np.where(x > 0, x, x * neg)


def _leaky_b(f, x, y, go, grads):
    scale = np.where(x > 0, 1.0, f["negval"])
    if f.get("inplace"):
        go *= scale
        return go
    return go * scale


def _cmul_b(f, x, y, go, grads):
    out = []
    for i in range(len(x)):
        p = go.copy()
        for j, v in enumerate(x):
            if j != i:
                p = p * v
        out.append(p)
    return out


def _narrow_f(f, x):
    d, start = int(f["dimension"]) - 1, int(f["index"]) - 1
    return np.take(x, range(start, start + int(f["length"])), axis=d)


def _narrow_b(f, x, y, go, grads):
    d, start = int(f["dimension"]) - 1, int(f["index"]) - 1
    gi = np.zeros_like(x)
    idx = [slice(None)] * x.ndim
    idx[d] = slice(start, start + int(f["length"]))
    gi[tuple(idx)] = go
    return gi


def _reshape_f(f, x):
    size = getattr(f["size"], "values", f["size"])      # a torch.LongStorage (t7_writer.Storage) or an array
    size = [int(s) for s in np.ravel(size)]
    if x.size == int(np.prod(size)) and x.shape[0] != 1:      # nn.Reshape: a batch of one stays a batch
        return x.reshape(size)
    return x.reshape([x.shape[0]] + size)


def _select_b(f, x, y, go, grads):
    """nn.SelectTable's gradient: zeros (nested as the input) but for the entry it took."""
    def zeros(v):
        return [zeros(e) for e in v] if isinstance(v, list) else np.zeros(np.shape(v))
    i = int(f["index"])
    i = i - 1 if i > 0 else len(x) + i
    gi = [zeros(v) for v in x]
    gi[i] = go
    return gi


def _modules_of(f):
    m = f["modules"]
    return [m[k] for k in sorted(k for k in m if not isinstance(k, str))] if isinstance(m, dict) else list(m)


def _concat_f(f, x):
    """nn.ConcatTable of modules without parameters (what nngraph.nest and save_lua's tables of one entry hold)."""
    return [FORWARD[m.class_name](m.fields, x) for m in _modules_of(f)]


def _concat_b(f, x, y, go, grads):
    total = None
    for m, yi, gi in zip(_modules_of(f), y, go):
        g = BACKWARD[m.class_name](m.fields, x, yi, gi, {})
        total = _copy(g) if total is None else _add(total, g)
    return total


def _log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


FORWARD = {
    "OneHot": lambda f, x: np.eye(int(f["outputSize"]))[np.asarray(x, dtype=np.int64) - 1],   # 1-based (Lua)
    "nn.LogSoftMax": lambda f, x: _log_softmax(x),
    "nn.Identity": lambda f, x: x,
    "nn.Linear": lambda f, x: x @ f["weight"].T + (f["bias"] if f.get("bias") is not None else 0),
    "nn.Tanh": lambda f, x: np.tanh(x),
    "nn.Sigmoid": lambda f, x: _sig(x),
    "nn.LeakyReLU": _leaky_f,
    "nn.ReLU": lambda f, x: _leaky_f({"negval": 0.0, "inplace": f.get("inplace")}, x),
    "nn.MulConstant": lambda f, x: x * f["constant_scalar"],
    "nn.AddConstant": lambda f, x: x + f["constant_scalar"],
    "nn.CAddTable": lambda f, x: sum(x[1:], x[0].copy()),
    "nn.CSubTable": lambda f, x: x[0] - x[1],
    "nn.CMulTable": lambda f, x: np.prod(np.stack(x), axis=0),
    "nn.SplitTable": lambda f, x: [np.take(x, i, axis=_dim(f, x)) for i in range(x.shape[_dim(f, x)])],
    "nn.JoinTable": lambda f, x: np.concatenate(x, axis=_dim(f, x[0])),
    "nn.Narrow": _narrow_f,
    "nn.Reshape": _reshape_f,
    "nn.SelectTable": lambda f, x: x[int(f["index"]) - 1 if f["index"] > 0 else int(f["index"])],
    "nn.ConcatTable": _concat_f,
    "nngraph.JustElement": lambda f, x: x[0],
    "nngraph.JustTable": lambda f, x: [x],      # nngraph.nest({node}): {x}
    "nn.Dropout": lambda f, x: x,      # in evaluation mode (v2: no scaling at evaluation), as sampling runs it
}

BACKWARD = {
    "OneHot": lambda f, x, y, go, g: np.zeros(np.shape(x)),
    "nn.LogSoftMax": lambda f, x, y, go, g: go - np.exp(y) * go.sum(axis=-1, keepdims=True),
    "nn.Identity": lambda f, x, y, go, g: go,
    "nn.Linear": _linear_b,
    "nn.Tanh": lambda f, x, y, go, g: go * (1 - y * y),
    "nn.Sigmoid": lambda f, x, y, go, g: go * y * (1 - y),
    "nn.LeakyReLU": _leaky_b,
    "nn.ReLU": lambda f, x, y, go, g: _leaky_b({"negval": 0.0, "inplace": f.get("inplace")}, x, y, go, g),
    "nn.MulConstant": lambda f, x, y, go, g: go * f["constant_scalar"],
    "nn.AddConstant": lambda f, x, y, go, g: go,
    "nn.CAddTable": lambda f, x, y, go, g: [go.copy() for _ in x],
    "nn.CSubTable": lambda f, x, y, go, g: [go.copy(), -go],
    "nn.CMulTable": _cmul_b,
    "nn.SplitTable": lambda f, x, y, go, g: np.stack(go, axis=_dim(f, x)),
    "nn.JoinTable": lambda f, x, y, go, g: np.split(go, np.cumsum([v.shape[_dim(f, x[0])] for v in x])[:-1],
                                                    axis=_dim(f, x[0])),
    "nn.Narrow": _narrow_b,
    "nn.Reshape": lambda f, x, y, go, g: go.reshape(x.shape),
    "nngraph.JustElement": lambda f, x, y, go, g: [go],
    "nn.SelectTable": _select_b,
    "nn.ConcatTable": _concat_b,
    "nngraph.JustTable": lambda f, x, y, go, g: go[0],
    "nn.Dropout": lambda f, x, y, go, g: go,
}


def forward(graph, input):
    """(output, run) of one forward the way gmodule.lua runs it."""
    run = Run(graph)
    return run.forward(input), run
