from .Container import _NAMED, Container


class Sequential(Container):
    """Modules applied one after the other: output = m_n(...m_1(m_0(input))).
    backward runs them in reverse, each with the input it saw going forward."""

    def insert(self, module, index=None):
        """Insert at index (0-based; at the end when None)."""
        self.add(module)
        if index is not None:
            self.modules.insert(index, self.modules.pop())
        return self

    def remove(self, index=None):
        """Remove the module at index (the last when None) and return it."""
        return self.modules.pop(len(self.modules) - 1 if index is None else index)

    def updateOutput(self, input):
        modules, current, i, done = self.modules, input, 0, False
        try:   # (the children called directly, not through _child: a few tenths of a microsecond each)
            for i, m in enumerate(modules):
                if done:          # the module before did this one's step too (its _fuse_next)
                    done = False
                    continue
                fuse = m._fuse_next   # (not when either step was replaced on the instance, a user's hook)
                if fuse is not None and i + 1 < len(modules) and "updateOutput" not in m.__dict__ \
                        and "updateOutput" not in modules[i + 1].__dict__:
                    fused = fuse(modules[i + 1], current)
                    if fused is not None:
                        current, done = fused, True
                        continue
                current = m.updateOutput(current)
        except _NAMED as e:
            raise self._child_error(i, "updateOutput", e) from e
        self.output = current
        return current

    def _inputs(self, input):
        return [input] + [m.output for m in self.modules[:-1]]

    def updateGradInput(self, input, gradOutput):
        inputs = self._inputs(input)
        current = gradOutput
        for i in reversed(range(len(self.modules))):
            current = self._child(i, "updateGradInput", inputs[i], current)
        self.gradInput = current
        return current

    def accGradParameters(self, input, gradOutput, scale=1):
        inputs = self._inputs(input)
        current = gradOutput
        for i in reversed(range(len(self.modules))):
            self._child(i, "accGradParameters", inputs[i], current, scale)
            current = self.modules[i].gradInput

    def backward(self, input, gradOutput, scale=1):
        inputs = self._inputs(input)
        current = gradOutput
        for i in reversed(range(len(self.modules))):
            if i == 0 and self.gradInputSkipped:   # (skipGradInput: the first module's parameters only)
                self._child(0, "accGradParameters", inputs[0], current, scale)
                current = None
            else:
                current = self._child(i, "backward", inputs[i], current, scale)
        self.gradInput = current
        return current

    def backwardUpdate(self, input, gradOutput, lr):
        if not self.gradInputSkipped:
            return super().backwardUpdate(input, gradOutput, lr)
        inputs = self._inputs(input)
        current = gradOutput
        for i in reversed(range(1, len(self.modules))):   # the gradInputs accUpdateGradParameters reads
            current = self._child(i, "updateGradInput", inputs[i], current)
        self.accUpdateGradParameters(input, gradOutput, lr)
        self.gradInput = None
        return None

    def skipGradInput(self, skip=True):
        """backward() skips the first module's gradInput (see Module.skipGradInput)."""
        self.gradInputSkipped = bool(skip)
        if skip:
            self.gradInput = None
        return self

    def accUpdateGradParameters(self, input, gradOutput, lr):
        inputs = self._inputs(input)
        current = gradOutput
        for i in reversed(range(len(self.modules))):
            self._child(i, "accUpdateGradParameters", inputs[i], current, lr)
            current = self.modules[i].gradInput

    def __repr__(self):
        if not self.modules:
            return "nn.Sequential"
        chain = " -> ".join(f"({i})" for i in range(len(self.modules)))
        lines = ["nn.Sequential {", f"  [input -> {chain} -> output]"]
        for i, m in enumerate(self.modules):
            body = repr(m).replace("\n", "\n  ")
            lines.append(f"  ({i}): {body}")
        lines.append("}")
        return "\n".join(lines)

    def _onnx(self, g, x, y):
        """the children's nodes, chained"""
        for i in range(len(self.modules)):
            x = g.child(self, i, x)
        return x
