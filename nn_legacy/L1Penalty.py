from ._helpers.arrays import check_like, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class L1Penalty(Module):
    """An L1 penalty on the activations passing through; any shape.

    Forward: ``y = x`` (a copy the module owns) and, as a side effect,
    ``self.loss = m * sum|x|`` with ``m = l1weight``, divided by the number
    of elements of x when ``sizeAverage``.

    Backward: ``dL/dx = m * sign(x)`` (the penalty's gradient; 0 at x = 0),
    plus ``dL/dy`` when ``provideOutput`` (the default).  With
    ``provideOutput=False`` the layer ends a branch: gradOutput is ignored
    (it may be None) and only the penalty's gradient flows back.
    Torch7's defaults: ``L1Penalty(l1weight, sizeAverage=False, provideOutput=True)``.
    """

    def __init__(self, l1weight, sizeAverage=False, provideOutput=True):
        super().__init__()
        self.l1weight = float(l1weight)
        self.sizeAverage = bool(sizeAverage)
        self.provideOutput = bool(provideOutput)
        self.loss = 0.0

    def _weight(self, input):
        return self.l1weight / input.size if self.sizeAverage and input.size else self.l1weight

    def updateOutput(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        self.loss = float(self._weight(input) * xp.abs(xp.ascontiguousarray(input)).sum())
        self.output = reuse(self.output, input.shape, input.dtype, input)
        self.output[...] = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        self._kernels(input)
        if self.provideOutput:
            check_like(self, gradOutput, "gradOutput", input, "the input")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.sign(input, out=self.gradInput)
        self.gradInput *= self._weight(input)
        if self.provideOutput:
            self.gradInput += gradOutput
        return self.gradInput

    def __repr__(self):
        return f"nn.L1Penalty({self.l1weight:g}{', sizeAverage' if self.sizeAverage else ''}" \
               f"{'' if self.provideOutput else ', no output gradient'})"

    def _onnx(self, g, x, y):
        """none (the identity going forward; the penalty is a training term)"""
        return x
