import numpy as np

from .Criterion import Criterion


class MultiLabelMarginCriterion(Criterion):
    """Multi-class, multi-label hinge loss.  input ``[dim]`` or
    ``[batch, dim]`` of scores; target an integer array of the same shape
    whose row lists the sample's classes, 0-based, followed by -1 padding:
    ``[3, 0, -1, 1]`` means classes {3, 0} (everything after the first -1 is
    ignored).  Torch7 used 1-based classes padded with 0, so a Torch7 target
    ``T`` is ``T - 1`` here.  Every value must lie in ``[-1, dim)``.

    For one sample with target set ``J``:
    ``loss = sum_{j in J} sum_{i not in J} max(0, 1 - (x[j] - x[i])) / dim``;
    summed over the batch and divided by ``batch`` when ``sizeAverage`` (the
    default).  A class listed twice counts twice.

    Gradient: each term with a positive hinge adds ``-1/dim`` to ``x[j]`` and
    ``+1/dim`` to ``x[i]`` (divided likewise).  ``isTarget`` is a work
    buffer (1 where a class is in its row's set).
    """

    _kernel = "MultiLabelMarginCriterion"

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None
        self.isTarget = None

    def updateOutput(self, input, target):
        self.output_tensor, self.isTarget = self._kernel_of(input, "updateOutput")(
            input, self._index_target(input, target), self.output_tensor, self.isTarget, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput, self.isTarget = self._kernel_of(input, "updateGradInput")(
            input, self._index_target(input, target), self.gradInput, self.isTarget, self.sizeAverage)
        return self.gradInput

    def _t7_fixup(self, version):
        # Torch7's constructor made isTarget an empty tensor (save_lua writes one too): no buffer yet
        if isinstance(self.isTarget, np.ndarray) and self.isTarget.size == 0:
            self.isTarget = None

    def clearState(self):
        self.isTarget = None
        return super().clearState()
