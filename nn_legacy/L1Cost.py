from .Criterion import Criterion


class L1Cost(Criterion):
    """The L1 norm of the input, ``loss = sum_i |x_i|``, as a criterion
    without target (as in Torch7 and torch.legacy.nn: ``forward(input)``,
    ``backward(input)``; passing a target is an error).  Typically added to
    another loss as a sparsity penalty on a layer's output.

    Gradient: ``dL/dx_i = sign(x_i)``, 0 where ``x_i == 0``.
    """

    _kernel = "L1Cost"

    def __init__(self):
        super().__init__()
        self.output_tensor = None

    def forward(self, input, target=None):
        return self.updateOutput(input, target)

    def backward(self, input, target=None):
        return self.updateGradInput(input, target)

    def updateOutput(self, input, target=None):
        self._no_target(target)
        self.output_tensor = self._kernel_of(input, "updateOutput")(input, self.output_tensor)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target=None):
        self._no_target(target)
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, self.gradInput)
        return self.gradInput
    @staticmethod
    def _no_target(target):
        if target is not None:
            raise TypeError(f"L1Cost takes no target (it is the L1 norm of the input), got {type(target).__name__}")
