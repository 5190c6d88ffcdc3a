import numpy as np

from .Module import Module
from ._helpers.onnx_types import NotExportable


class PReLU(Module):
    """Parametric rectifier with learned slopes::

        y = x          if x > 0
            w[c] * x   otherwise

    ``PReLU()`` (``nOutputPlane=0``) learns one slope shared by every element
    of an input of any shape.  ``PReLU(n)`` learns one slope per channel:
    the channel is dim 0 of a 1D ``[n]`` or 3D ``[n, h, w]`` input and dim 1
    of a 2D ``[batch, n]`` or 4D ``[batch, n, h, w]`` input.  That is
    Torch7's layout: a 3D input is one sample ``[n, h, w]``.  PyTorch (and
    the torch.legacy.nn of its later versions) reads 3D input as
    ``[batch, n, length]`` instead; such an input (channels in dim 1 only)
    is refused with a ValueError saying so: add a dim, ``x[..., None]``,
    to make it the 4D batch it is.
    ``weight`` is ``[max(nOutputPlane, 1)]``, initialised to 0.25 as in Torch7.

    Gradients: ``dL/dx = dL/dy where x > 0, else w[c] * dL/dy``;
    ``dL/dw[c] += scale * sum of x * dL/dy`` over the elements of channel
    ``c`` (and the batch) where ``x <= 0``.
    """

    _kernel = "PReLU"

    _parameter_names = (("weight", "gradWeight"),)

    def __init__(self, nOutputPlane=0):
        super().__init__()
        if nOutputPlane < 0:
            raise ValueError(f"PReLU: nOutputPlane must be >= 0, got {nOutputPlane}")
        self.nOutputPlane = int(nOutputPlane)
        self.weight = np.full(self.nOutputPlane or 1, 0.25)
        self.gradWeight = np.zeros_like(self.weight)

    def reset(self, stdv=None):
        self.weight.fill(0.25)
        return self

    def _check_layout(self, input):
        n, shape = self.nOutputPlane, getattr(input, "shape", ())
        if n and len(shape) == 3 and shape[0] != n and shape[1] == n:
            raise ValueError(f"PReLU: input 3D of size [{', '.join(map(str, shape))}] is read as Torch7's one "
                             f"sample [{n}, h, w], and its dim 0 is not {n}; for a batch [batch, {n}, length] "
                             f"(PyTorch's layout) pass it as 4D, input[..., None]")

    def updateOutput(self, input):
        self._check_layout(input)
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.weight, self.nOutputPlane)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.nOutputPlane)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.weight, self.gradWeight, self.nOutputPlane, scale)

    def _t7_fixup(self, version):
        """Torch7 stored nOutputPlane as a Lua number (a float)."""
        self.nOutputPlane = int(self.nOutputPlane)
        for name in ("gradWeightBuf", "gradWeightBuf2"):   # Torch7's work buffers
            self.__dict__.pop(name, None)

    def __repr__(self):
        return f"nn.PReLU({self.nOutputPlane})" if self.nOutputPlane else "nn.PReLU"

    def _onnx(self, g, x, y):
        """PRelu (the slopes shaped to broadcast over the channel dim)"""
        if not self.nOutputPlane:
            return g.op("PRelu", [x, g.param(self.weight, "weight")])
        channel = 0 if x.ndim in (1, 3) else 1
        if x.ndim > 4 or x.shape[channel] != self.nOutputPlane:
            raise NotExportable(f"input of size {list(x.shape)} does not have {self.nOutputPlane} channels")
        slopes = self.weight.reshape((-1,) + (1,) * (x.ndim - channel - 1))
        return g.op("PRelu", [x, g.param(slopes, "weight")])
