from .Criterion import Criterion


class AbsCriterion(Criterion):
    """Mean absolute error: ``loss = sum_i |x_i - t_i|``, divided by the number
    of elements when ``sizeAverage`` (the default).  input and target need the
    same number of elements.

    Gradient: ``dL/dx_i = sign(x_i - t_i)`` (divided likewise), taken as +1
    where ``x_i == t_i``, as in Torch7 (PyTorch's ``l1_loss`` uses 0 there).
    """

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.AbsCriterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).AbsCriterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage)
        return self.gradInput
