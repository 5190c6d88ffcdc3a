import numpy as np

from .Module import Module


class HardTanh(Module):
    """Elementwise clipping to ``[min_value, max_value]``; any shape::

        y = min_value   if x < min_value
            max_value   if x > max_value
            x           otherwise

    Gradient: ``dL/dx = dL/dy where min_value < x < max_value, else 0``.

    With ``inplace=True`` the forward pass overwrites its input (``output`` is
    the input array itself) and the backward pass overwrites ``gradOutput``
    (``gradInput`` is that array).  ``max_value`` must exceed ``min_value``.
    Torch7's defaults: ``HardTanh(-1, 1, False)``.
    """

    _kernel = "HardTanh"

    inplace = False  # for Torch7 files older than the in-place option

    def __init__(self, min_value=-1, max_value=1, inplace=False):
        super().__init__()
        self.min_val = float(min_value)
        self.max_val = float(max_value)
        self.inplace = bool(inplace)
        if not self.max_val > self.min_val:
            raise ValueError(f"HardTanh: max_value must be greater than min_value, "
                             f"got min_value={self.min_val}, max_value={self.max_val}")

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.min_val, self.max_val, self.inplace)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.min_val, self.max_val, self.inplace)
        return self.gradInput

    def __repr__(self):
        return f"nn.HardTanh({self.min_val:g}, {self.max_val:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Clip"""
        return g.op("Clip", [x, np.array(self.min_val, dtype=x.dtype), np.array(self.max_val, dtype=x.dtype)])
