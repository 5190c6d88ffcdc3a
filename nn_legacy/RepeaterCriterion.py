from .SequencerCriterion import SequencerCriterion


class RepeaterCriterion(SequencerCriterion):
    """A criterion applied to every step of a sequence with one target for
    all of them, summed (the rnn package's RepeaterCriterion, for the
    output of a Repeater)::

        loss = sum over t of criterion(input[t], target)      (/ seqlen with sizeAverage)

    input is a table (list) of steps or an array ``[seqlen, ...]``; gradInput
    is laid out the same way.  Otherwise as SequencerCriterion (a clone of
    the criterion per step; ``sizeAverage``, default False, is torch/rnn's:
    Element-Research's always summed).
    """

    _target_per_step = False

    def _step_target(self, target, t):
        return target

    def __repr__(self):
        return f"nn.RepeaterCriterion({self.criterion!r}{', sizeAverage' if self.sizeAverage else ''})"
