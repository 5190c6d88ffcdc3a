import numbers

import numpy as np

from .Module import Module


class Container(Module):
    """A module made of modules (``self.modules``): parameters, state, type
    conversion and the tree operations reach every child.  An error raised
    by a child names its place: ``Sequential (2) -> Linear_updateOutput: ...``."""

    def __init__(self, *modules):
        super().__init__()
        self.modules = []
        for m in modules:
            self.add(m)

    def add(self, module):
        if not isinstance(module, Module):
            raise TypeError(f"{type(self).__name__}.add: expected a Module, got {type(module).__name__}")
        self.modules.append(module)
        return self

    def get(self, index):
        """The child at index (0-based, as Python's lists; Torch7 counted from 1)."""
        try:
            return self.modules[index]
        except (IndexError, TypeError):
            raise _index_error(self, "get", index) from None

    def size(self):
        return len(self.modules)

    def __len__(self):
        return len(self.modules)

    def _all_parameters(self):
        return [e for m in self.modules for e in m._all_parameters()]

    def zeroGradParameters(self):
        for m in self.modules:   # each child its own way (sparse layers touch only the rows they used)
            m.zeroGradParameters()

    def updateParameters(self, learningRate):
        # each child steps its own parameters, so a parameter shared by two
        # children steps once per owner, as Torch7 defined it
        try:
            for m in self.modules:
                m.updateParameters(learningRate)
        except TypeError as e:
            raise self._learning_rate_error(learningRate, e) from None

    def accUpdateGradParameters(self, input, gradOutput, lr):
        raise NotImplementedError(f"{type(self).__name__} implements it for its own layout")

    def training(self):
        super().training()
        for m in self.modules:
            m.training()

    def evaluate(self):
        super().evaluate()
        for m in self.modules:
            m.evaluate()

    def clearState(self):
        super().clearState()
        for m in self.modules:
            m.clearState()
        return self

    def reset(self, stdv=None):
        for m in self.modules:
            m.reset(stdv)
        return self

    def listModules(self):
        return [self] + [x for m in self.modules for x in m.listModules()]

    def findModules(self, typename, container=None):
        nodes, containers = super().findModules(typename, container)
        for m in self.modules:
            n, c = m.findModules(typename, self)
            nodes += n
            containers += c
        return nodes, containers

    def replace(self, fn):
        out = fn(self)
        for i, m in enumerate(self.modules):
            self.modules[i] = m.replace(fn)
        return out

    def share(self, other, *names):
        """Share the named arrays of this container's own and of each child
        with the matching child of ``other`` (a container of as many children)."""
        if not isinstance(other, Container) or len(other.modules) != len(self.modules):
            got = f"{type(other).__name__} of {len(other.modules)} modules" if isinstance(other, Container) \
                else type(other).__name__
            raise ValueError(f"{type(self).__name__}.share: expected a container of {len(self.modules)} modules "
                             f"like this one, got {got}")
        super().share(other, *names)
        for i, m in enumerate(self.modules):
            self._child(i, "share", other.modules[i], *names)
        return self

    def _dtype(self):
        for m in self.modules:
            dtype = m._dtype()
            if dtype is not None:
                return dtype
        return None

    def _child(self, index, method, *args):
        """Call a child's method; an error it raises gets this container's
        name and the child's index in front of its message."""
        try:
            return getattr(self.modules[index], method)(*args)
        except _NAMED as e:
            raise self._child_error(index, method, e) from e

    def _forward_each(self, input, per_child=False):
        """Each child's updateOutput of the same input (per_child: child i
        of input[i]), in order, as a list (Concat's and ConcatTable's
        forward; Parallel's and ParallelTable's per child; the children
        called directly, an error named as _child names it)."""
        outputs, i = [], 0
        try:
            for i, m in enumerate(self.modules):
                outputs.append(m.updateOutput(input[i] if per_child else input))
        except _NAMED as e:
            raise self._child_error(i, "updateOutput", e) from e
        return outputs

    def _child_error(self, index, method, e):
        """The error e a child's method raised, with this container's name and
        the child's index in front of its message (what _child raises; the
        forward loops that call the children directly raise it too)."""
        if self.output is None and method in _BACKWARD:
            self._need_output()   # backward before forward: say so, naming this container (error path only)
        return type(e)(f"{type(self).__name__} ({index}) -> {_message(self.modules[index], e)}")

    def _need_output(self):
        """backward needs the outputs of forward."""
        if self.output is None:
            raise RuntimeError(f"{type(self).__name__}: backward needs the outputs of forward: call forward first")


