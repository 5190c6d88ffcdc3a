from .Criterion import Criterion


class SmoothL1Criterion(Criterion):
    """Huber loss with threshold 1: with ``d_i = x_i - t_i``,
    ``loss = sum_i (0.5 d_i^2 if |d_i| < 1 else |d_i| - 0.5)``, divided by the
    number of elements when ``sizeAverage`` (the default).  input and target
    need the same number of elements.

    Gradient: ``dL/dx_i = d_i`` clipped to ``[-1, 1]`` (divided likewise).
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.SmoothL1Criterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).SmoothL1Criterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
