from ._bases.tables import check_length, check_list
from .Container import Container, same_list


class MapTable(Container):
    """One module applied to every entry of the input table:
    ``output = [m(x[0]), m(x[1]), ...]``.

    Entry i goes through ``self.modules[i]``: ``self.module`` (the module
    you gave, ``modules[0]``) or a clone of it made the first time a table
    that long comes.  With ``shared=True`` (the default) the clones share
    the module's parameters and gradients, so the gradients of all entries
    add up in the module's own arrays, and ``zeroGradParameters`` /
    ``updateParameters`` step the module once (not once per clone), as in
    Torch7.  With ``shared=False`` every clone has parameters of its own.

    The clones share every parameter and gradient the module reports
    (``parameters()``); Torch7 shared the attributes named weight, bias,
    gradWeight and gradBias, which are the same arrays for the layers that
    have those.  ``clearState`` drops the clones, as Torch7's did.
    """

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, module=None, shared=True):
        super().__init__()
        self.module = None
        self.shared = bool(shared)
        if module is not None:
            self.add(module)

    def add(self, module):
        if self.module is not None:
            raise ValueError(f"{type(self).__name__}.add: a MapTable maps a single module, and it has one")
        super().add(module)
        self.module = module
        return self

    def _t7_fixup(self, version):
        if getattr(self, "module", None) is None and self.modules:
            self.module = self.modules[0]
        self.shared = bool(getattr(self, "shared", True))
        vars(self).pop("sharedparams", None)
        if self.shared:   # in the file the clones' arrays view the module's storages: make them its arrays
            for clone in self.modules[1:]:
                self._share(clone)

    def _share(self, clone):
        """Give clone the module's parameter and gradient arrays."""
        for (m, p, g), (om, op, og) in zip(clone._all_parameters(), self.module._all_parameters()):
            setattr(m, p, getattr(om, op))
            setattr(m, g, getattr(om, og))

    def _extend(self, n):
        if self.module is None:
            raise ValueError(f"{type(self).__name__}: there is no module to map; add one first")
        self.modules[:1] = [self.module]
        while len(self.modules) < n:
            clone = self.module.clone()
            clone.clearState()
            if self.shared:
                self._share(clone)
            self.modules.append(clone)

    def resize(self, n):
        """Keep clones for n entries (at least the module itself)."""
        self._extend(n)
        for m in self.modules[max(n, 1):]:
            m.clearState()
        del self.modules[max(n, 1):]
        return self

    def updateOutput(self, input):
        check_list(self, input, "input", 0)
        self._extend(len(input))
        self.output = same_list(self.output, [self._child(i, "updateOutput", x) for i, x in enumerate(input)])
        return self.output

    def _check(self, input, gradOutput):
        check_list(self, input, "input", 0)
        self._need_output()
        check_length(self, gradOutput, len(input), "gradOutput", "the input")
        self._extend(len(input))

    def _backward(self, method, input, gradOutput, *extra):
        self._check(input, gradOutput)
        grads = [self._child(i, method, x, g, *extra) for i, (x, g) in enumerate(zip(input, gradOutput))]
        self.gradInput = same_list(self.gradInput, grads)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._backward("updateGradInput", input, gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._backward("backward", input, gradOutput, scale)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check(input, gradOutput)
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self._child(i, "accGradParameters", x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._check(input, gradOutput)
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self._child(i, "accUpdateGradParameters", x, g, lr)

    def zeroGradParameters(self):
        if self.shared and self.module is not None:
            self.module.zeroGradParameters()
        else:
            super().zeroGradParameters()

    def updateParameters(self, learningRate):
        if self.shared and self.module is not None:
            self.module.updateParameters(learningRate)
        else:
            super().updateParameters(learningRate)

    def clearState(self):
        if self.module is not None:
            self.resize(1)
        return super().clearState()

    def replace(self, fn):
        out = super().replace(fn)
        if self.modules:
            self.module = self.modules[0]
        return out

    def __repr__(self):
        if self.module is None:
            return f"nn.{type(self).__name__} {{ }}"
        return f"nn.{type(self).__name__} {{\n  " + repr(self.module).replace("\n", "\n        ") + "\n}"

    def _onnx(self, g, x, y):
        """the module's nodes on every entry"""
        for copy in (self, g.twin(self)):
            if copy is not None:
                copy._extend(len(x))
        return [g.child(self, i, entry) for i, entry in enumerate(x)]
