from .Criterion import Criterion


class MSECriterion(Criterion):
    """Mean squared error: ``loss = sum_i (x_i - t_i)^2``, divided by the
    number of elements when ``sizeAverage`` (the default).  input and target
    need the same number of elements (as in Torch7).

    Gradient: ``dL/dx_i = 2 (x_i - t_i)``, divided likewise.
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.MSECriterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).MSECriterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
