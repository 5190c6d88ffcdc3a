"""The base of the criterions that sum one formula over the elements of
input and target: their kernels take ``(input, target, output, sizeAverage)``
and ``(input, target, gradInput, sizeAverage)``, so such a criterion is its
docstring and its kernel name (``_kernel``)."""
from ..Criterion import Criterion


class PointwiseCriterion(Criterion):
    """A sum over elements, divided by their number when ``sizeAverage`` (the
    default).  input and target need the same number of elements."""

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        self.output_tensor = self._kernel_of(input, "updateOutput")(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
