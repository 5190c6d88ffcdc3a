import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class SAdd(Pointwise):
    """The rnn package's scalar add: elementwise ``y = x + addend``, or
    ``y = -(x + addend)`` with ``negate=True``; any shape.  The rnn
    package's GRU builds ``1 - z`` as ``SAdd(-1, True)``.

    Gradient: ``dL/dx = dL/dy`` (``-dL/dy`` when negated): the addend has
    no gradient.  ``SAdd(addend, negate=False)``.  Runs on CUDA (numpy on
    the host, the device's array math there).
    """

    def __init__(self, addend, negate=False):
        super().__init__()
        if isinstance(addend, bool) or not isinstance(addend, (int, float, np.integer, np.floating)):
            raise TypeError(f"SAdd: addend must be a number, got {type(addend).__name__}")
        self.addend = float(addend)
        self.negate = bool(negate)

    def _forward(self, input, out):
        xp = array_namespace(input)
        xp.add(input, self.addend, out=out)
        if self.negate:
            xp.negative(out, out=out)

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        if self.negate:
            xp.negative(gradOutput, out=out)
        elif out is not gradOutput:
            out[...] = gradOutput

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        fields = vars(self)
        addend, negate = fields.get("addend"), fields.get("negate", False)
        if isinstance(addend, bool) or not isinstance(addend, (int, float)):
            raise T7Error(f"SAdd: addend in the file must be a number, got {type(addend).__name__}")
        self.addend, self.negate = float(addend), bool(negate)

    def __repr__(self):
        return f"nn.SAdd({self.addend:g}{', negate' if self.negate else ''})"

    def _onnx(self, g, x, y):
        """Add (then Neg)"""
        out = g.op("Add", [x, np.array(self.addend, dtype=x.dtype)])
        return g.op("Neg", [out]) if self.negate else out
