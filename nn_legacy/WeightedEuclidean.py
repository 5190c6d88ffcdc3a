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

    def _t7_fixup(self, version):
        """Files from before January 2015 name the centres ``templates`` (and
        alias them, and diagCov, as weight and bias); the work buffers go."""
        if getattr(self, "weight", None) is None and isinstance(getattr(self, "templates", None), np.ndarray):
            self.weight = self.templates
        for name in ("templates", "gradTemplates", "bias", "gradBias", "temp", "fastBackward", "_diagCov",
                     "_input", "_weight", "_expand", "_expand2", "_expand3", "_expand4", "_repeat", "_repeat2",
                     "_repeat3", "_sum", "_div", "_output", "_gradOutput", "_gradTemp", "_ones", "_temp"):
            self.__dict__.pop(name, None)
        if self.weight is None or self.diagCov is None or self.weight.shape != self.diagCov.shape:
            raise ValueError("WeightedEuclidean: weight and diagCov must be of one size [inputSize, outputSize]")
        self.gradWeight, self.gradDiagCov = np.zeros_like(self.weight), np.zeros_like(self.diagCov)

    def _scale(self):
        return self.diagCov
