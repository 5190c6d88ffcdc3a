"""The values a Torch7 file holds that have no numpy or Python equivalent:
Lua tables, torch objects of unknown classes, Lua functions, and the error
the reader raises.  They live below the layers because layers' ``_t7_fixup``
methods (see ``rnn_t7``) take them apart, and the reader in
``nn_legacy.serialization.t7`` builds them: both import them from here."""


class T7Error(ValueError):
    """The file is not a Torch7 file this reader can take, or is damaged."""


class LuaTable(dict):
    """A Lua table: keys are floats (Lua numbers), strings, or other objects."""

    def as_list(self):
        """The values of keys 1..n in order, when those are all the keys; else None."""
        n = len(self)
        if all(float(i) in self for i in range(1, n + 1)):
            return [self[float(i)] for i in range(1, n + 1)]
        return None


class TorchObject:
    """An instance of a torch class this reader has no special meaning for."""

    def __init__(self, class_name, version):
        self.class_name = class_name
        self.version = version
        self.fields = None  # usually a LuaTable
        self.header = None  # what nn.GPU / nn.DataParallelTable write before their fields

    def __repr__(self):
        return f"<TorchObject {self.class_name} v{self.version}>"


def torch_objects(root, resolve=None, below=None, seen=None):
    """Each TorchObject reachable from root (what the reader gave) once,
    depth first, through tables (their keys and values) and lists.
    resolve(value): what to read in value's place (default: value itself);
    below(obj): what to walk under a TorchObject, read after it is yielded
    (default: its fields); seen: a set of ids, shared between walks that
    must not read an object twice."""
    seen = set() if seen is None else seen
    stack = [root]
    while stack:
        value = stack.pop()
        if resolve is not None:
            value = resolve(value)
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, TorchObject):
            yield value
            stack += below(value) if below is not None else [value.fields]
        elif isinstance(value, dict):
            for k, v in value.items():
                stack += [k, v]
        elif isinstance(value, list):
            stack += value


class LuaFunction:
    """Where the file held a Lua function: a placeholder that raises T7Error
    when called.  Lua functions are bytecode; nn_legacy never parses or runs
    them.  ``nbytes`` is the size of the skipped bytecode, ``upvalues`` the
    names of the upvalues Torch7 recorded (for the message), ``where`` the
    field path it was first found at when ``load_lua`` converted the file."""

    def __init__(self, nbytes, upvalues=()):
        self.nbytes = nbytes
        self.upvalues = tuple(upvalues)
        self.where = None

    def __call__(self, *args, **kwargs):
        where = f" at {self.where}" if self.where else ""
        raise T7Error(f"the Lua function{where} ({self.nbytes} bytes of bytecode in the Torch7 file) cannot be "
                      f"called: nn_legacy never runs Lua code.  Replace it with a Python function, or delete "
                      f"the attribute to use the class's own method")

    def __repr__(self):
        where = f" at {self.where}" if self.where else ""
        return f"<LuaFunction{where}, {self.nbytes} bytes, not loaded>"

    def __deepcopy__(self, memo):   # module.clone() keeps the placeholder
        return self
