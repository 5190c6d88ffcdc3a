import numpy as np

from .Criterion import Criterion


class MultiMarginCriterion(Criterion):
    """Multi-class hinge loss.  input ``[dim]`` with an int target, or
    ``[batch, dim]`` with an integer array of ``batch`` 0-based targets.  For
    one sample with target class ``y``:
    ``loss = sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / dim``;
    summed over the batch and divided by ``batch`` when ``sizeAverage`` (the
    default).  ``p`` is 1 or 2; ``weights`` (``[dim]``, optional) scales each
    target class.

    Gradient: each term with a positive hinge ``z`` adds
    ``h = w[y] (1 if p == 1 else 2 z) / dim`` to ``x[i]`` and ``-h`` to
    ``x[y]`` (divided likewise).
    """

    _kernel = "MultiMarginCriterion"

    def __init__(self, p=1, weights=None, margin=1, sizeAverage=True):
        super().__init__()
        if p not in (1, 2):
            raise ValueError(f"MultiMarginCriterion: p must be 1 or 2, got {p!r}")
        self.p = int(p)
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float64)
        if self.weights is not None and self.weights.ndim != 1:
            raise ValueError(f"MultiMarginCriterion: weights must be 1D [dim], got shape {self.weights.shape}")
        self.margin = float(margin)
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def _weights(self, input):
        # a converted copy: storing it would round float64 weights to float32
        # for good after a single float32 call
        if self.weights is not None and self.weights.dtype != input.dtype:
            return self.weights.astype(input.dtype)
        return self.weights

    def updateOutput(self, input, target):
        self.output_tensor = self._kernel_of(input, "updateOutput")(
            input, self._index_target(input, target), self.output_tensor, self.sizeAverage, self.p,
            self._weights(input), self.margin)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, self._index_target(input, target), self.gradInput, self.sizeAverage, self.p,
            self._weights(input), self.margin)
        return self.gradInput

    def _t7_fixup(self, version):
        """After load_lua: Lua numbers arrive as floats and indices 1-based."""
        self.p, self.margin = int(self.p), float(self.margin)  # Lua numbers are floats

    def __repr__(self):
        return f"nn.MultiMarginCriterion(p={self.p}, margin={self.margin:g})"
