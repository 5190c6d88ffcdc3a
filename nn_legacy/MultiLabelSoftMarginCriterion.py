import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse


class MultiLabelSoftMarginCriterion(NumpyCriterion):
    """One-versus-all logistic loss for multi-label classification: input
    ``x`` of scores ``[nClasses]`` or ``[batch, nClasses]``, target ``y`` of
    the same shape holding 1 where the class is present and 0 where it is
    not (probabilities in [0, 1] are accepted too).  With
    ``p = sigmoid(x) = 1 / (1 + exp(-x))``, per element::

        loss = -w[c] (y log(p) + (1 - y) log(1 - p))

    summed, and divided by the number of elements when ``sizeAverage`` (the
    default).  ``weights`` (optional, ``[nClasses]``) scales each class
    ``c``, the same for every sample.

    Gradient: ``dL/dx = w[c] (p - y)``, divided likewise.

    Torch7 runs Sigmoid then BCECriterion, whose logs carry a 1e-12 guard;
    here ``log(p)`` is computed from the scores as ``-log(1 + exp(-x))``,
    which gives the same loss to rounding for moderate scores and stays
    exact (and finite) for large ones.  ``sizeAverage=False`` sums over
    every element as Torch7 and torch.legacy.nn did (PyTorch's
    ``reduction='sum'`` also divides by nClasses).  Targets outside [0, 1]
    raise ValueError.
    """

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        self.weights = None if weights is None else np.array(weights, dtype=np.float64)
        if self.weights is not None and self.weights.ndim != 1:
            raise ValueError(f"{self._name()}: weights must be 1D [nClasses], got {described(self.weights.shape)}")
        self.sizeAverage = bool(sizeAverage)

    def _checked(self, input, target):
        x = self._contiguous(input)
        if x.ndim not in (1, 2):
            raise ValueError(f"{self._name()}: input must be 1D [nClasses] or 2D [batch, nClasses], "
                             f"got {described(x.shape)}")
        xp = array_namespace(x)
        y = self._shaped_target(target, x.shape, x.dtype, "0 or 1 per class", xp)
        outside = ~((y >= 0) & (y <= 1))
        if outside.any():
            index = tuple(int(i) for i in xp.argwhere(outside)[0])
            raise ValueError(f"{self._name()}: target must lie in [0, 1], got {float(y[outside][0]):g} "
                             f"at index {index[0] if len(index) == 1 else index}")
        w = None
        if self.weights is not None:
            if self.weights.shape != x.shape[-1:]:
                raise ValueError(f"{self._name()}: weights must be 1D of size [{x.shape[-1]}] (one per class of "
                                 f"input {described(x.shape)}), got {described(self.weights.shape)}")
            w = self.weights.astype(x.dtype)  # a copy: self.weights keeps its precision
        return x, y, w

    def _scale(self, x):
        return 1 / x.size if self.sizeAverage and x.size else 1

    def updateOutput(self, input, target):
        x, y, w = self._checked(input, target)
        xp = array_namespace(x)
        # -log(p) = log(1 + exp(-x)) and -log(1 - p) = log(1 + exp(x)), overflow-free
        with np.errstate(invalid="ignore"):  # a NaN score gives a NaN loss, without a warning
            losses = y * xp.logaddexp(0, -x) + (1 - y) * xp.logaddexp(0, x)
        if w is not None:
            losses *= w
        self.output = float(losses.sum() * self._scale(x))
        return self.output

    def updateGradInput(self, input, target):
        x, y, w = self._checked(input, target)
        xp = array_namespace(x)
        self.gradInput = reuse(self.gradInput, x.shape, x.dtype, xp)
        with np.errstate(invalid="ignore"):
            xp.exp(-xp.logaddexp(0, -x), out=self.gradInput)  # sigmoid(x), without overflow
        self.gradInput -= y
        if w is not None:
            self.gradInput *= w
        self.gradInput *= self._scale(x)
        return self.gradInput
