from ._bases.softmax import FeatureSoftMax


class SoftMax(FeatureSoftMax):
    """``y_i = exp(x_i) / sum_j exp(x_j)`` over the feature dimension.

    ``SoftMax()`` follows Torch7: the feature dimension is dim 0 of a 1D
    ``[n]`` or 3D ``[n, h, w]`` input and dim 1 of a 2D ``[batch, n]`` or 4D
    ``[batch, n, h, w]`` input (the 3D and 4D forms take a softmax at every
    pixel).  ``SoftMax(dim)`` takes it over ``dim`` (0-based, negative from
    the end) of an input of any number of dims, as torch.legacy.nn's
    ``SoftMax(dim)`` did (Lua Torch7 had no such argument).  Computed with
    the maximum subtracted first, so large inputs do not overflow.

    Gradient: ``dL/dx_i = y_i (dL/dy_i - sum_j y_j dL/dy_j)``.
    """

    _kernel = "SoftMax"

    def _onnx(self, g, x, y):
        """Softmax over the feature dim (Torch7's rule: dim 0 of 1D and 3D input, 1 of 2D and 4D; or dim)"""
        return g.op("Softmax", [x], axis=self._onnx_axis(x))
