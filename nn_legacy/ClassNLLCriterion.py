import numpy as np

from thnn.cuda import CudaTensor

from ._helpers import habits as _habits
from .Criterion import Criterion


class ClassNLLCriterion(Criterion):
    """Negative log-likelihood of the target class, for log-probabilities
    (the output of LogSoftMax): ``loss = -sum_i w[t_i] x[i, t_i]``, divided by
    ``sum_i w[t_i]`` when ``sizeAverage`` (the default).

    input ``[nClasses]`` with an int target, or ``[batch, nClasses]`` with an
    integer array of ``batch`` targets.  Targets are 0-based class indices;
    those equal to ``ignore_index`` count for nothing (if every target is
    ignored the loss and gradient are 0).  ``weights`` (``[nClasses]``,
    optional) scales each class.

    Gradient: ``dL/dx[i, t_i] = -w[t_i]`` (divided likewise), 0 elsewhere.
    """

    _kernel = "ClassNLLCriterion"

    def __init__(self, weights=None, sizeAverage=True, ignore_index=-100):
        super().__init__()
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float64)
        if self.weights is not None and self.weights.ndim != 1:
            raise ValueError(f"ClassNLLCriterion: weights must be 1D [nClasses], got shape {self.weights.shape}")
        self.sizeAverage = bool(sizeAverage)
        self.ignore_index = int(ignore_index)
        self.output_tensor = None
        self.total_weight_tensor = None

    def _weights(self, input):
        # a converted copy: storing it would round float64 weights to float32
        # for good after a single float32 call
        if isinstance(self.weights, CudaTensor) and self.weights.dtype != input.dtype:
            raise TypeError(f"ClassNLLCriterion: weights are {self.weights.dtype} on the device, input is "
                            f"{input.dtype}; convert the criterion before cuda()")
        if self.weights is not None and self.weights.dtype != input.dtype:
            return self.weights.astype(input.dtype)
        return self.weights

    _habits_checked = False   # see _habits: the first forward looks for 1-based targets and probabilities

    # ---- Torch7 files ----
    def _t7_fixup(self, version):
        """Torch7 (from 2017) kept a 1-based ``ignoreIndex``; older files have none."""
        if "ignoreIndex" in self.__dict__:
            self.ignore_index = int(self.__dict__.pop("ignoreIndex")) - 1

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's 1-based ignoreIndex."""
        fields["ignoreIndex"] = fields.pop("ignore_index") + 1

    def updateOutput(self, input, target):
        if not self._habits_checked:
            _habits.check_first_call(self, input, target, self.ignore_index, log_probabilities=True)
        self.output_tensor, self.total_weight_tensor = self._kernel_of(input, "updateOutput")(
            input, self._index_target(input, target), self.output_tensor, self.sizeAverage, self._weights(input),
            self.total_weight_tensor, self.ignore_index)
        self.output = float(self.output_tensor[0])
        return self.output

    def updateGradInput(self, input, target):
        if self.total_weight_tensor is None or self.total_weight_tensor.dtype != input.dtype:
            self.updateOutput(input, target)
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, self._index_target(input, target), self.gradInput, self.sizeAverage, self._weights(input),
            self.total_weight_tensor, self.ignore_index)
        return self.gradInput
