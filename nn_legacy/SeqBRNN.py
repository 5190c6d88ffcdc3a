from .CAddTable import CAddTable
from .ConcatTable import ConcatTable
from .Decorator import Decorator
from .Module import Module
from .SeqLSTM import SeqLSTM
from .SeqReverseSequence import SeqReverseSequence
from .Sequential import Sequential
from .Transpose import Transpose


class SeqBRNN(Decorator):
    """A bidirectional LSTM over a whole sequence (the rnn package's
    SeqBRNN): two SeqLSTMs, the backward one fed the sequence reversed in
    time (and its output reversed back), their outputs merged step by step::

        y = merge([fwd(x), reverse(bwd(reverse(x)))])

    input ``[seqlen, batch, inputDim]`` (``[batch, seqlen, inputDim]`` with
    ``batchFirst``: transposed on the way in and out), output ``[seqlen,
    batch, hiddenDim]`` for the default merge, CAddTable (a sum).  The
    module tree is the rnn package's, ``modules[0]``: Sequential(
    ConcatTable(forwardModule, Sequential(SeqReverseSequence(0),
    backwardModule, SeqReverseSequence(0))), merge), so forward, backward
    and the parameters (forwardModule's, then backwardModule's, then
    merge's) are that Sequential's.

    ``SeqBRNN(inputDim, hiddenDim, batchFirst=False, merge=None)``.
    """

    def __init__(self, inputDim, hiddenDim, batchFirst=False, merge=None):
        if merge is not None and not isinstance(merge, Module):
            raise TypeError(f"SeqBRNN: merge must be a Module, got {type(merge).__name__}")
        self.forwardModule = SeqLSTM(inputDim, hiddenDim)
        self.backwardModule = SeqLSTM(inputDim, hiddenDim)
        self.merge = CAddTable() if merge is None else merge
        self.dim = 0
        self.batchFirst = bool(batchFirst)
        backward = Sequential().add(SeqReverseSequence(0)).add(self.backwardModule).add(SeqReverseSequence(0))
        brnn = Sequential().add(ConcatTable().add(self.forwardModule).add(backward)).add(self.merge)
        if self.batchFirst:
            brnn.insert(Transpose((0, 1)), 0)
            brnn.insert(Transpose((0, 1)))
        super().__init__(brnn)
        self.module = brnn

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        modules = vars(self).get("modules")
        brnn = modules[0] if isinstance(modules, list) and modules else vars(self).get("module")
        if not isinstance(brnn, Module):
            raise T7Error("SeqBRNN: the file holds no module tree (modules[1])")
        self.modules = [brnn]
        self.module = brnn
        self.dim = 0
        self.batchFirst = bool(vars(self).get("batchFirst", False))
        # the first SeqBRNN (April 2016) gave its SeqLSTMs batchFirst and reversed dim 2 instead of transposing
        for lstm in (vars(self).get("forwardModule"), vars(self).get("backwardModule")):
            if isinstance(lstm, SeqLSTM) and vars(lstm).pop("batchFirst", False):
                lstm.batchfirst = True
        self.output = self.gradInput = None
