from ._tables import RowPair


class DotProduct(RowPair):
    """The dot product of each pair of rows of a table ``[a, b]``:
    ``y = sum_k a_k b_k`` (see RowPair for the shapes); gradInput is
    ``[g b, g a]`` for g = gradOutput."""

    def _values(self, a, b):
        return (a * b).sum(axis=1)

    def _grads(self, a, b, g):
        return g * b, g * a
