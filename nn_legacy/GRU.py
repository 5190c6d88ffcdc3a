from ._bases import rnn_t7 as _rnn_t7
from ._helpers.checks import check_positive
from ._bases.recurrent import OutputIsState, batch_size, zeros
from ._bases.whole_sequence import gru_layout
from .AbstractRecurrent import AbstractRecurrent
from .GRUStep import GRUStep


class GRU(OutputIsState, AbstractRecurrent):
    """The rnn package's GRU (gated recurrent unit), fed one step per
    forward: ``h_t = gru.forward(x_t)``.

    x_t ``[batch, inputSize]`` (or ``[inputSize]``), output h_t ``[batch,
    outputSize]``, which is also the state (zeros at step 0 unless
    ``userPrevOutput`` or ``setStartState(h0)`` gives it).  One step is
    ``GRUStep``: the formula, which applies the reset gate to h before its
    matrix (unlike torch.nn.GRU), and its gradients are there.  Time, BPTT
    and ``rho`` are AbstractRecurrent's.

    ``GRU(inputSize, outputSize, rho=9999)``; the rnn package's dropout
    between steps (``p``, ``mono``) is not implemented: p must be 0.
    """

    userPrevOutput = None
    _t7_raw_fields = _rnn_t7.CELL_RAW_FIELDS

    def __init__(self, inputSize, outputSize, rho=9999, p=0, mono=False):
        check_positive("GRU", inputSize=inputSize, outputSize=outputSize)
        if p:
            raise NotImplementedError(f"GRU: dropout inside the step (p={p}) is not implemented; "
                                      "put a Dropout before the module")
        self.inputSize, self.outputSize, self.p, self.mono = int(inputSize), int(outputSize), 0, bool(mono)
        super().__init__(GRUStep(self.inputSize, self.outputSize), rho)

    def _t7_fixup(self, version):
        """The step module in the file (an nn tree, or a gModule) is rebuilt
        from its weights: i2g, o2g, then the candidate's Linear and
        LinearNoBias, told apart by their sizes and biases."""
        _rnn_t7.refuse_dropout("GRU", self)
        raw, nInputDim = _rnn_t7.unwrap_mask(_rnn_t7.step_module(self, "GRU"))
        self.inputSize = _rnn_t7.size_field(self, "inputSize", "inputsize")
        self.outputSize = _rnn_t7.size_field(self, "outputSize", "outputsize")
        self.p, self.mono = 0, bool(vars(self).get("mono", False))
        step = GRUStep(self.inputSize, self.outputSize)
        step = _rnn_t7.fill_step(step, _rnn_t7.by_role(step, _rnn_t7.raw_parameters(raw)), "GRU")
        self._t7_finish(step, nInputDim)

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the step module the rnn package built (a tree of nn
        modules around this cell's weight layers) and that package's
        fields, for Lua's torch.load; see AbstractRecurrent._t7_lua_cell."""
        step = self.recurrentModule
        step = step.modules[0] if type(step).__name__ == "MaskZero" else step
        if not hasattr(step, "_t7_lua_tree"):   # (RecGRU's StepGRU: torch/rnn's own class)
            return
        tree, parts = step._t7_lua_tree(package)
        self._t7_lua_cell(fields, tree, parts, package, ("p", "mono", "inputSize", "outputSize"))

    def _seq_layout(self):
        return gru_layout(self.recurrentModule) if type(self.recurrentModule) is GRUStep else None

    def _zero_state(self, input):
        b = batch_size(self, input, self.inputSize)
        return zeros(input, (self.outputSize,) if b is None else (b, self.outputSize))

    def _user_state(self, input):
        return self.userPrevOutput

    def __repr__(self):
        return f"nn.GRU({self.inputSize} -> {self.outputSize})"


