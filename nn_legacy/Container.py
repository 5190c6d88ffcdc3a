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
        return self.modules[index]

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
        for m in self.modules:
            m.updateParameters(learningRate)

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
        except (ValueError, TypeError) as e:
            raise type(e)(f"{type(self).__name__} ({index}) -> {_message(self.modules[index], e)}") from e


def _message(module, error):
    text = str(error)
    name = type(module).__name__
    # kernel messages already start with the kernel's name (Linear_updateOutput: ...)
    if isinstance(module, Container) or text.startswith(name):
        return text
    return f"{name}: {text}"
