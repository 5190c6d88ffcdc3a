from ._bases.whole_sequence import seq_layout
from .AbstractRecurrent import AbstractRecurrent
from .GRU import GRU
from .RecLSTM import _loaded_step, _lua_rec_layout
from .StepGRU import StepGRU


class RecGRU(GRU):
    """torch/rnn's RecGRU (2017, the rnn package's later name for a fast
    GRU): a GRU fed one step per forward, ``h_t = gru.forward(x_t)``, whose
    step module is ``StepGRU`` (SeqGRU's gates and weight layout, one step
    at a time).

    x_t ``[batch, inputsize]`` (or ``[inputsize]``), output and state h_t
    ``[batch, outputsize]`` (zeros at step 0 unless ``setStartState(h0)``
    gives it).  Its parameters are the step's ``weight`` ``[inputsize +
    outputsize, 3 * outputsize]`` (gates r, u, n) and ``bias``, so a RecGRU
    and a SeqGRU with the same weights compute the same sequence.  Time,
    BPTT (``rho``, torch/rnn's seqlen) and ``maskZero(nInputDim)`` are
    AbstractRecurrent's.  Runs on CUDA.

    ``RecGRU(inputsize, outputsize, rho=9999)``.
    """

    _t7_raw_fields = ("sharedClones",)

    def __init__(self, inputsize, outputsize, rho=9999):
        step = StepGRU(inputsize, outputsize)
        self._sizes_of(step)
        self.p, self.mono = 0, False
        AbstractRecurrent.__init__(self, step, rho)

    def _sizes_of(self, step):
        self.inputsize, self.outputsize = step.inputsize, step.outputsize
        self.inputSize, self.outputSize = step.inputsize, step.outputsize

    def _seq_layout(self):
        return seq_layout(self.recurrentModule) if type(self.recurrentModule) is StepGRU else None

    def _t7_fixup(self, version):
        step = _loaded_step(self, StepGRU)
        self._sizes_of(step)
        self.p, self.mono = 0, False
        for name in ("zeroOutput", "_prevOutput", "startState"):
            vars(self).pop(name, None)
        mask = getattr(step, "_t7_maskzero", False)
        vars(step).pop("_t7_maskzero", None)
        self._t7_finish(step, 1 if mask else None)

    def _t7_rnn_layout(self, fields, package):
        """save_lua: torch/rnn's RecGRU, in that package's layout whatever
        ``rnn`` says (see RecLSTM._t7_rnn_layout): zeroOutput its own."""
        _lua_rec_layout(self, fields, (), ("zeroOutput",))

    def __repr__(self):
        return f"nn.RecGRU({self.inputsize} -> {self.outputsize})"
