import numpy as np

from .Module import Module


class SoftShrink(Module):
    """Elementwise soft shrinkage towards 0; any shape::

        y = x - lambda   if x > lambda
            x + lambda   if x < -lambda
            0            otherwise

    Gradient: ``dL/dx = dL/dy where |x| > lambda, else 0``.  ``lambda`` must
    be >= 0.  Torch7's default: ``SoftShrink(0.5)``.
    """

    _kernel = "SoftShrink"

    def __init__(self, lam=0.5):
        super().__init__()
        self.lambd = float(lam)
        if not self.lambd >= 0:
            raise ValueError(f"SoftShrink: lambda must be >= 0, got {self.lambd}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.lambd)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.lambd)
        return self.gradInput

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup."""
        fields["lambda"] = fields.pop("lambd")

    def _t7_fixup(self, version):
        """A Torch7 file names the threshold ``lambda`` (a Python keyword)."""
        self.lambd = float(vars(self).pop("lambda", 0.5))

    def __repr__(self):
        return f"nn.SoftShrink({self.lambd:g})"

    def _onnx(self, g, x, y):
        """Shrink (x - Clip(x, -lambda, lambda) in float64 with a lambda float32 does not hold)"""
        if g.exact(self.lambd):
            return g.op("Shrink", [x], lambd=self.lambd, bias=self.lambd)
        return g.op("Sub", [x, g.op("Clip", [x, np.array(-self.lambd), np.array(self.lambd)])])
