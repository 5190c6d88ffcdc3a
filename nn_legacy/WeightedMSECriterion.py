import numpy as np

from ._helpers.checks import check_pointwise_target
from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse


class WeightedMSECriterion(NumpyCriterion):
    """Mean squared error against a weighted target, as Torch7 defines it:
    the weight multiplies the target, not the error::

        loss = sum_i (x_i - w_i t_i)^2

    divided by the number of elements when ``sizeAverage`` (the default).
    ``w`` (copied at construction) has either input's shape or the shape of
    one sample, ``input.shape[1:]``, and is then applied to every sample of
    the batch.  The target has input's number of elements (it is read in
    order, as MSECriterion reads it).

    Gradient: ``dL/dx_i = 2 (x_i - w_i t_i)``, divided likewise.  Nothing
    flows to the target.
    """

    def __init__(self, w, sizeAverage=True):
        super().__init__()
        self.weight = np.array(w, dtype=np.float64)
        self.sizeAverage = bool(sizeAverage)

    def _residual(self, input, target):
        """x - w t, checked."""
        x = self._contiguous(input)
        t = self._numeric_target(target, x.dtype, array_namespace(x))
        check_pointwise_target(self._name(), x.shape, t.shape)
        if self.weight.shape not in (x.shape, x.shape[1:]):
            raise ValueError(f"{self._name()}: weight must have the shape of input ({described(x.shape)}) or of "
                             f"one sample, got {described(self.weight.shape)}")
        return x - self.weight.astype(x.dtype) * t.reshape(x.shape)

    def _scale(self, r):
        return 1 / r.size if self.sizeAverage and r.size else 1

    def updateOutput(self, input, target):
        r = self._residual(input, target)
        self.output = float((r * r).sum() * self._scale(r))
        return self.output

    def updateGradInput(self, input, target):
        r = self._residual(input, target)
        xp = array_namespace(r)
        self.gradInput = reuse(self.gradInput, r.shape, r.dtype, xp)
        xp.multiply(r, 2 * self._scale(r), out=self.gradInput)
        return self.gradInput
