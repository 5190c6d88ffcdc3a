from ._helpers.namespace import array_namespace
from ._bases.pointwise import Pointwise


class GradientReversal(Pointwise):
    """The identity going forward, ``y = x`` (a copy the module owns; any
    shape), and a reversed, scaled gradient going back:
    ``dL/dx = -lambd * dL/dy`` (Ganin and Lempitsky's gradient reversal
    layer for domain adaptation).  Default ``lambd = 1``; ``setLambda``
    changes it.  (Torch7 called the argument ``lambda``, a Python keyword.)
    """

    def __init__(self, lambd=1):
        super().__init__()
        self.lambd = float(lambd)

    _t7_version = 2   # Torch7's class version (save_lua writes it)

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup."""
        fields["lambda"] = fields.pop("lambd")

    def _t7_fixup(self, version):
        """A Torch7 file stores the factor as ``lambda``."""
        self.lambd = float(vars(self).pop("lambda", 1))

    def setLambda(self, lambd):
        self.lambd = float(lambd)
        return self

    def _forward(self, input, out):
        out[...] = input

    def _backward(self, input, gradOutput, out):
        xp = array_namespace(input)
        xp.multiply(gradOutput, -self.lambd, out=out)

    def __repr__(self):
        return f"nn.GradientReversal({self.lambd:g})"

    def _onnx(self, g, x, y):
        """none (the identity going forward)"""
        return x
