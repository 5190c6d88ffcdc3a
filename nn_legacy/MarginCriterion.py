from .Criterion import Criterion


class MarginCriterion(Criterion):
    """Two-class hinge loss for targets of 1 or -1:
    ``loss = sum_i max(0, margin - t_i x_i)``, divided by the number of
    elements when ``sizeAverage`` (the default).  input and target need the
    same number of elements.

    Gradient: ``dL/dx_i = -t_i`` where ``margin - t_i x_i > 0``, else 0
    (divided likewise).
    """

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__()
        self.margin = float(margin)
        self.sizeAverage = bool(sizeAverage)
        self.output_tensor = None

    def updateOutput(self, input, target):
        k = self._kernels(input)
        self.output_tensor = k.MarginCriterion_updateOutput(
            input, self._float_target(input, target), self.output_tensor, self.sizeAverage, self.margin)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self._kernels(input).MarginCriterion_updateGradInput(
            input, self._float_target(input, target), self.gradInput, self.sizeAverage, self.margin)
        return self.gradInput

    # before October 2014 there was no sizeAverage (and one sample at a
    # time); Torch7 passed the missing field on as false: a sum
    _t7_absent = {"sizeAverage": False}

    def _t7_fixup(self, version):
        """After load_lua: Lua numbers arrive as floats and indices 1-based."""
        self.margin = float(self.margin)

    def __repr__(self):
        return f"nn.MarginCriterion({self.margin:g})"
