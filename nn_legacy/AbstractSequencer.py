from ._bases.recurrent import check_remember, remembers
from .Container import Container


class AbstractSequencer(Container):
    """The base of the modules that take a whole sequence per forward (the
    rnn package's sequencers): Sequencer, Repeater, BiSequencer,
    BiSequencerLM.

    ``remember(mode)`` says when the recurrent modules inside keep their
    state from one forward call to the next instead of starting afresh:
    ``"both"`` (the default of ``remember()``), ``"train"`` (only while
    training), ``"eval"`` (only in evaluation) or ``"neither"`` (each call
    a new sequence, the default of a new sequencer).  A sequencer sets the
    rho of what it wraps itself (to the length of each sequence), so
    ``maxBPTTstep`` does nothing here.
    """

    _remember = "neither"

    def remember(self, mode="both"):
        self._remember = check_remember(self, mode)
        return self

    def hasMemory(self):
        """Whether the next forward continues the previous sequence."""
        return remembers(self._remember, self.train)

    def maxBPTTstep(self, rho):
        pass
