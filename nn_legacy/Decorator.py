from .Container import Container


class Decorator(Container):
    """Wraps one module and passes every call through to it: forward,
    backward and the parameter verbs give what the module gives.  A base
    for modules that change one aspect of another (dpnn's Decorator)."""

    def __init__(self, module):
        super().__init__(module)

    def add(self, module):
        if self.modules:
            raise ValueError(f"{type(self).__name__}.add: it decorates a single module, and it has one")
        return super().add(module)

    def updateOutput(self, input):
        self.output = self._child(0, "updateOutput", input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._child(0, "accGradParameters", input, gradOutput, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._child(0, "accUpdateGradParameters", input, gradOutput, lr)

    def backward(self, input, gradOutput, scale=1):
        self.gradInput = self._child(0, "backward", input, gradOutput, scale)
        return self.gradInput

    def __repr__(self):
        return f"nn.{type(self).__name__} @ " + repr(self.modules[0])

    def _onnx(self, g, x, y):
        """the module's nodes"""
        return g.child(self, 0, x)
