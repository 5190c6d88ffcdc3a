from ._helpers import random as _random
from ._helpers.namespace import array_namespace
from .Module import Module


class RReLU(Module):
    """Randomized leaky rectifier, elementwise; any shape::

        y = x       if x > 0
            a * x   otherwise

    In training mode each element gets its own slope ``a ~ U(lower, upper)``,
    drawn afresh at every forward from the nn_legacy generator (so
    ``nn_legacy.manualSeed`` repeats them); after the forward ``self.noise``
    holds ``dy/dx`` for every element (the slope where ``x <= 0``, 1
    elsewhere).  In evaluation mode (``evaluate()``) the slope is fixed at
    ``(lower + upper) / 2``.

    Gradient: ``dL/dx = dL/dy * noise`` in training, ``dL/dy`` where
    ``x > 0`` and ``dL/dy * (lower + upper) / 2`` elsewhere in evaluation.

    With ``inplace=True`` the forward pass overwrites its input (``output`` is
    the input array itself) and the backward pass overwrites ``gradOutput``
    (``gradInput`` is that array).  Needs ``0 <= lower <= upper``.
    Torch7's defaults: ``RReLU(1/8, 1/3, False)``.
    """

    _kernel = "RReLU"

    _buffer_names = ("noise",)

    def __init__(self, lower=1 / 8, upper=1 / 3, inplace=False):
        super().__init__()
        self.lower = float(lower)
        self.upper = float(upper)
        self.inplace = bool(inplace)
        if not 0 <= self.lower <= self.upper:
            raise ValueError(f"RReLU: the bounds must satisfy 0 <= lower <= upper, "
                             f"got lower={self.lower}, upper={self.upper}")
        self.noise = None

    def updateOutput(self, input):
        kernel = self._kernel_of(input, "updateOutput")   # (checks the input before the noise takes its dtype)
        if self.train:
            # the kernel has no generator: it applies the slopes drawn here
            self.noise = _random.uniform(array_namespace(input), self.lower, self.upper, input.shape, input.dtype)
        self.output = kernel(
            input, self.output, self.noise if self.train else None, self.lower, self.upper, self.train,
            self.inplace)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.noise if self.train else None, self.lower, self.upper,
            self.train, self.inplace)
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7's later RReLU could share one slope per channel; this one
        draws one per element, so refuse such a file rather than change it."""
        if getattr(self, "channelwise", False):
            from ._helpers.lua import T7Error
            raise T7Error("RReLU: channel-wise slopes (Torch7's channelwise=true) are not supported")
        self.noise = None

    def __repr__(self):
        return f"nn.RReLU({self.lower:g}, {self.upper:g}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """LeakyRelu with the mean slope (evaluation)"""
        from .LeakyReLU import _leaky
        return _leaky(g, x, (self.lower + self.upper) / 2)
