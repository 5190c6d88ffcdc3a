import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.tables import RowPair


class CosineDistance(RowPair):
    """The cosine similarity of each pair of rows of a table ``[a, b]``
    (see RowPair for the shapes), with Torch7's epsilon ``e = 1e-12`` that
    keeps zero vectors finite:

        y = a.b / sqrt((|a|^2 + e) (|b|^2 + e))

    Gradients (of this formula, exactly): ``dy/da = b / sqrt((|a|^2 + e)
    (|b|^2 + e)) - y a / (|a|^2 + e)``, and the same with a and b swapped.
    """

    _t7_pairs = ('gradInput',)   # save_lua: Torch7's constructor made {torch.Tensor(), torch.Tensor()}

    epsilon = 1e-12

    def _terms(self, a, b):
        xp = array_namespace(a)
        dot = (a * b).sum(axis=1)
        aa = (a * a).sum(axis=1) + self.epsilon
        bb = (b * b).sum(axis=1) + self.epsilon
        scale = 1 / xp.sqrt(aa * bb)
        return dot * scale, scale, aa, bb

    def _values(self, a, b):
        return self._terms(a, b)[0]

    def _grads(self, a, b, g):
        y, scale, aa, bb = (t[:, None] for t in self._terms(a, b))
        return g * (b * scale - y * a / aa), g * (a * scale - y * b / bb)

    def _onnx(self, g, x, y):
        """dot / Sqrt((ReduceSumSquare(a) + eps) (ReduceSumSquare(b) + eps))"""
        keep, eps = 1 if x[0].ndim == 1 else 0, np.array(self.epsilon, dtype=x[0].dtype)
        dot = g.op("ReduceSum", [g.op("Mul", x), g.ints([-1])], keepdims=keep)
        aa, bb = (g.op("Add", [g.op("ReduceSumSquare", [v, g.ints([-1])], keepdims=keep), eps]) for v in x)
        return g.op("Div", [dot, g.op("Sqrt", [g.op("Mul", [aa, bb])])])