_NAMED = (ValueError, TypeError, RuntimeError, IndexError)   # the errors a container names itself in
_BACKWARD = frozenset(("updateGradInput", "accGradParameters", "backward", "accUpdateGradParameters"))


def _index_error(container, method, index):
    """IndexError (TypeError for a non-integer) naming the valid range of a child index."""
    n = len(container.modules)
    name = type(container).__name__
    if not isinstance(index, numbers.Integral):
        return TypeError(f"{name}.{method}: index must be an integer (0-based), got {index!r}")
    valid = f"the valid indices are 0..{n - 1} (or -{n}..-1 from the end)" if n else "it has no modules"
    return IndexError(f"{name}.{method}({index}): index out of range: {valid}; indices are 0-based "
                      f"(Torch7's get(1) is get(0) here)")


def _message(module, error):
    text = str(error)
    name = type(module).__name__
    # kernel messages already start with the kernel's name (Linear_updateOutput: ...)
    if isinstance(module, Container) or text.startswith(name):
        return text
    return f"{name}: {text}"


# ---------------------------------------------------------------- tables
# Tables (Torch7's Lua tables of tensors) are Python lists of arrays, possibly
# nested; the argument checks and copies are _tables'.  The table containers
# build their outputs and gradInputs with these helpers.
def layout(value):
    """The shapes of an array or (nested) table: (2, 3) or [(2, 3), [(4,)]]."""
    if isinstance(value, (list, tuple)):
        return [layout(v) for v in value]
    return tuple(np.shape(value)) if isinstance(value, np.ndarray) else type(value).__name__


def show_layout(value):
    """How error messages show an array or table: [2, 3] or {[2, 3], [4]}."""
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(show_layout(v) for v in value) + "}"
    if isinstance(value, np.ndarray):
        return f"[{', '.join(map(str, value.shape))}]"
    return type(value).__name__


def same_list(old, items):
    """``old`` when it already holds exactly these objects, else a new list:
    a table handed out before stays as it was when its arrays change."""
    items = list(items)
    if isinstance(old, list):
        if len(old) == len(items):
            for a, b in zip(old, items):
                if a is not b:
                    return items
            return old
    return items


def add_table(container, total, value, index):
    """total += value, array by array; value is child index's gradInput and
    must be laid out as total."""
    if layout(total) != layout(value):
        raise ValueError(f"{type(container).__name__}: gradInput of module ({index}) is {show_layout(value)}, "
                         f"which cannot be added to {show_layout(total)} of module (0)")
    _add(total, value)


def _add(total, value):
    if isinstance(total, list):
        for t, v in zip(total, value):
            _add(t, v)
    else:
        total += value


# ---------------------------------------------------------------- repr
def tree_repr(container, head):
    """Torch7's picture of children that all see the input (Concat,
    ConcatTable, ParallelTable, ...), indices from 0::

        nn.ConcatTable {
          input
            |`-> (0): nn.Linear(3 -> 2)
             `-> (1): nn.Tanh
             ... -> output
        }
    """
    if not container.modules:
        return head
    lines = [head + " {", "  input"]
    last = len(container.modules) - 1
    for i, m in enumerate(container.modules):
        arrow, continuation = ("   `-> ", "       ") if i == last else ("  |`-> ", "  |    ")
        lines.append(f"  {arrow}({i}): " + repr(m).replace("\n", "\n  " + continuation))
    lines += ["     ... -> output", "}"]
    return "\n".join(lines)
