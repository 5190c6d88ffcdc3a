import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class Clamp(Pointwise):
    """Elementwise ``y = min(max(x, min_value), max_value)``; any shape.

    Gradient: ``dL/dx = dL/dy where min_value < x < max_value``, else 0 (at
    the bounds themselves too: Torch7's Clamp is its HardTanh, which passes
    no gradient there; ``torch.clamp`` passes it at the bounds).  Needs
    ``min_value < max_value``.  ``inplace=True`` (an addition: Torch7's Clamp
    had none, its HardTanh did) overwrites the input going forward and
    gradOutput going back.
    """

    def __init__(self, min_value, max_value, inplace=False):
        super().__init__()
        self.min_val = float(min_value)
        self.max_val = float(max_value)
        if not self.min_val < self.max_val:
            raise ValueError(f"{type(self).__name__}: min_value must be below max_value, "
                             f"got min_value={self.min_val:g}, max_value={self.max_val:g}")
        self.inplace = bool(inplace)

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.clip(input, self.min_val, self.max_val, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        # in-place mode: input holds the clamped values, which are strictly
        # inside the bounds exactly where the original input was
        xp.multiply(gradOutput, (input > self.min_val) & (input < self.max_val), out=out)

    def __repr__(self):
        return f"nn.Clamp({self.min_val:g}, {self.max_val:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Clip"""
        return g.op("Clip", [x, np.array(self.min_val, dtype=x.dtype), np.array(self.max_val, dtype=x.dtype)])
