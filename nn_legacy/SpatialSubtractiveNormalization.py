import numpy as np

from ._helpers.arrays import check_like, reuse
from ._bases.local_mean import LocalMean
from ._helpers.namespace import array_namespace


class SpatialSubtractiveNormalization(LocalMean):
    """Each pixel minus the weighted mean of its neighbourhood over all
    planes.  With ``kernel`` a 2D ``[kH, kW]`` array of odd sizes (a 1D
    kernel k stands for ``outer(k, k)``) and ``W = kernel / (nInputPlane *
    sum(kernel))``, the local mean of each sample is one plane::

        E(x)[y, x] = sum over planes c and taps i, j of
                     W[i, j] * x[c, y + i - kH//2, x + j - kW//2]     (0 outside the image)

    and every plane of the output is::

        output[c] = input[c] - E(input) / E(1)

    ``E(1)`` (``coef``) is 1 inside the image and corrects the border, where
    part of the window lies outside.  input ``[nInputPlane, H, W]`` or
    ``[batch, nInputPlane, H, W]``; each sample is normalised on its own.

    Gradient: ``dL/dx = dL/dy - E^T(sum over planes of dL/dy / E(1))``, with
    ``E^T`` the transpose of the linear map E.  Defaults (Torch7's):
    ``nInputPlane = 1``, a 9x9 kernel of ones.  The result does not depend
    on the kernel's scale; ``kernel`` holds it scaled to sum
    ``1 / nInputPlane``, as in Torch7.
    """

    def _t7_unfixup(self, fields):
        """save_lua: what Torch7's constructor made (its forward reads them): the mean estimator in its
        layout, the CSubTable and CDivTable, and a coef of one element (made again at the first forward)."""
        from .CDivTable import CDivTable
        from .CSubTable import CSubTable
        dtype = self.meanestimator.modules[1].weight.dtype
        fields["meanestimator"] = torch7_estimator(self)
        fields["subtractor"], fields["divider"] = CSubTable(), CDivTable()
        fields["coef"] = np.ones((1, 1, 1), dtype)

    def updateOutput(self, input):
        xp = array_namespace(input)
        coef = self._check(input)
        x = xp.ascontiguousarray(input)   # the same sums whatever the layout
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.subtract(x, self._mean(x) / coef, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        coef = self._check(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        x, g = xp.ascontiguousarray(input), xp.ascontiguousarray(gradOutput)
        spread = self._mean_backward(x, g.sum(axis=-3, keepdims=True) / coef)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.subtract(g, spread, out=self.gradInput)
        return self.gradInput

    def _onnx(self, g, x, y):
        """x - E(x) / E(1), E a Conv"""
        mean, coef = self._onnx_mean(g, x)
        return g.op("Sub", [x, g.op("Div", [mean, coef])])


def torch7_estimator(self, kernel=None, std=False):
    """save_lua: the mean estimator as Torch7's constructor built it (padding, then a convolution of the
    planes to one, in two separable passes for a 1D kernel, then Replicate of the result over the
    planes), in the module's type; std=True: the std estimator (Square first, Sqrt last)."""
    from .Replicate import Replicate
    from .Sequential import Sequential
    from .SpatialConvolution import SpatialConvolution
    from .SpatialConvolutionMap import SpatialConvolutionMap
    from .SpatialZeroPadding import SpatialZeroPadding
    from .Sqrt import Sqrt
    from .Square import Square
    dtype = self.meanestimator.modules[1].weight.dtype
    k = np.asarray(self.kernel if kernel is None else kernel, dtype=dtype)
    n = self.nInputPlane
    padH = k.shape[0] // 2
    padW = k.shape[1] // 2 if k.ndim == 2 else padH
    est = Sequential(Square()) if std else Sequential()
    est.add(SpatialZeroPadding(padW, padW, padH, padH))
    if k.ndim == 2:
        conv = SpatialConvolution(n, 1, k.shape[1], k.shape[0]).type(dtype)
        conv.weight[0] = k
        conv.bias[...] = 0
        est.add(conv)
    else:
        rows = SpatialConvolutionMap(SpatialConvolutionMap.oneToOne(n), k.shape[0], 1).type(dtype)
        rows.weight[...] = k.reshape(1, 1, -1)
        rows.bias[...] = 0
        cols = SpatialConvolution(n, 1, 1, k.shape[0]).type(dtype)
        cols.weight[0] = k.reshape(-1, 1)
        cols.bias[...] = 0
        est.add(rows).add(cols)
    est.add(Replicate(n, 0, 3))
    if std:
        est.add(Sqrt())
    return est.type(dtype)
