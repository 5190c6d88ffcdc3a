from ._helpers.checks import check_positive
from .JoinTable import JoinTable
from .Linear import Linear
from .Module import Module
from .Recurrence import Recurrence
from .Sequential import Sequential
from .Sigmoid import Sigmoid


class LinearRNN(Recurrence):
    """torch/rnn's simplest recurrent layer, a Recurrence whose step module
    joins the step's input and the previous output and maps them through
    one Linear and a transfer function::

        y_t = transfer(W [x_t, y_{t-1}] + b)        (transfer: Sigmoid by default)

    x_t ``[batch, inputsize]`` (or ``[inputsize]``), y_t ``[batch,
    outputsize]``; y_0 zeros.  The step module is torch/rnn's,
    Sequential(JoinTable(0, 1), Linear(inputsize + outputsize, outputsize),
    transfer); time, BPTT and ``rho`` are Recurrence's.

    ``LinearRNN(inputsize, outputsize, transfer=None)``.
    """

    def __init__(self, inputsize, outputsize, transfer=None):
        check_positive("LinearRNN", inputsize=inputsize, outputsize=outputsize)
        if transfer is not None and not isinstance(transfer, Module):
            raise TypeError(f"LinearRNN: transfer must be a Module, got {type(transfer).__name__}")
        self.inputsize, self.outputsize = int(inputsize), int(outputsize)
        step = Sequential().add(JoinTable(0, 1)).add(Linear(self.inputsize + self.outputsize, self.outputsize)) \
            .add(Sigmoid() if transfer is None else transfer)
        super().__init__(step, self.outputsize, 1)

    def _t7_fixup(self, version):
        from ._bases.rnn_t7 import size_field
        super()._t7_fixup(version)
        self.inputsize, self.outputsize = size_field(self, "inputsize"), size_field(self, "outputsize")

    _t7_lua_package = "torch/rnn"   # (save_lua: a class of torch/rnn alone, written in its layout)

    def __repr__(self):
        return f"nn.LinearRNN({self.inputsize} -> {self.outputsize})"
