import numpy as np

from ._bases.recurrent import plus, share_parameters, shared_clone
from .AbstractRecurrent import AbstractRecurrent
from .Add import Add
from .CAddTable import CAddTable
from .Module import Module
from .ParallelTable import ParallelTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid


class Recurrent(AbstractRecurrent):
    """The rnn package's simple recurrent network, built from modules you
    give, fed one step per forward::

        h_1 = transfer(start(input(x_1)))
        h_t = transfer(merge([input(x_t), feedback(h_{t-1})]))    t > 1

    ``Recurrent(start, input, feedback, transfer=Sigmoid(), rho=9999,
    merge=CAddTable())``; ``start`` is a module or a size n (then
    ``Add(n)``, a learned bias for the first step).  The output h_t is the
    state.  Step 1 runs ``initialModule`` (a Sequential of a clone of input
    sharing its parameters, start, and a sharing clone of transfer); later
    steps run clones of ``recurrentModule``, ``Sequential(ParallelTable(input,
    feedback), merge, transfer)``.  Parameters: those of start, input,
    feedback, transfer and merge, in that order.  Time, BPTT and rho are
    AbstractRecurrent's.  Given a state h_0 (``setStartState``, which the
    rnn package did not have), step 1 is ``transfer(merge([input(x_1),
    feedback(h_0)]))`` like the others.  As the first step has a module of
    its own, ``maskZero`` is refused (as in the rnn package).
    """

    def __init__(self, start, input, feedback, transfer=None, rho=9999, merge=None):
        if isinstance(start, (int, np.integer)) and not isinstance(start, bool):
            start = Add(int(start))
        elif isinstance(start, (tuple, list)) and len(start) == 1:
            start = Add(int(start[0]))
        for name, m in (("start", start), ("input", input), ("feedback", feedback)):
            if not isinstance(m, Module):
                raise TypeError(f"Recurrent: {name} must be a Module{' or a size' if name == 'start' else ''}, "
                                f"got {type(m).__name__}")
        self.startModule, self.inputModule, self.feedbackModule = start, input, feedback
        self.transferModule = Sigmoid() if transfer is None else transfer
        self.mergeModule = CAddTable() if merge is None else merge
        super().__init__(self._build_recurrent(), rho)
        self.modules = [self.startModule, self.inputModule, self.feedbackModule, self.transferModule,
                        self.mergeModule]
        self.initialModule = Sequential().add(shared_clone(self.inputModule)).add(self.startModule) \
            .add(shared_clone(self.transferModule))

    _t7_raw_fields = ("sharedClones", "initialModule", "recurrentModule", "outputs", "gradInputs",
                      "_gradOutputs", "gradOutputs")

    def _t7_fixup(self, version):
        """The file's startModule ... mergeModule are kept; the modules of
        the first and later steps are built from them again."""
        from ._helpers.lua import T7Error
        for name in ("startModule", "inputModule", "feedbackModule", "transferModule", "mergeModule"):
            if not isinstance(vars(self).get(name), Module):
                raise T7Error(f"Recurrent: the file has no {name}")
        self._t7_finish(self._build_recurrent())
        self.modules = [self.startModule, self.inputModule, self.feedbackModule, self.transferModule,
                        self.mergeModule]
        self.initialModule = Sequential().add(shared_clone(self.inputModule)).add(self.startModule) \
            .add(shared_clone(self.transferModule))

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the Element-Research package's Recurrent (torch/rnn has
        none, so its layout whatever ``rnn`` says): rho, its five modules,
        initialModule and recurrentModule, a fresh sequence's empty record,
        sharedClones[2] the recurrent module (step 1 has initialModule)."""
        fields.update({k: {} for k in self._T7_FRESH})
        fields.update(step=1, rho=self.rho, sharedClones={2: self.recurrentModule})
        fields.pop("seqlen", None)

    def _build_recurrent(self):
        return Sequential().add(ParallelTable().add(self.inputModule).add(self.feedbackModule)) \
            .add(self.mergeModule).add(self.transferModule)

    def maskZero(self, nInputDim):
        raise NotImplementedError("Recurrent: maskZero is not supported, as the first step has a module of "
                                  "its own (the rnn package refused it too)")

    def _first(self):
        share_parameters(self.initialModule.modules[0], self.inputModule)
        share_parameters(self.initialModule.modules[2], self.transferModule)
        if self.initialModule.train != self.train:
            self.initialModule.training() if self.train else self.initialModule.evaluate()
        return self.initialModule

    def clearState(self):
        self.initialModule.clearState()
        return super().clearState()

    def _initial(self, step):
        """Whether step runs initialModule: step 1 without a start state."""
        return step == 1 and self._initial_state(None) is None

    def _forward_module(self, step):
        return self._first() if self._initial(step) else super()._forward_module(step)

    def _backward_module(self, step):
        return self._first() if self._initial(step) else super()._backward_module(step)

    def _initial_state(self, input):
        """None (step 1 runs initialModule) unless a state h_0 was given
        (setStartState, setHiddenState(0, h)): then step 1 is a step like
        the others, from h_0."""
        return self._states[0] if self._states and 0 in self._states else self.startState

    def _step_input(self, input, prev, step):
        return input if self._initial(step) else [input, prev]

    def _step_output(self, out):
        return out, out

    def _step_gradOutput(self, gradOutput, gradState, state):
        return plus(gradOutput, gradState)

    def _step_gradInput(self, gradInput, step):
        return (gradInput, None) if self._initial(step) else (gradInput[0], gradInput[1])

    def __repr__(self):
        parts = [("start", self.startModule), ("input", self.inputModule), ("feedback", self.feedbackModule),
                 ("merge", self.mergeModule), ("transfer", self.transferModule)]
        lines = ["nn.Recurrent {", "  [{input(t), output(t-1)} -> output(t)]"]
        lines += [f"  ({name}): " + repr(m).replace("\n", "\n  ") for name, m in parts]
        return "\n".join(lines + ["}"])

    def _onnx_step_module(self, step):
        return "initialModule" if self._initial(step) else "recurrentModule"

    def _onnx_start(self, g, x):
        return None if self._initial(1) else super()._onnx_start(g, x)
