from ._bases.softmax import FeatureSoftMax


class LogSoftMax(FeatureSoftMax):
    """``y_i = x_i - log sum_j exp(x_j)`` over the feature dimension: by
    Torch7's rule without argument (dim 0 of 1D and 3D input, dim 1 of 2D
    and 4D, as SoftMax), or ``dim`` (0-based, negative from the end) as
    torch.legacy.nn's ``LogSoftMax(dim)``.  Computed as
    ``x_i - m - log sum_j exp(x_j - m)`` with m the maximum.

    Gradient: ``dL/dx_i = dL/dy_i - exp(y_i) sum_j dL/dy_j``.
    """

    _kernel = "LogSoftMax"

    def _onnx(self, g, x, y):
        """LogSoftmax over the feature dim (Torch7's rule: dim 0 of 1D and 3D input, 1 of 2D and 4D; or dim)"""
        return g.op("LogSoftmax", [x], axis=self._onnx_axis(x))
