from ._arrays import check_like, describe, reuse
from ._namespace import array_namespace
from .Module import Module


class SoftMin(Module):
    """``y_i = exp(-x_i) / sum_j exp(-x_j)`` over the feature dimension: the
    softmax of ``-x``, computed by the SoftMax kernels.

    The feature dimension is dim 0 of a 1D ``[n]`` or 3D ``[n, h, w]`` input
    and dim 1 of a 2D ``[batch, n]`` or 4D ``[batch, n, h, w]`` input, as for
    SoftMax.  Gradient: ``dL/dx_i = -y_i (dL/dy_i - sum_j y_j dL/dy_j)``
    (the SoftMax gradient at ``-x``, negated).
    """

    _buffer_names = ("_negated",)
    _negated = None  # also for modules loaded from Torch7 files

    def _negate(self, input):
        """-input in a buffer, with the checks SoftMax would make, named for SoftMin."""
        xp = array_namespace(input)
        kernels = self._kernels(input)
        if not 1 <= input.ndim <= 4:
            raise ValueError(f"SoftMin: input must be 1D, 2D, 3D or 4D, got {describe(input)}")
        self._negated = reuse(self._negated, input.shape, input.dtype, input)
        xp.negative(input, out=self._negated)
        return kernels

    def updateOutput(self, input):
        kernels = self._negate(input)
        self.output = kernels.SoftMax_updateOutput(self._negated, self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        kernels = self._negate(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        gradInput = reuse(self.gradInput, input.shape, input.dtype, gradOutput)
        self.gradInput = kernels.SoftMax_updateGradInput(self._negated, gradOutput, gradInput, self.output)
        xp.negative(self.gradInput, out=self.gradInput)
        return self.gradInput
