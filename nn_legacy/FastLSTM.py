from ._bases import rnn_t7 as _rnn_t7
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

    ``FastLSTM(inputSize, outputSize=inputSize, rho=9999)``; the rnn
    package's recurrent batch normalization (``FastLSTM.bn``) and dropout
    (``p``) are not implemented.
    """

    def __init__(self, inputSize, outputSize=None, rho=9999, eps=None, momentum=None, affine=True, p=0,
                 mono=False):
        self.eps, self.momentum, self.affine = eps, momentum, affine
        super().__init__(inputSize, outputSize, rho, False, p, mono)

    def _build_step(self):
        step = FastLSTMStep(self.inputSize, self.outputSize)
        self.i2g, self.o2g = step.i2g, step.o2g
        return step

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
        step = super()._t7_fixup(version)
        self.i2g, self.o2g = step.i2g, step.o2g
        for name in ("usenngraph", "bn"):
            vars(self).pop(name, None)
