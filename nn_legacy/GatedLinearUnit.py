from .Module import Module


class GatedLinearUnit(Module):
    """Gated linear unit (Torch7's ``nn.GatedLinearUnit``, kernel GatedLinear).

    Splits the input along ``dim`` into a first half ``a`` and a second half
    ``b`` and returns ``y = a * sigmoid(b)``: the input's shape with
    ``size[dim]`` halved, which must be even.  ``dim`` is 0-based and may be
    negative (counted from the end); the default ``None`` is the last
    dimension, as Torch7's default was.

    Gradients: ``dL/da = dL/dy * sigmoid(b)``,
    ``dL/db = dL/dy * a * sigmoid(b) * (1 - sigmoid(b))``.
    """

    _kernel = "GatedLinear"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = None if dim is None else int(dim)

    def _dim(self, input):
        ndim = getattr(input, "ndim", 0)
        if self.dim is None:
            return ndim - 1
        if not -ndim <= self.dim < ndim:
            raise ValueError(f"GatedLinearUnit: dim {self.dim} is out of range for a {ndim}D input "
                             f"of size {list(getattr(input, 'shape', ()))}")
        return self.dim % ndim

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self._dim(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput, self._dim(input))
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7's dim is 1-based (nil: the last)."""
        dim = getattr(self, "dim", None)
        self.dim = None if dim is None else int(dim) - 1

    def __repr__(self):
        return "nn.GatedLinearUnit" if self.dim is None else f"nn.GatedLinearUnit({self.dim})"

    def _onnx(self, g, x, y):
        """Split in halves, first * Sigmoid(second)"""
        a, b = g.op("Split", [x], outputs=2, axis=self._dim(x.value), num_outputs=2)
        return g.op("Mul", [a, g.op("Sigmoid", [b])])
