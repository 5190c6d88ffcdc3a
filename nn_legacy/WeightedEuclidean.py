import numpy as np

from .Euclidean import Euclidean


class WeightedEuclidean(Euclidean):
    """Distances to learned centres, each with its own learned diagonal
    scaling: ``y_j = || c_j * (x - w_j) ||_2`` (elementwise product), where
    ``w_j`` and ``c_j`` are column j of ``weight`` and ``diagCov``, both
    ``[inputSize, outputSize]``.

    Input ``[inputSize]`` or ``[batch, inputSize]``; output ``[outputSize]``
    or ``[batch, outputSize]``.  Gradients, with ``d = x - w_j`` and
    ``r_j = dL/dy_j / y_j`` (0 where ``y_j = 0``):
    ``dL/dx = sum_j r_j c_j^2 d``, ``dL/dw_j += -scale * r_j c_j^2 d`` and
    ``dL/dc_j += scale * r_j c_j d^2`` (summed over the batch).  reset()
    draws the centres from U(-1/sqrt(inputSize), 1/sqrt(inputSize)) and sets
    diagCov to 1.
    """

    _parameter_names = (("weight", "gradWeight"), ("diagCov", "gradDiagCov"))

    def __init__(self, inputSize, outputSize):
        super().__init__(inputSize, outputSize)
        self.diagCov = np.ones_like(self.weight)
        self.gradDiagCov = np.zeros_like(self.weight)

    def reset(self, stdv=None):
        super().reset(stdv)
        if getattr(self, "diagCov", None) is not None:
            self.diagCov.fill(1)
        return self

    def _scale(self):
        return self.diagCov
