import numpy as np

from ._helpers.arrays import check_like, name_of, reuse
from ._bases.local_mean import LocalMean, checked_number
from ._helpers.namespace import array_namespace


class SpatialDivisiveNormalization(LocalMean):
    """Each pixel divided by the local standard deviation of its
    neighbourhood over all planes.  With the local mean ``E`` of
    SpatialSubtractiveNormalization (the same kernel rules)::

        std    = sqrt(E(input^2)) / E(1)
        s      = std where std > threshold, else thresval
        output[c] = input[c] / s

    (``E(1)``, ``coef``, is 1 inside the image and corrects the border.)
    input ``[nInputPlane, H, W]`` or ``[batch, nInputPlane, H, W]``; each
    sample is normalised on its own.

    Gradient::

        dL/ds   = -sum over planes of dL/dy * input / s^2
        dL/dstd = dL/ds where std > threshold, else 0
        dL/dx   = dL/dy / s + 2 x * E^T(dL/dstd / (E(1) * 2 sqrt(E(x^2))))

    where the last factor is taken as 0 where ``E(x^2) = 0``.  Defaults
    (Torch7's): ``nInputPlane = 1``, a 9x9 kernel of ones,
    ``threshold = 1e-4``, ``thresval = threshold``.
    """

    def __init__(self, nInputPlane=1, kernel=None, threshold=1e-4, thresval=None):
        super().__init__(nInputPlane, kernel)
        layer = name_of(self)
        self.threshold = checked_number(layer, "threshold", threshold)
        self.thresval = self.threshold if thresval is None else checked_number(layer, "thresval", thresval)

    def _t7_unfixup(self, fields):
        """save_lua: what Torch7's constructor made (its forward reads them): the mean and std estimators
        in its layout, normalizer and divider (CDivTable), thresholder (Threshold) and a coef of one
        element.  Torch7 scaled a 1D kernel by sum * sqrt(nInputPlane) (each of its two passes), a 2D one
        by sum * nInputPlane, as kept here."""
        import math

        from .CDivTable import CDivTable
        from .SpatialSubtractiveNormalization import torch7_estimator
        from .Threshold import Threshold
        kernel = np.asarray(self.kernel)
        if kernel.ndim == 1:
            kernel = kernel * math.sqrt(self.nInputPlane)
        fields["kernel"] = kernel
        dtype = self.meanestimator.modules[1].weight.dtype
        fields["meanestimator"] = torch7_estimator(self, kernel)
        fields["stdestimator"] = torch7_estimator(self, kernel, std=True)
        fields["normalizer"], fields["divider"] = CDivTable(), CDivTable()
        fields["thresholder"] = Threshold(self.threshold, self.thresval)
        fields["coef"] = np.ones((1, 1, 1), dtype)

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        self.threshold = float(self.threshold)
        self.thresval = float(self.thresval)

    def _stds(self, input, coef):
        """(sqrt(E(input^2)), std, s) as defined above."""
        xp = array_namespace(input)
        root = xp.sqrt(self._mean(input * input))
        std = root / coef
        return root, std, xp.where(std > self.threshold, std, self.thresval).astype(input.dtype)

    def updateOutput(self, input):
        xp = array_namespace(input)
        coef = self._check(input)
        x = xp.ascontiguousarray(input)   # the same sums whatever the layout
        _, _, s = self._stds(x, coef)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.divide(x, s, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        coef = self._check(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        x, g = xp.ascontiguousarray(input), xp.ascontiguousarray(gradOutput)
        root, std, s = self._stds(x, coef)
        grad_s = -(g * x).sum(axis=-3, keepdims=True) / (s * s)
        grad_std = xp.where(std > self.threshold, grad_s, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            grad_square_mean = xp.where(root > 0, grad_std / (coef * 2 * root), 0).astype(input.dtype)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.divide(g, s, out=self.gradInput)
        self.gradInput += 2 * x * self._mean_backward(x * x, grad_square_mean)
        return self.gradInput

    def __repr__(self):
        return f"{super().__repr__()[:-1]}, threshold={self.threshold:g}, thresval={self.thresval:g})"

    def _onnx(self, g, x, y):
        """x / s, s = sqrt(E(x^2)) / E(1) where above the threshold (Where), E a Conv"""
        mean, coef = self._onnx_mean(g, x, g.op("Mul", [x, x]))
        std = g.op("Div", [g.op("Sqrt", [mean]), coef])
        above = g.op("Greater", [std, np.array(self.threshold, dtype=x.dtype)])
        return g.op("Div", [x, g.op("Where", [above, std, np.array(self.thresval, dtype=x.dtype)])])
