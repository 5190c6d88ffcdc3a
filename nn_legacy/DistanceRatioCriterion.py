import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse_table


class DistanceRatioCriterion(NumpyCriterion):
    """The probabilistic triplet loss of Torch7's DistanceRatioCriterion
    (arXiv:1610.00243): input ``[X, Y]``, where ``X`` holds the distances
    between anchors and their positives and ``Y`` those between the same
    anchors and their negatives, two arrays of one shape ``[batch]`` (or
    ``[batch, ...]``).  Per element::

        loss = -log(exp(-X) / (exp(-X) + exp(-Y)))
             = X + log(exp(-X) + exp(-Y)) = log(1 + exp(X - Y))

    summed and divided by ``batch`` (the first dimension, as in Torch7) when
    ``sizeAverage`` (the default).

    Gradient, with ``s = 1 / (1 + exp(Y - X))`` (the softmax weight of the
    negative)::

        dL/dX = s,  dL/dY = -s

    divided likewise.  gradInput is a table ``[dL/dX, dL/dY]``.

    Torch7 evaluates the second form, where exp(-X) and exp(-Y) underflow
    to 0 once both distances exceed about 745 and the loss becomes -inf;
    the last form is used here, equal to rounding elsewhere.  The target is
    ignored, as in Torch7.
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)

    def _difference(self, input):
        """X, and X - Y."""
        x, y = self._pair(input)
        if x.ndim == 0:
            raise ValueError(f"{self._name()}: input[0] and input[1] must be at least 1D [batch], "
                             f"got {described(x.shape)}")
        return x, x - y

    def _scale(self, x):
        return 1 / x.shape[0] if self.sizeAverage and x.shape[0] else 1

    def updateOutput(self, input, target=None):
        x, d = self._difference(input)
        with np.errstate(invalid="ignore"):  # NaN distances give a NaN loss, without a warning
            self.output = float(array_namespace(d).logaddexp(0, d).sum() * self._scale(x))
        return self.output

    def updateGradInput(self, input, target=None):
        x, d = self._difference(input)
        xp = array_namespace(x)
        self.gradInput = reuse_table(self.gradInput, [x.shape, x.shape], x.dtype, xp)
        gx, gy = self.gradInput
        with np.errstate(invalid="ignore"):
            xp.exp(-xp.logaddexp(0, -d), out=gx)  # sigmoid(X - Y)
        gx *= self._scale(x)
        xp.subtract(0, gx, out=gy)
        return self.gradInput

    def forward(self, input, target=None):
        return self.updateOutput(input, target)

    def backward(self, input, target=None):
        return self.updateGradInput(input, target)
