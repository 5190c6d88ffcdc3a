import numpy as np

from .Module import Module


class HardShrink(Module):
    """Elementwise hard shrinkage: ``y = x if |x| > lambda else 0``; any shape.

    Gradient: ``dL/dx = dL/dy where |x| > lambda, else 0``.
    Torch7's default: ``HardShrink(0.5)``.
    """

    _kernel = "HardShrink"

    def __init__(self, lam=0.5):
        super().__init__()
        self.lambd = float(lam)

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
        return f"nn.HardShrink({self.lambd:g})"

    def _onnx(self, g, x, y):
        """Shrink with bias 0 (Where(Abs(x) > lambda, x, 0) in float64 with a lambda float32 does not hold)"""
        if g.exact(self.lambd):
            return g.op("Shrink", [x], lambd=self.lambd, bias=0.0)
        return g.op("Where", [g.op("Greater", [g.op("Abs", [x]), np.array(self.lambd)]), x, np.array(0.0)])
