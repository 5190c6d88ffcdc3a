from ._bases.seq_bidirectional import SeqBidirectional
from .Decorator import Decorator
from .Module import Module
from .ReverseUnreverse import bidirectional
from .SeqLSTM import SeqLSTM


class SeqBLSTM(SeqBidirectional, Decorator):
    """A bidirectional LSTM over a whole sequence (torch/rnn's SeqBLSTM, a
    BiSequencer of two SeqLSTMs): one reads the sequence forwards, a copy
    with its own weights reads it backwards, their outputs are merged step
    by step (summed, by default)::

        y = merge([fwd(x), reverse(bwd(reverse(x)))])

    input ``[seqlen, batch, inputsize]``, output ``[seqlen, batch,
    hiddensize]`` for the default merge (CAddTable).  The module tree is
    torch/rnn's, ``modules[0]``: Sequential(ConcatTable(fwd,
    ReverseUnreverse(bwd)), merge); ``getForward()``, ``getBackward()``
    are the two SeqLSTMs, and the parameters are fwd's, then bwd's, then
    the merge's.  ``remember()`` applies to the forward SeqLSTM only.
    (The rnn package's earlier SeqBRNN is the same computation in another
    tree.)

    ``SeqBLSTM(inputsize, hiddensize, outputsize=None, merge=None)``; a
    module as the third argument is the merge, as in torch/rnn.
    """

    _rnn = SeqLSTM

    def __init__(self, inputsize, hiddensize, outputsize=None, merge=None):
        if isinstance(outputsize, Module):
            outputsize, merge = None, outputsize
        super().__init__(bidirectional(SeqLSTM(inputsize, hiddensize, outputsize), merge, "SeqBLSTM"))
