import numpy as np

from .Criterion import Criterion


class SpatialClassNLLCriterion(Criterion):
    """ClassNLLCriterion at every pixel, for per-pixel log-probabilities
    (LogSoftMax over the class dim): input ``[batch, nClasses, h, w]``,
    target an integer array ``[batch, h, w]`` of 0-based classes.
    ``loss = -sum_{b,y,x} w[c] input[b, c, y, x]`` with ``c = target[b, y, x]``,
    divided by the sum of the counted ``w[c]`` when ``sizeAverage`` (the
    default).  Targets equal to ``ignore_index`` count for nothing (if every
    pixel is ignored the loss and gradient are 0).  ``weights`` (``[nClasses]``,
    optional) scales each class.

    Gradient: ``-w[c]`` (divided likewise) at each pixel's target class, 0
    elsewhere.
    """

    _kernel = "SpatialClassNLLCriterion"

    def __init__(self, weights=None, sizeAverage=True, ignore_index=-100):
        super().__init__()
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float64)
        if self.weights is not None and self.weights.ndim != 1:
            raise ValueError(f"SpatialClassNLLCriterion: weights must be 1D [nClasses], "
                             f"got shape {self.weights.shape}")
        self.sizeAverage = bool(sizeAverage)
        self.ignore_index = int(ignore_index)
        self.output_tensor = None
        self.total_weight_tensor = None

    def _weights(self, input):
        # a converted copy: storing it would round float64 weights to float32
        # for good after a single float32 call
        if self.weights is not None and self.weights.dtype != input.dtype:
            return self.weights.astype(input.dtype)
        return self.weights

    def updateOutput(self, input, target):
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

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's 1-based ignoreIndex.  torch/nn's SpatialClassNLLCriterion (to 8726825, its last)
        has none: a class ignored here would count in Lua, so one that names a class is refused."""
        if self.ignore_index >= 0:
            raise TypeError(f"save_lua: nn.SpatialClassNLLCriterion(ignore_index={self.ignore_index}) has no Torch7 "
                            f"counterpart (torch/nn's SpatialClassNLLCriterion ignores no class)")
        fields["ignoreIndex"] = fields.pop("ignore_index") + 1

    def _t7_fixup(self, version):
        """After load_lua: Lua numbers arrive as floats and indices 1-based."""
        if "ignoreIndex" in self.__dict__:  # a 1-based class index in Torch7
            self.ignore_index = int(self.__dict__.pop("ignoreIndex")) - 1
