from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse_table


class CosineEmbeddingCriterion(NumpyCriterion):
    """Pulls pairs labelled 1 together and pushes pairs labelled -1 apart,
    by the cosine of their angle.  input ``[x1, x2]``: two arrays ``[batch,
    dim]`` (or ``[dim]`` for one pair), target ``y``: ``batch`` labels, each
    1 or -1 (a number for one pair).  Per pair::

        cos = <x1, x2> / sqrt((|x1|^2 + eps) (|x2|^2 + eps)),  eps = 1e-12
        loss = 1 - cos                 if y ==  1
        loss = max(0, cos - margin)    if y == -1

    summed over the pairs and divided by ``batch`` when ``sizeAverage``
    (the default).  ``margin`` (default 0) should lie in [-1, 1].

    Gradient, with ``w = 1 / sqrt((|x1|^2 + eps) (|x2|^2 + eps))``::

        dcos/dx1 = w x2 - cos x1 / (|x1|^2 + eps)
        dcos/dx2 = w x1 - cos x2 / (|x2|^2 + eps)

    ``dloss/dx = -dcos/dx`` for y = 1, ``+dcos/dx`` for y = -1 while
    ``cos > margin`` and 0 otherwise; divided likewise.  gradInput is a
    table ``[dL/dx1, dL/dx2]``.

    One pair given as ``[dim]`` arrays with a number label follows Torch7;
    torch.legacy.nn took batches only.  Labels other than 1 and -1 raise
    ValueError (Torch7 added the raw cosine to the loss for them).
    """

    EPS = 1e-12

    # files from before August 2015 have no sizeAverage; Torch7's code read the
    # missing field as false: a sum
    _t7_absent = {"sizeAverage": False}

    def __init__(self, margin=0, sizeAverage=True):
        super().__init__()
        self.margin = self._number(margin, "margin")
        self.sizeAverage = bool(sizeAverage)

    def _cosines(self, input, target):
        x1, x2 = self._pair(input)
        if x1.ndim not in (1, 2):
            raise ValueError(f"{self._name()}: input[0] and input[1] must be 1D [dim] or 2D [batch, dim], "
                             f"got {described(x1.shape)}")
        a, b = (x1[None], x2[None]) if x1.ndim == 1 else (x1, x2)
        xp = array_namespace(x1)
        y = self._labels(target, (a.shape[0],), x1.dtype, xp)
        sq1 = (a * a).sum(axis=1) + self.EPS
        sq2 = (b * b).sum(axis=1) + self.EPS
        w = 1 / xp.sqrt(sq1 * sq2)
        cos = (a * b).sum(axis=1) * w
        return x1, a, b, y, sq1, sq2, w, cos

    def _scale(self, n):
        return 1 / n if self.sizeAverage and n else 1

    def updateOutput(self, input, target):
        _, a, _, y, _, _, _, cos = self._cosines(input, target)
        xp = array_namespace(a)
        losses = xp.where(y == 1, 1 - cos, xp.maximum(cos - self.margin, 0))
        self.output = float(losses.sum() * self._scale(len(y)))
        return self.output

    def updateGradInput(self, input, target):
        x1, a, b, y, sq1, sq2, w, cos = self._cosines(input, target)
        # d loss / d cos per pair: -1 for y = 1; 1 for y = -1 beyond the margin, else 0
        xp = array_namespace(x1)
        slope = xp.where(y == 1, -1, (cos > self.margin).astype(x1.dtype)) * self._scale(len(y))
        self.gradInput = reuse_table(self.gradInput, [x1.shape, x1.shape], x1.dtype, xp)
        g1, g2 = (g.reshape(a.shape) for g in self.gradInput)
        g1[...] = (slope * w)[:, None] * b - (slope * cos / sq1)[:, None] * a
        g2[...] = (slope * w)[:, None] * a - (slope * cos / sq2)[:, None] * b
        return self.gradInput
