from ._bases import rnn_t7 as _rnn_t7
from ._bases.whole_sequence import fast_lstm_layout
from .FastLSTMBNStep import FastLSTMBNStep
from .FastLSTMStep import FastLSTMStep
from .LSTM import LSTM


class FastLSTM(LSTM):
    """The rnn package's FastLSTM: an LSTM without peepholes whose four gates
    come from one projection of the input and one of the previous output,
    fed one step per forward (``h_t = lstm.forward(x_t)``).

    x_t ``[batch, inputSize]`` (or ``[inputSize]``), output h_t ``[batch,
    outputSize]``; state ``[h, c]`` as in LSTM.  One step is
    ``FastLSTMStep`` (the formula is there; the gates run in THNN's fused
    LSTM kernel); ``i2g`` (Linear, inputSize -> 4*outputSize) and ``o2g``
    (LinearNoBias) are its parameters, gate blocks in the rnn package's
    order i, z, f, o.  Time, BPTT and ``rho`` are AbstractRecurrent's.  Over
    a whole sequence this is torch.nn.LSTM with the gate rows reordered and
    one bias.  Runs on CUDA (``cuda()``).

    ``FastLSTM(inputSize, outputSize=inputSize, rho=9999, eps=None,
    momentum=None, affine=True, bn=None)``.  Recurrent batch normalization
    (Cooijmans et al.): ``bn=True``, or the rnn package's class switch
    ``nn.FastLSTM.bn = True`` before construction; the step module is then
    ``FastLSTMBNStep`` (the formula is there; eps, momentum and affine are
    its BatchNormalizations'), a batch needs two samples or more while
    training, and ``evaluate()`` uses the running averages.  Files saved
    with either step load.  The rnn package's dropout (``p``) is not
    implemented.
    """

    #: the rnn package's class switch: FastLSTMs built while it is True batch-normalize
    bn = False

    def __init__(self, inputSize, outputSize=None, rho=9999, eps=None, momentum=None, affine=True, p=0,
                 mono=False, bn=None):
        self.eps, self.momentum, self.affine = eps, momentum, bool(affine)
        self.bn = bool(type(self).bn if bn is None else bn)
        super().__init__(inputSize, outputSize, rho, False, p, mono)

    _t7_lua_keep = LSTM._t7_lua_keep + ("eps", "momentum", "affine")

    def _t7_rnn_layout(self, fields, package):
        if super()._t7_rnn_layout(fields, package):
            fields["cell2gate"] = True   # (what Lua's FastLSTM set, through LSTM's constructor, and never read)

    def _build_step(self):
        if vars(self).get("bn"):
            step = FastLSTMBNStep(self.inputSize, self.outputSize, self.eps, self.momentum, self.affine)
        else:
            step = FastLSTMStep(self.inputSize, self.outputSize)
        self.i2g, self.o2g = step.i2g, step.o2g
        return step

    def _seq_layout(self):
        return fast_lstm_layout(self.recurrentModule) if type(self.recurrentModule) is FastLSTMStep else None

    def _t7_parameters(self, raw):
        """i2g and o2g: the FastLSTM's own fields when the file has them,
        else told apart by their biases (an nngraph step module lists its
        modules in graph order)."""
        fields = vars(self)
        if isinstance(fields.get("i2g"), _rnn_t7.TorchObject) and isinstance(fields.get("o2g"), _rnn_t7.TorchObject):
            return [fields["i2g"], fields["o2g"]]
        step = FastLSTMStep(_rnn_t7.size_field(self, "inputSize", "inputsize"),
                            _rnn_t7.size_field(self, "outputSize", "outputsize"))
        return _rnn_t7.by_role(step, super()._t7_parameters(raw))

    def _t7_fixup(self, version):
        raw, nInputDim = _rnn_t7.unwrap_mask(_rnn_t7.step_module(self, "FastLSTM"))
        if _rnn_t7.batch_normalizations(raw):
            step = self._t7_fixup_bn(raw, nInputDim)
        else:
            self.bn = False
            step = super()._t7_fixup(version)
        self.i2g, self.o2g = step.i2g, step.o2g
        self.cell2gate = False   # (Lua's FastLSTM kept its LSTM parent's true, which it never used: no peepholes)
        vars(self).pop("usenngraph", None)

    def _t7_fixup_bn(self, raw, nInputDim):
        """A FastLSTM built while FastLSTM.bn was true: its step module is an
        nngraph gModule (see nn_legacy/_bases/rnn_t7.py, fast_lstm_bn)."""
        _rnn_t7.refuse_dropout("FastLSTM", self)
        self.inputSize = _rnn_t7.size_field(self, "inputSize", "inputsize")
        self.outputSize = _rnn_t7.size_field(self, "outputSize", "outputsize")
        self.cell2gate, self.p, self.mono, self.bn = False, 0, bool(vars(self).get("mono", False)), True
        parts = _rnn_t7.fast_lstm_bn_parts(self, raw, self.outputSize, FastLSTMStep(self.inputSize, self.outputSize))
        first = parts["bn_wx"]
        eps, momentum = _rnn_t7.field(first, "eps", 1e-5), _rnn_t7.field(first, "momentum", 0.1)
        self.eps = float(eps) if isinstance(eps, (int, float)) else 1e-5
        self.momentum = float(momentum) if isinstance(momentum, (int, float)) else 0.1
        self.affine = _rnn_t7.has_array(first, "weight")
        step = FastLSTMBNStep(self.inputSize, self.outputSize, self.eps, self.momentum, self.affine)
        _rnn_t7.fill_bn_step(step, parts)
        self._t7_finish(step, nInputDim)
        return step
