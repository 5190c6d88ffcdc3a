from ._bases import rnn_t7 as _rnn_t7
from ._helpers.checks import check_positive
from ._bases.recurrent import batch_size, copy_of, plus, zeros
from .AbstractRecurrent import AbstractRecurrent
from .LSTMStep import LSTMStep


class LSTM(AbstractRecurrent):
    """The rnn package's LSTM, with peephole connections (cell to gates), fed
    one step per forward: ``h_t = lstm.forward(x_t)``.

    x_t ``[batch, inputSize]`` (or ``[inputSize]``), output h_t ``[batch,
    outputSize]``; the hidden state is ``[h, c]`` (``self.cell`` is the last
    c), zeros at step 0 unless ``userPrevOutput`` / ``userPrevCell`` (or
    ``setStartState([h0, c0])``) give it.  One step is ``LSTMStep`` (the
    formula and its gradients are there); time, BPTT and ``rho`` are
    AbstractRecurrent's.  ``cell2gate=False`` leaves out the peepholes.

    ``LSTM(inputSize, outputSize=inputSize, rho=9999, cell2gate=True)``.
    The rnn package's dropout between steps (``p``, ``mono``) is not
    implemented: p must be 0.
    """

    userPrevOutput = userPrevCell = None
    _t7_raw_fields = _rnn_t7.CELL_RAW_FIELDS

    def __init__(self, inputSize, outputSize=None, rho=9999, cell2gate=True, p=0, mono=False):
        outputSize = inputSize if outputSize is None else outputSize
        check_positive(type(self).__name__, inputSize=inputSize, outputSize=outputSize)
        if p:
            raise NotImplementedError(f"{type(self).__name__}: dropout inside the step (p={p}) is not "
                                      "implemented; put a Dropout before the module")
        self.inputSize, self.outputSize = int(inputSize), int(outputSize)
        self.cell2gate, self.p, self.mono = bool(cell2gate), 0, bool(mono)
        super().__init__(self._build_step(), rho)

    def _build_step(self):
        return LSTMStep(self.inputSize, self.outputSize, self.cell2gate)

    def _t7_fixup(self, version):
        """The step module in the file (an nn tree, or an nngraph gModule for
        FastLSTM) is rebuilt from its weights: see nn_legacy/_bases/rnn_t7.py."""
        name = type(self).__name__
        _rnn_t7.refuse_dropout(name, self)
        raw, nInputDim = _rnn_t7.unwrap_mask(_rnn_t7.step_module(self, name))
        _rnn_t7.refuse_batch_normalization(name, raw)
        self.inputSize = _rnn_t7.size_field(self, "inputSize", "inputsize")
        self.outputSize = _rnn_t7.size_field(self, "outputSize", "outputsize")
        self.cell2gate = bool(vars(self).get("cell2gate", True))
        self.p, self.mono = 0, bool(vars(self).get("mono", False))
        weights = self._t7_parameters(raw)
        step = _rnn_t7.fill_step(self._build_step(), weights, name)
        self._t7_finish(step, nInputDim)
        return step

    #: the fields of the cell's own that save_lua writes as they are (see _t7_rnn_layout)
    _t7_lua_keep = ("p", "mono", "inputSize", "outputSize", "cell2gate")

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the step module the rnn package built (a tree of nn
        modules around this cell's weight layers) and that package's
        fields, for Lua's torch.load; see AbstractRecurrent._t7_lua_cell."""
        step = self.recurrentModule
        step = getattr(step, "modules", [step])[0] if type(step).__name__ == "MaskZero" else step
        if not hasattr(step, "_t7_lua_tree"):   # (a step of a class of nn_legacy's own: written as it is)
            return False
        tree, parts = step._t7_lua_tree(package, self.mono)
        self._t7_lua_cell(fields, tree, parts, package, self._t7_lua_keep)
        return True

    def _t7_parameters(self, raw):
        return _rnn_t7.raw_parameters(raw)

    # ---- the hooks: the state is [h, c] ----
    def _step_input(self, input, prev, step):
        return [input, prev[0], prev[1]]

    def _step_output(self, out):
        self.cell = out[1]
        return out[0], out

    def _step_gradOutput(self, gradOutput, gradState, state):
        if gradState is None:
            return [copy_of(gradOutput), zeros(state[1], state[1].shape)]
        return [plus(gradOutput, gradState[0]), copy_of(gradState[1])]

    def _step_gradInput(self, gradInput, step):
        return gradInput[0], [gradInput[1], gradInput[2]]

    def _state_shape(self, input):
        b = batch_size(self, input, self.inputSize)
        return (self.outputSize,) if b is None else (b, self.outputSize)

    def _zero_state(self, input):
        shape = self._state_shape(input)
        return [zeros(input, shape), zeros(input, shape)]

    def _user_state(self, input):
        if self.userPrevOutput is None and self.userPrevCell is None:
            return None
        h0, c0 = self.userPrevOutput, self.userPrevCell
        if input is not None and (h0 is None or c0 is None):
            shape = self._state_shape(input)
            h0 = zeros(input, shape) if h0 is None else h0
            c0 = zeros(input, shape) if c0 is None else c0
        return [h0, c0]

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.inputSize} -> {self.outputSize})"
