from .Criterion import Criterion


class DistKLDivCriterion(Criterion):
    """Kullback-Leibler divergence of the input distribution from the target,
    for an input of log-probabilities (the output of LogSoftMax) and a target
    of probabilities: ``loss = sum_{i: t_i > 0} t_i (log t_i - x_i)``, divided
    by the number of elements when ``sizeAverage`` (the default).  Elements
    with ``t_i <= 0`` count for nothing (``0 log 0 = 0``; Torch7 skipped
    negative targets the same way).  input and target need the same number
    of elements.

    Gradient: ``dL/dx_i = -t_i`` where ``t_i > 0``, else 0 (divided likewise).
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.DistKLDivCriterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).DistKLDivCriterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
