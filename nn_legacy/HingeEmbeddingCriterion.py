from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, reuse


class HingeEmbeddingCriterion(NumpyCriterion):
    """For distances (e.g. the output of PairwiseDistance) between pairs
    labelled similar (1) or dissimilar (-1): similar pairs pay their
    distance, dissimilar ones pay for being closer than ``margin``.  input
    ``x`` of any shape, target ``y`` of the same shape holding 1 or -1 (a
    number when x has one element).  Per element::

        loss = x                   if y ==  1
        loss = max(0, margin - x)  if y == -1

    summed and divided by the number of elements when ``sizeAverage`` (the
    default); ``margin`` defaults to 1.

    Gradient: ``dL/dx = 1`` for y = 1, ``-1`` for y = -1 while
    ``x <= margin`` and 0 beyond it (at ``x == margin`` Torch7's -1 is
    kept); divided likewise.

    Labels other than 1 and -1 raise ValueError (Torch7 added both branches
    of the loss for them and copied the label into the gradient).
    """

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__()
        self.margin = self._number(margin, "margin")
        self.sizeAverage = bool(sizeAverage)

    def _checked(self, input, target):
        x = self._contiguous(input)
        return x, self._labels(target, x.shape, x.dtype, array_namespace(x))

    def _scale(self, x):
        return 1 / x.size if self.sizeAverage and x.size else 1

    def updateOutput(self, input, target):
        x, y = self._checked(input, target)
        xp = array_namespace(x)
        losses = xp.where(y == 1, x, xp.maximum(self.margin - x, 0))
        self.output = float(losses.sum() * self._scale(x))
        return self.output

    def updateGradInput(self, input, target):
        x, y = self._checked(input, target)
        xp = array_namespace(x)
        self.gradInput = reuse(self.gradInput, x.shape, x.dtype, xp)
        self.gradInput[...] = xp.where((y == -1) & (x > self.margin), 0, y) * self._scale(x)
        return self.gradInput
