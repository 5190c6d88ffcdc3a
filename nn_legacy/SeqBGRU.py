from ._bases.seq_bidirectional import SeqBidirectional
from .Decorator import Decorator
from .ReverseUnreverse import bidirectional
from .SeqGRU import SeqGRU


class SeqBGRU(SeqBidirectional, Decorator):
    """A bidirectional GRU over a whole sequence (torch/rnn's SeqBGRU, a
    BiSequencer of two SeqGRUs): one reads the sequence forwards, a copy
    with its own weights reads it backwards, their outputs are merged step
    by step (summed, by default)::

        y = merge([fwd(x), reverse(bwd(reverse(x)))])

    input ``[seqlen, batch, inputsize]``, output ``[seqlen, batch,
    outputsize]`` for the default merge (CAddTable).  The module tree,
    ``getForward()``, ``getBackward()`` and ``remember()`` are SeqBLSTM's,
    with SeqGRUs.

    ``SeqBGRU(inputsize, outputsize, merge=None)``.
    """

    _rnn = SeqGRU

    def __init__(self, inputsize, outputsize, merge=None):
        super().__init__(bidirectional(SeqGRU(inputsize, outputsize), merge, "SeqBGRU"))
