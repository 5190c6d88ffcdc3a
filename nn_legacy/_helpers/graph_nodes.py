"""The nodes of a graph built the nngraph way in Python, before
``nn.gModule`` lowers it into containers::

    x = nn.Identity()()                 # a node with no inputs: a graph input
    h = nn.Linear(4, 8)(x)              # module(node) -> a node
    s = nn.CAddTable()([h, x])          # several inputs: a list, in order
    a, b = nn.SplitTable(0)(h2).split(2)

A node records its module (or None), its inputs in order, and for the
nodes ``split(n)`` makes, the entry of the table it picks (0-based).  It
holds no values: nothing runs until ``nn.gModule(inputs, outputs)`` has
turned the graph into ordinary containers.  (Helpers below Module: the
Module's ``__call__`` makes these.)"""


class GraphNode:
    """One node of a graph under construction (nngraph's ``nngraph.Node``)."""

    def __init__(self, module=None, inputs=(), select=None, n_split=None, label=None):
        self.module = module
        self.inputs = list(inputs)
        self.select = select          # split's pickers: the 0-based entry taken from the input table
        self.n_split = n_split        # the node split() put between a node and its pickers
        self.consumers = []           # nodes built with this one as an input (nngraph's reverseMap)
        self.annotations = {}
        self.label = label
        for node in self.inputs:
            node.consumers.append(self)

    def split(self, n):
        """n nodes, node i carrying entry i of this node's output (a table of
        n entries); ``split(1)`` gives one node (nngraph's JustElement)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"split: n must be a positive whole number, got {n!r}")
        middle = GraphNode(inputs=[self], n_split=n, label=f"split({n}) of {self.describe()}")
        pickers = [GraphNode(inputs=[middle], select=i, label=f"entry {i} of {self.describe()}") for i in range(n)]
        return pickers[0] if n == 1 else tuple(pickers)

    def annotate(self, **annotations):
        """Record annotations (``name=``, ``description=``...), as nngraph's annotate; returns the node."""
        self.annotations.update(annotations)
        return self

    def describe(self):
        name = self.annotations.get("name")
        what = self.label or (f"nn.{type(self.module).__name__}" if self.module is not None else "a node")
        return f"{what} ({name})" if name else what

    def __repr__(self):
        return f"<graph node: {self.describe()}, {len(self.inputs)} input(s)>"

    def __sub__(self, module):    # nngraph's x - module
        return module(self)


def node_inputs(module, args):
    """The input nodes of ``module(*args)``: no argument, a node, a list or
    tuple of nodes, or several nodes; TypeError for anything else (calling a
    module builds a graph node, it does not compute: that is forward())."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
        if not args:
            raise TypeError(f"{type(module).__name__}(...): an empty list of input nodes (to make a graph input, "
                            f"call the module with no argument: nn.Identity()())")
    for i, a in enumerate(args):
        if not isinstance(a, GraphNode):
            raise TypeError(f"{type(module).__name__}(...): calling a module builds a node of a graph (nngraph's "
                            f"way: h = nn.Linear(4, 8)(x)), and input {i} is a {type(a).__name__}, not a graph "
                            f"node; to compute, use module.forward(input)")
    if len({id(a) for a in args}) != len(args):
        raise ValueError(f"{type(module).__name__}(...): the same node is passed twice as an input (nngraph "
                         f"refuses it too): put an nn.Identity() node in between")
    return list(args)


def works_in_place(module):
    """Whether module, or a module inside it (children and the modules of a
    lowered graph), may change its input in place."""
    todo, seen = [module], set()
    while todo:
        m = todo.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        if getattr(m, "inplace", False) is True:
            return True
        todo.extend(getattr(m, "modules", None) or [])
        todo.extend(getattr(m, "graph_modules", None) or [])
    return False
