import numpy as np

from ._helpers.arrays import parameter_shape
from .CAdd import CAdd
from .Module import uniform


class Add(CAdd):
    """Adds a learned bias: ``y = x + b``.

    ``b`` (``bias``) has the shape ``inputSize``: a number (``Add(5)``), or a
    shape for a multi-dimensional bias (``Add((3, 4))``, or the LongStorage
    of sizes a Torch7 file holds, read as a 1D integer array), as Torch7's
    ``torch.Tensor(inputSize)``.  With ``scalar=True`` b is one number added
    to every element (inputSize is then ignored, as in Torch7).  Otherwise
    the input is one sample of b's shape (or of as many elements) or a batch
    ``[batch, ...]`` of them (CAdd's rules).  Gradients: ``dL/dx = dL/dy``;
    ``dL/db += scale * dL/dy``, summed over the batch (over every element for
    a scalar b).  reset() draws b from U(-1/sqrt(n), 1/sqrt(n)) with n the
    size of b's first dim, as Torch7 (the element count for a 1D b).
    """

    scalar = False  # Torch7 files leave it out when false

    def __init__(self, inputSize, scalar=False):
        self.scalar = bool(scalar)
        if self.scalar:
            shape = (1,)
        else:
            if isinstance(inputSize, np.ndarray) and inputSize.ndim == 1 and inputSize.dtype.kind in "iu":
                inputSize = tuple(int(n) for n in inputSize)
            try:
                shape = parameter_shape(self, (inputSize,))
            except ValueError:
                raise ValueError(f"Add: inputSize must be a positive integer or a shape (a tuple of positive "
                                 f"integers), got {inputSize!r}") from None
        super().__init__(shape)

    def reset(self, stdv=None):
        if stdv is None:
            stdv = 1 / np.sqrt(self.bias.shape[0])
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def _bias_view(self, input):
        if self.scalar:
            self._kernels(input)
            return self.bias.reshape((1,) * input.ndim)
        return super()._bias_view(input)

    def __repr__(self):
        if self.scalar:
            return "nn.Add(scalar)"
        shape = self.bias.shape
        return f"nn.Add({shape[0]})" if len(shape) == 1 else f"nn.Add({shape})"
