from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, reuse_table


class L1HingeEmbeddingCriterion(NumpyCriterion):
    """HingeEmbeddingCriterion on the L1 distance of one pair: input
    ``[x1, x2]``, two arrays of one shape (usually ``[dim]``), and a label
    ``y``, 1 (similar) or -1 (dissimilar), as a number or a one-element
    array.  With ``d = sum_i |x1_i - x2_i|``::

        loss = d                   if y ==  1
        loss = max(0, margin - d)  if y == -1

    ``margin`` defaults to 1.  There is no batch mode and no sizeAverage,
    as in Torch7 and torch.legacy.nn.

    Gradient: ``dL/dx1 = sign(x1 - x2)`` for y = 1; ``-sign(x1 - x2)`` for
    y = -1 while ``d <= margin``, 0 beyond; ``dL/dx2 = -dL/dx1``
    (``sign(0) = 0``).  gradInput is a table ``[dL/dx1, dL/dx2]``.

    A label other than 1 and -1 raises ValueError (Torch7 treated any label
    but -1 as 1).
    """

    def __init__(self, margin=1):
        super().__init__()
        self.margin = self._number(margin, "margin")

    def _checked(self, input, target):
        x1, x2 = self._pair(input)
        y = float(self._labels(target, (1,), x1.dtype, array_namespace(x1))[0])
        return x1, x2, y

    def updateOutput(self, input, target):
        x1, x2, y = self._checked(input, target)
        d = float(abs(x1 - x2).sum())
        self.output = d if y == 1 else max(self.margin - d, 0.0)
        return self.output

    def updateGradInput(self, input, target):
        x1, x2, y = self._checked(input, target)
        xp = array_namespace(x1)
        self.gradInput = reuse_table(self.gradInput, [x1.shape, x1.shape], x1.dtype, xp)
        g1, g2 = self.gradInput
        xp.sign(x1 - x2, out=g1)
        if y == -1:
            if float(xp.abs(x1 - x2).sum()) > self.margin:
                g1.fill(0)
            else:
                xp.subtract(0, g1, out=g1)
        xp.subtract(0, g1, out=g2)  # 0 - g rather than -g: no -0.0 entries
        return self.gradInput
