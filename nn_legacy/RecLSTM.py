from ._bases import rnn_t7 as _rnn_t7
from ._bases.whole_sequence import seq_layout
from .AbstractRecurrent import AbstractRecurrent
from .LSTM import LSTM
from .StepLSTM import StepLSTM


class RecLSTM(LSTM):
    """torch/rnn's RecLSTM (2017, the rnn package's later name for a fast
    LSTM): an LSTM without peepholes fed one step per forward, ``h_t =
    lstm.forward(x_t)``, whose step module is ``StepLSTM`` (SeqLSTM's gates
    and weight layout, one step at a time).

    x_t ``[batch, inputsize]`` (or ``[inputsize]``), output h_t ``[batch,
    hiddensize]``; state ``[h, c]`` as in LSTM (zeros at step 0 unless
    ``setStartState([h0, c0])`` gives it).  Its parameters are the step's
    ``weight`` ``[inputsize + hiddensize, 4 * hiddensize]`` (gates i, f, o,
    z) and ``bias``, so a RecLSTM and a SeqLSTM with the same weights
    compute the same sequence.  Time, BPTT (``rho``, torch/rnn's seqlen)
    and ``maskZero(nInputDim)`` are AbstractRecurrent's.  Runs on CUDA.

    ``RecLSTM(inputsize, hiddensize, outputsize=None)``: an outputsize other
    than hiddensize (torch/rnn's projection, LSTMP) is not implemented.
    """

    _t7_raw_fields = ("sharedClones",)

    def __init__(self, inputsize, hiddensize, outputsize=None, rho=9999):
        step = StepLSTM(inputsize, hiddensize, outputsize)
        self._sizes_of(step)
        self.cell2gate, self.p, self.mono = False, 0, False
        AbstractRecurrent.__init__(self, step, rho)

    def _sizes_of(self, step):
        self.inputsize, self.hiddensize, self.outputsize = step.inputsize, step.hiddensize, step.outputsize
        self.inputSize, self.outputSize = step.inputsize, step.outputsize

    def _build_step(self):
        return StepLSTM(self.inputsize, self.hiddensize)

    def _seq_layout(self):
        return seq_layout(self.recurrentModule) if type(self.recurrentModule) is StepLSTM else None

    def _t7_fixup(self, version):
        step = _loaded_step(self, StepLSTM)
        self._sizes_of(step)
        self.cell2gate, self.p, self.mono = False, 0, False
        for name in ("zeroOutput", "zeroCell", "_prevOutput", "startState"):
            vars(self).pop(name, None)
        mask = getattr(step, "_t7_maskzero", False)
        vars(step).pop("_t7_maskzero", None)
        self._t7_finish(step, 1 if mask else None)

    def _t7_rnn_layout(self, fields, package):
        """save_lua: torch/rnn's RecLSTM (a class of that package alone,
        written in its layout whatever ``rnn`` says): modules[1] the
        StepLSTM (maskZero is its maskzero flag there), inputsize,
        hiddensize, outputsize, and the empty cells, zeroOutput, zeroCell."""
        _lua_rec_layout(self, fields, ("cells", "gradCells"), ("zeroOutput", "zeroCell"))

    def __repr__(self):
        return f"nn.RecLSTM({self.inputsize} -> {self.outputsize})"


def _lua_rec_layout(module, fields, tables, empties):
    """RecLSTM / RecGRU in torch/rnn's layout (see RecLSTM._t7_rnn_layout):
    the step module unwrapped from maskZero's MaskZero, flagged instead
    (on a shallow copy: the arrays are the step's own)."""
    import copy

    import numpy as np

    from .MaskZero import MaskZero
    step = module.recurrentModule
    if isinstance(step, MaskZero):
        step = copy.copy(step.modules[0])
        step._t7_lua_maskzero = True
    for name in ("inputSize", "outputSize", "p", "mono", "cell2gate"):
        fields.pop(name, None)
    module._t7_recurrent_record(fields, "torch/rnn", step)
    fields.update({k: {} for k in tables})
    fields.update({k: np.zeros(0, step.weight.dtype) for k in empties})


def _loaded_step(module, cls):
    """The step module of a loaded RecLSTM / RecGRU: ``modules[1]`` (or the
    first RecLSTM's ``recurrentModule``), a StepLSTM / StepGRU already loaded."""
    fields = vars(module)
    candidates = [fields.get("recurrentModule")] + list(fields.get("modules") or [])
    step = next((m for m in candidates if isinstance(m, cls)), None)
    if step is None:
        found = ", ".join(type(m).__name__ for m in candidates if m is not None) or "none"
        raise _rnn_t7.T7Error(f"{type(module).__name__}: the file holds no {cls.__name__} step module (found: "
                              f"{found})")
    return step
