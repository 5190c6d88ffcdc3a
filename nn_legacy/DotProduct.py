from ._bases.tables import RowPair


class DotProduct(RowPair):
    """The dot product of each pair of rows of a table ``[a, b]``:
    ``y = sum_k a_k b_k`` (see RowPair for the shapes); gradInput is
    ``[g b, g a]`` for g = gradOutput."""

    _t7_pairs = ('gradInput',)   # save_lua: Torch7's constructor made {torch.Tensor(), torch.Tensor()}

    def _values(self, a, b):
        return (a * b).sum(axis=1)

    def _grads(self, a, b, g):
        return g * b, g * a

    def _onnx(self, g, x, y):
        """ReduceSum of Mul"""
        return g.op("ReduceSum", [g.op("Mul", x), g.ints([-1])], keepdims=1 if x[0].ndim == 1 else 0)
