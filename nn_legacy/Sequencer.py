import numpy as np

from ._helpers.arrays import describe, is_array, reuse
from ._bases.recurrent import acc_update_by_swap, copy_of, onnx_forget, top_recurrent
from ._bases.tables import check_length
from ._bases.whole_sequence import whole_sequence
from .AbstractRecurrent import AbstractRecurrent
from .AbstractSequencer import AbstractSequencer
from .CAddTable import CAddTable
from .Identity import Identity
from .JoinTable import JoinTable
from .Linear import Linear
from .LinearNoBias import LinearNoBias
from .LogSoftMax import LogSoftMax
from .Module import Module
from .ReLU import ReLU
from .Recursor import Recursor
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SoftMax import SoftMax
from .Tanh import Tanh

#: the modules that map a batch [B, H] row by row, so that after a cell the steps' batches may go through them
#: as one batch [T * N, H] (and the steps' samples [H] as one batch [T, H])
_ROW_WISE = (Identity, Linear, LinearNoBias, LogSoftMax, ReLU, Sigmoid, SoftMax, Tanh)
#: the table merges (BiSequencer's) that the fast path runs over every step's table at once, by kind
_TABLE_MERGES = {JoinTable: "join", CAddTable: "add"}


class Sequencer(AbstractSequencer):
    """Applies a module to every step of a sequence: the rnn package's way to
    run a recurrent module over a whole sequence in one forward.

    The sequence is a table (list) of steps, or an array ``[seqlen, ...]``
    whose first dim is time; the output is laid out the same way (a list
    of the steps' outputs, or an array ``[seqlen, ...]``).  A module that is
    not recurrent is wrapped in a Recursor (one clone per step, sharing the
    parameters), so ``Sequencer(Sequential(LookupTable, FastLSTM, Linear))``
    runs a whole network step by step.

    forward: the module forgets its past (unless ``remember()`` says
    otherwise, see AbstractSequencer), gets rho = seqlen, and is fed the
    steps in order.  backward: the steps in reverse order, each with its
    gradOutput (full backpropagation through time over the sequence); with
    ``remember``, the state carried in from the previous call is a
    constant.  updateGradInput and accGradParameters may be called
    separately, each after the forward.  In evaluation the outputs are
    copies (the module reuses its buffers from step to step then).

    In evaluation a FastLSTM, RecLSTM, GRU or RecGRU (alone, or first in
    the Sequential a Recursor steps, before Linear layers and activations
    that then take every step's rows at once) runs the whole sequence in
    one call of SeqLSTM's / SeqGRU's time loop, with its weights in their
    layout: the same values to rounding, the same state carried to the
    next call (``remember``) and left for ``getHiddenState``.  A
    JoinTable or CAddTable over a sequence of tables (BiSequencer's merge)
    takes every step's table in one call there.  Training steps as above,
    so backward is unchanged.
    """

    def __init__(self, module):
        if not isinstance(module, Module):
            raise TypeError(f"Sequencer: expected a Module, got {type(module).__name__}")
        super().__init__(module if isinstance(module, AbstractRecurrent) else Recursor(module))
        self.module = self.modules[0]
        self.output, self.gradInput = None, None

    def _t7_fixup(self, version):
        for name in ("tableoutput", "tablegradInput", "tablegradinput", "_output", "dpnn_mediumEmpty"):
            vars(self).pop(name, None)
        if not isinstance(self.modules[0], AbstractRecurrent):   # as the constructor does
            self.modules[0] = Recursor(self.modules[0])
        self.module = self.modules[0]
        self.output = self.gradInput = None

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the fields the package's constructor made: the tables
        it fills (output, tableoutput, tablegradInput, _output) and
        _remember; the Element-Research package also its ``module`` alias
        and dpnn's list of buffers not to serialize, torch/rnn modules[1]
        alone."""
        fields.update(tableoutput={}, tablegradInput={}, _output={}, _remember=self._remember)
        if not isinstance(fields.get("output"), list):
            fields["output"] = {}
        if package == "Element-Research/rnn":
            fields.update(module=self.modules[0], dpnn_mediumEmpty=["output", "gradInput", "_output"])
        else:
            fields.pop("module", None)

    # ---- sequences: a list of steps or an array with time first ----
    def _steps(self, sequence, name="input"):
        if isinstance(sequence, (list, tuple)):
            if not sequence:
                raise ValueError(f"{type(self).__name__}: {name} must be a sequence of at least one step, got an "
                                 "empty table")
            return list(sequence)
        if is_array(sequence):
            if sequence.ndim < 1 or sequence.shape[0] == 0:
                raise ValueError(f"{type(self).__name__}: {name} must have at least one step along its first "
                                 f"dim, got {describe(sequence)}")
            return [sequence[t] for t in range(sequence.shape[0])]
        raise TypeError(f"{type(self).__name__}: {name} must be a table (list) of steps or an array [seqlen, ...], "
                        f"got {type(sequence).__name__}")

    def _gather(self, buffer, steps, like):
        """The steps' arrays as like is laid out: a list, or one array
        [seqlen, ...] (into buffer when it fits)."""
        if is_array(like):
            first = steps[0]
            if not is_array(first) or any(getattr(s, "shape", None) != first.shape for s in steps):
                raise ValueError(f"{type(self).__name__}: the module's step results must be arrays of one shape to "
                                 "stack them along time")
            out = reuse(buffer, (len(steps),) + first.shape, first.dtype, *steps)
            for t, s in enumerate(steps):
                out[t] = s
            return out
        return list(steps)

    def _grad_steps(self, input, gradOutput):
        steps = self._steps(input)
        if is_array(input) and not is_array(gradOutput):
            raise TypeError(f"{type(self).__name__}: gradOutput must be an array [seqlen, ...] like the input, got "
                            f"{type(gradOutput).__name__}")
        grads = self._steps(gradOutput, "gradOutput")
        check_length(self, grads, len(steps), "gradOutput", "the input's steps")
        return steps, grads

    # ---- the verbs ----
    def updateOutput(self, input):
        steps = self._steps(input)
        self.module.maxBPTTstep(len(steps))
        if not self.hasMemory():
            self.module.forget()
        # in evaluation a cell the Seq kernels compute runs the whole sequence in one call (see
        # _bases/whole_sequence.py); else step by step, keeping copies in evaluation (the module reuses its
        # buffers from step to step then)
        outs = whole_sequence(self, input, steps, self._whole_sequence_plan())
        if outs is None:
            keep = (lambda o: o) if self.train else copy_of
            outs = [keep(self._child(0, "updateOutput", x)) for x in steps]
        self.output = outs if is_array(outs) else self._gather(self.output, outs, input)
        return self.output

    def _whole_sequence_plan(self):
        """What the fast path in evaluation (whole_sequence) runs: (the
        Recursor or None, the cell or None, the cell's ``_seq_layout()``
        (without a cell: "join" or "add" for a table merge, else None),
        the modules the Recursor's Sequential applies after the cell,
        whether they all map a batch row by row); None in training or for
        a module it does not take."""
        module = self.module
        if self.train or module.train:
            return None
        if type(module) is not Recursor:
            layout = module._seq_layout()
            return None if layout is None else (None, module, layout, [], False)
        inner = module.recurrentModule
        if isinstance(inner, AbstractRecurrent):
            cell, rest = inner, []
        elif type(inner) is Sequential and inner.modules and isinstance(inner.modules[0], AbstractRecurrent):
            cell, rest = inner.modules[0], inner.modules[1:]
        else:
            cell, rest = None, [inner]
        # (the _ROW_WISE layers hold no module: a rest of only those needs no search for a recurrent one)
        row_wise = all(type(m) in _ROW_WISE for m in rest)
        kinds = (AbstractRecurrent, AbstractSequencer)
        if not row_wise and any(isinstance(m, kinds) or top_recurrent(m, kinds) for m in rest):
            return None
        if cell is None:   # (a table merge that takes every step at once: its kind in the layout's place)
            merge = None if getattr(inner, "inplace", False) else _TABLE_MERGES.get(type(inner))
            return module, None, merge, rest, row_wise
        layout = None if cell.step != module.step or cell.train else cell._seq_layout()
        if layout is None:
            return None
        return module, cell, layout, rest, row_wise

    def updateGradInput(self, input, gradOutput):
        steps, grads = self._grad_steps(input, gradOutput)
        gradInputs = [None] * len(steps)
        for t in reversed(range(len(steps))):
            gradInputs[t] = self._child(0, "updateGradInput", steps[t], grads[t])
        self.gradInput = self._gather(self.gradInput, gradInputs, input)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        steps, grads = self._grad_steps(input, gradOutput)
        for t in reversed(range(len(steps))):
            self._child(0, "accGradParameters", steps[t], grads[t], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def training(self):
        if not self.train:
            self.module.forget()
        super().training()

    def evaluate(self):
        if self.train:
            self.module.forget()
        super().evaluate()

    def __repr__(self):
        return "nn.Sequencer @ " + repr(self.module)

    def _onnx(self, g, x, y):
        """its module's nodes at every time step, unrolled (the example's sequence length)"""
        onnx_forget(g, self, 0)
        outs = [g.child(self, 0, step) for step in self._onnx_steps(g, x)]
        return outs if isinstance(x, list) else g.stack(outs)

    def _onnx_steps(self, g, x):
        """The steps of a sequence: a table's entries, or an array's slices along time."""
        if isinstance(x, list):
            return list(x)
        if x.batched:
            g.fix_batch(f"it is unrolled over the {x.shape[0]} time steps of the example")
        return [g.derive(g.op("Gather", [x, np.array(t, dtype=np.int64)], axis=0), x, lambda a, t=t: a[t])
                for t in range(x.shape[0])]
