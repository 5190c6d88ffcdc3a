import numpy as np

from ._helpers.namespace import array_namespace
from .Criterion import Criterion


class BCECriterion(Criterion):
    """Binary cross-entropy of probabilities x in [0, 1] (the output of
    Sigmoid) against targets t (usually 0 or 1):
    ``loss = -sum_i w_i (t_i log x_i + (1 - t_i) log(1 - x_i))``, divided by
    the number of elements when ``sizeAverage`` (the default).

    Each log is clamped below at -100, as PyTorch does, so a probability of
    exactly 0 or 1 gives a large finite loss instead of inf (Torch7 added
    1e-12 inside the logs instead; the two agree to about 1e-12 away from 0
    and 1).  An input outside [0, 1] (or NaN) is an error.

    ``weights`` (optional) holds one weight per element: an array of input's
    shape or of the same number of elements, or anything that broadcasts to
    input's shape, such as ``[nClasses]`` for a ``[batch, nClasses]`` input
    (Torch7's per-class case).

    Gradient: ``dL/dx_i = w_i (x_i - t_i) / max(x_i (1 - x_i), 1e-12)``
    (divided likewise).
    """

    _kernel = "BCECriterion"

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float64)
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def _weights(self, input):
        xp = array_namespace(input)
        if self.weights is None:
            return None
        # a converted copy: storing it would round float64 weights to float32
        # for good after a single float32 call
        weights = self.weights.astype(input.dtype, copy=False)
        if weights.size == input.size:
            return weights
        try:
            return xp.broadcast_to(weights, input.shape)
        except ValueError:
            raise ValueError(f"BCECriterion: weights must have input's number of elements or broadcast to "
                             f"its shape {list(input.shape)}, got shape {list(self.weights.shape)}") from None

    def updateOutput(self, input, target):
        self.output_tensor = self._kernel_of(input, "updateOutput")(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage,
            self._weights(input))
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage,
            self._weights(input))
        return self.gradInput
