from ._helpers.arrays import check_like, describe, reuse
from ._helpers.namespace import array_namespace
from ._bases.softmax import FeatureSoftMax


class SoftMin(FeatureSoftMax):
    """``y_i = exp(-x_i) / sum_j exp(-x_j)`` over the feature dimension: the
    softmax of ``-x``, computed by the SoftMax kernels.

    The feature dimension is SoftMax's: by Torch7's rule without argument
    (dim 0 of a 1D ``[n]`` or 3D ``[n, h, w]`` input, dim 1 of a 2D
    ``[batch, n]`` or 4D ``[batch, n, h, w]`` one), or ``dim`` (0-based,
    negative from the end) as torch.legacy.nn's ``SoftMin(dim)``.
    Gradient: ``dL/dx_i = -y_i (dL/dy_i - sum_j y_j dL/dy_j)`` (the SoftMax
    gradient at ``-x``, negated).
    """

    _kernel = "SoftMax"
    _buffer_names = ("_negated",)
    _negated = None  # also for modules loaded from Torch7 files

    def _negate(self, input):
        """-input in a buffer, with the checks SoftMax would make, named for SoftMin."""
        xp = array_namespace(input)
        kernels = self._kernels(input)
        if self.dim is None and not 1 <= input.ndim <= 4:
            raise ValueError(f"SoftMin: input must be 1D, 2D, 3D or 4D, got {describe(input)}")
        self._negated = reuse(self._negated, input.shape, input.dtype, input)
        xp.negative(input, out=self._negated)
        return kernels

    def updateOutput(self, input):
        kernels = self._negate(input)
        self._forward(kernels, self._negated)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        kernels = self._negate(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        if self.dim is None:
            self.gradInput = reuse(self.gradInput, input.shape, input.dtype, gradOutput)
        self._backward(kernels, self._negated, gradOutput)
        xp.negative(self.gradInput, out=self.gradInput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Softmax of -x over the feature dim"""
        return g.op("Softmax", [g.op("Neg", [x])], axis=self._onnx_axis(x))
