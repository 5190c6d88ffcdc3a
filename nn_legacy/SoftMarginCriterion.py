from .Criterion import Criterion


class SoftMarginCriterion(Criterion):
    """Two-class logistic loss for targets of 1 or -1:
    ``loss = sum_i log(1 + exp(-t_i x_i))``, divided by the number of elements
    when ``sizeAverage`` (the default).  input and target need the same number
    of elements.  Computed without overflow for large ``|x|`` (Torch7 returned
    inf there).

    Gradient: ``dL/dx_i = -t_i / (1 + exp(t_i x_i))`` (divided likewise).
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.SoftMarginCriterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).SoftMarginCriterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
