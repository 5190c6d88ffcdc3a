import numpy as np

from .CAdd import CAdd


class Add(CAdd):
    """Adds a learned bias: ``y = x + b``.

    ``b`` (``bias``) has ``inputSize`` elements, or one with
    ``scalar=True``, which is then added to every element.  Otherwise the
    input is one sample of ``inputSize`` elements (any shape) or a batch
    ``[batch, ...]`` with ``inputSize`` elements per sample (CAdd's rules).
    Gradients: ``dL/dx = dL/dy``; ``dL/db += scale * dL/dy``, summed over
    the batch (over every element for a scalar b).  reset() draws b from
    U(-1/sqrt(n), 1/sqrt(n)), n the number of elements of b.
    """

    scalar = False  # Torch7 files leave it out when false

    def __init__(self, inputSize, scalar=False):
        self.scalar = bool(scalar)
        if not self.scalar and not (isinstance(inputSize, (int, np.integer)) and inputSize > 0):
            raise ValueError(f"Add: inputSize must be a positive integer, got {inputSize}")
        super().__init__(1 if self.scalar else int(inputSize))

    def _bias_view(self, input):
        if self.scalar:
            self._kernels(input)
            return self.bias.reshape((1,) * input.ndim)
        return super()._bias_view(input)

    def __repr__(self):
        return f"nn.Add({'scalar' if self.scalar else self.bias.size})"
