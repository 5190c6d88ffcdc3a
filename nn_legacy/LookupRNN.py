from ._helpers.checks import check_positive
from .CAddTable import CAddTable
from .Linear import Linear
from .LookupTableMaskZero import LookupTableMaskZero
from .Module import Module
from .ParallelTable import ParallelTable
from .Recurrence import Recurrence
from .Sequential import Sequential
from .Sigmoid import Sigmoid


class LookupRNN(Recurrence):
    """torch/rnn's recurrent layer over indices, a Recurrence whose step
    module embeds the step's index and adds a Linear of the previous
    output::

        y_t = transfer(merge([E[x_t], W y_{t-1} + b]))    (merge: CAddTable, transfer: Sigmoid)

    x_t ``[batch]`` of 0-based indices (-1: padding, a zero embedding, as
    LookupTableMaskZero), y_t ``[batch, outputsize]``; y_0 zeros.  The step
    module is torch/rnn's, Sequential(ParallelTable(LookupTableMaskZero(
    nindex, outputsize), Linear(outputsize, outputsize)), merge,
    transfer); time, BPTT and ``rho`` are Recurrence's.

    ``LookupRNN(nindex, outputsize, transfer=None, merge=None)``.
    """

    def __init__(self, nindex, outputsize, transfer=None, merge=None):
        check_positive("LookupRNN", nindex=nindex, outputsize=outputsize)
        for name, value in (("transfer", transfer), ("merge", merge)):
            if value is not None and not isinstance(value, Module):
                raise TypeError(f"LookupRNN: {name} must be a Module, got {type(value).__name__}")
        self.nindex, self.outputsize = int(nindex), int(outputsize)
        H = self.outputsize
        layers = ParallelTable().add(LookupTableMaskZero(self.nindex, H)).add(Linear(H, H))
        step = Sequential().add(layers).add(CAddTable() if merge is None else merge) \
            .add(Sigmoid() if transfer is None else transfer)
        super().__init__(step, H, 0)

    def _t7_fixup(self, version):
        from ._bases.rnn_t7 import size_field
        super()._t7_fixup(version)
        self.nindex, self.outputsize = size_field(self, "nindex"), size_field(self, "outputsize")

    _t7_lua_package = "torch/rnn"   # (save_lua: a class of torch/rnn alone, written in its layout)

    def __repr__(self):
        return f"nn.LookupRNN({self.nindex} -> {self.outputsize})"
