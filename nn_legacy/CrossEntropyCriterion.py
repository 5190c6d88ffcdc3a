from ._helpers import habits as _habits
from .ClassNLLCriterion import ClassNLLCriterion
from .Criterion import Criterion
from .LogSoftMax import LogSoftMax


class CrossEntropyCriterion(Criterion):
    """LogSoftMax followed by ClassNLLCriterion, on raw scores:
    ``loss = -x[t] + log sum_j exp(x[j])`` per sample (weighted and averaged
    as ClassNLLCriterion).  input ``[nClasses]`` or ``[batch, nClasses]``;
    0-based integer targets.
    """

    def __init__(self, weights=None, sizeAverage=True, ignore_index=-100):
        super().__init__()
        self.lsm = LogSoftMax()
        self.nll = ClassNLLCriterion(weights, sizeAverage, ignore_index)

    _habits_checked = False   # see _habits: the first forward looks for 1-based targets

    def updateOutput(self, input, target):
        if not self._habits_checked:
            _habits.check_first_call(self, input, target, self.nll.ignore_index, log_probabilities=False)
            self.nll._habits_checked = True   # (its input is LogSoftMax's: the look above is the one that counts)
        self._check(input)
        self.output = self.nll.updateOutput(self.lsm.updateOutput(input), target)
        return self.output

    def updateGradInput(self, input, target):
        self._check(input)  # uses lsm.output from forward, as every backward uses its forward
        try:
            gradLsm = self.nll.updateGradInput(self.lsm.output, target)
        except TypeError:
            if self.lsm.output is None:   # (the error path only: the normal one checks nothing more)
                raise RuntimeError("CrossEntropyCriterion: backward needs the output of forward: "
                                   "call forward first") from None
            raise
        self.gradInput = self.lsm.updateGradInput(input, gradLsm)
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 (from 2017) kept sizeAverage on the criterion too and
        passed a change of it on to its ClassNLLCriterion at the next
        forward; earlier files have only the ClassNLLCriterion's."""
        size_average = vars(self).pop("sizeAverage", None)
        if size_average is not None and size_average != vars(self).pop("oldSizeAverage", None):
            self.nll.sizeAverage = bool(size_average)
        vars(self).pop("oldSizeAverage", None)

    def _check(self, input):
        self._kernels(input)
        if input.ndim not in (1, 2):
            raise ValueError(f"CrossEntropyCriterion: input must be 1D [nClasses] or 2D [batch, nClasses], "
                             f"got {input.ndim}D of size [{', '.join(map(str, input.shape))}]")

    def clearState(self):
        self.lsm.clearState()
        self.nll.clearState()
        return super().clearState()
