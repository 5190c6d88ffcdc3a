from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse_table


class MarginRankingCriterion(NumpyCriterion):
    """Ranks pairs of scores: input ``[x1, x2]``, two 1D arrays ``[batch]``,
    target ``y`` of ``batch`` labels, 1 when x1 should rank higher than x2
    and -1 when lower (a number for a batch of one).  Per pair::

        loss = max(0, -y (x1 - x2) + margin)

    summed and divided by ``batch`` when ``sizeAverage`` (the default).

    Gradient: ``dL/dx1 = -y``, ``dL/dx2 = y`` where
    ``-y (x1 - x2) + margin >= 0`` (Torch7 counts the kink as inside), 0
    elsewhere; divided likewise.  gradInput is a table ``[dL/dx1, dL/dx2]``.

    ``margin`` defaults to 1 as in Torch7 and torch.legacy.nn (PyTorch's
    MarginRankingLoss defaults to 0).  Torch7 took a batch of one through
    a separate path that ignored sizeAverage; here it is simply batch = 1,
    which gives the same numbers.  Labels other than 1 and -1 raise
    ValueError (Torch7 used them to scale the score difference).
    """

    # files from before January 2016 have no sizeAverage; Torch7's code read the
    # missing field as false: a sum
    _t7_absent = {"sizeAverage": False}

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__()
        self.margin = self._number(margin, "margin")
        self.sizeAverage = bool(sizeAverage)

    def _hinge(self, input, target):
        """x1, y and each pair's -y (x1 - x2) + margin."""
        x1, x2 = self._pair(input)
        if x1.ndim != 1:
            raise ValueError(f"{self._name()}: input[0] and input[1] must be 1D [batch] (one score per pair), "
                             f"got {described(x1.shape)}")
        y = self._labels(target, x1.shape, x1.dtype, array_namespace(x1))
        return x1, y, -y * (x1 - x2) + self.margin

    def _scale(self, n):
        return 1 / n if self.sizeAverage and n else 1

    def updateOutput(self, input, target):
        x1, _, hinge = self._hinge(input, target)
        self.output = float(array_namespace(x1).maximum(hinge, 0).sum() * self._scale(len(x1)))
        return self.output

    def updateGradInput(self, input, target):
        x1, y, hinge = self._hinge(input, target)
        xp = array_namespace(x1)
        self.gradInput = reuse_table(self.gradInput, [x1.shape, x1.shape], x1.dtype, xp)
        g1, g2 = self.gradInput
        g2[...] = xp.where(hinge >= 0, y, 0) * self._scale(len(x1))
        xp.subtract(0, g2, out=g1)  # 0 - g rather than -g: no -0.0 entries
        return self.gradInput
