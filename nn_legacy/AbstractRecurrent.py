import numpy as np

from ._helpers.checks import check_positive
from ._bases.recurrent import acc_update_by_swap, check_like, share_parameters, shared_clone, top_recurrent, zeros_like
from .Container import Container, _message


class AbstractRecurrent(Container):
    """The rnn package's base of recurrent modules: one time step per
    ``forward``, backpropagation through time (BPTT) by calling
    ``backward`` for those steps in reverse order.

    A subclass has a *step module* (``recurrentModule``, also
    ``modules[0]``) that maps a step's input and the previous hidden state to
    the step's output and the new hidden state, and says how the two are
    laid out (``_step_input`` and the other hooks below).  Steps are counted
    from 1 (``self.step`` is the one the next forward computes); step 0 is
    the initial state: zeros, unless ``setStartState(state)`` (kept across
    ``forget``), ``setHiddenState(0, state)`` (until ``forget``) or, for
    LSTM and GRU, the ``userPrevOutput`` / ``userPrevCell`` attributes give
    one.  ``getHiddenState(t)`` is the state after step t.

    Going forward while training, each step runs on its own *clone* of the
    step module: the clones share the parameters and their gradient arrays
    (so gradients of every step accumulate in the same ``gradWeight``), and
    each keeps the buffers of its step for the backward pass.  The module
    keeps the clones of the last ``rho + 1`` steps (``rho``: the most steps
    BPTT goes back; older clones are reused for new steps), so::

        for t in range(T):            # forward, step by step
            outputs.append(lstm.forward(x[t]))
        for t in reversed(range(T)):  # then backward, last step first
            lstm.backward(x[t], gradOutputs[t])

    ``backward(x_t, g_t)`` for step t adds g_t to the gradient that step
    t + 1 sent back to the state (nothing at the last step) and backpropagates
    it through step t's clone: the result is ``gradInput`` (w.r.t. x_t) and the
    gradient w.r.t. the state of step t - 1, carried to the next call
    (``getGradHiddenState(t - 1)``; after step 1, the gradient w.r.t. the
    initial state).  Stopping before step 1 truncates BPTT; going back more
    than rho steps is an error.  ``updateGradInput`` and
    ``accGradParameters`` may also be called separately, each in reverse
    order.  A new forward ends the backward pass.

    ``forget()`` starts a new sequence (step 1, initial state); the module
    otherwise remembers its state from call to call.  In evaluation
    (``evaluate()``) no clones are kept: two step modules take turns, and
    backward is refused.  ``maskZero(nInputDim)`` wraps the step module in a
    ``MaskZero``: a sample whose step input is all zeros gets a zero output
    and state (a padded sequence starts afresh after its padding).

    What a subclass defines (Recursor: the identity for all but the input):

    - ``_step_input(input, prev, step)``: what the step module takes, from
      the step's input and the previous state.
    - ``_step_output(out)``: (this module's output, the new state), from what
      the step module returned.
    - ``_step_gradOutput(gradOutput, gradState, state)``: the gradient the
      step module takes, from the gradient w.r.t. this module's output and
      the one carried back to the state (None: zero).
    - ``_step_gradInput(gradInput, step)``: (gradient w.r.t. the step's
      input, gradient w.r.t. the previous state).
    - ``_zero_state(input)``: the initial state for a batch like input.

    A subclass whose step module is any module (Recursor, Recurrence) sets
    ``_decorates_any``: recurrent modules inside it are not cloned but
    follow the steps (``setOutputStep`` before each backward step, and
    ``maxBPTTstep``), and a file's step module is read as it loads.
    """

    _decorates_any = False
    _t7_lua_package = None   # save_lua: the rnn package that alone has the class (see _t7_rnn_layout)
    _buffer_names = ("_states", "_outputs", "_clones", "_spare", "_gradStates", "_gradOutputs", "_gradInputs",
                     "_share_cache")
    _cache_names = ("_share_cache",)
    startState = None

    def __init__(self, stepModule, rho=9999):
        super().__init__(stepModule)
        check_positive(type(self).__name__, rho=rho)
        self.rho = int(rho)
        self.recurrentModule = stepModule
        self._forget_steps()

    # ---- the step module ----
    def add(self, module):
        if self.modules:
            raise ValueError(f"{type(self).__name__}.add: it has its step module already")
        return super().add(module)

    def _set_step_module(self, module):
        """Replace the step module (maskZero, loading): the clones go."""
        self.modules[0] = self.recurrentModule = module
        self._forget_steps()
        self._clones, self._spare, self._share_cache = {}, [], None

    def maskZero(self, nInputDim):
        """Wrap the step module in a MaskZero (see the class doc); returns self."""
        from .MaskZero import MaskZero
        self._set_step_module(MaskZero(self.recurrentModule, nInputDim, True))
        return self

    def _new_clone(self):
        return shared_clone(self.recurrentModule, keep=top_recurrent(self.recurrentModule, _RECURRENT))

    def _module_for(self, step):
        """The step module that computes step (a new clone, or one whose step
        left the window), with the current parameters."""
        keep = self.rho + 1 if self.train else 2
        limit = step - keep                    # steps up to limit leave the window
        for kept in (self._states, self._outputs, self._gradInputs, self._gradStates, self._gradOutputs):
            for s in [s for s in kept if 1 <= s <= limit]:
                del kept[s]
        for s in [s for s in self._clones if s <= limit]:
            self._spare.append(self._clones.pop(s))
        module = self._clones.get(step)
        if module is None:
            module = self._spare.pop() if self._spare else self._new_clone()
            self._clones[step] = module
        share_parameters(module, self.recurrentModule, self._shared())
        if module.train != self.train:
            module.training() if self.train else module.evaluate()
        return module

    def _shared(self):
        """share_parameters' cache for the step clones (work memory: clearState drops it)."""
        cache = getattr(self, "_share_cache", None)
        if cache is None:
            cache = self._share_cache = {}
        return cache

    def _forward_module(self, step):
        return self._module_for(step)

    def _backward_module(self, step):
        module = self._clones.get(step)
        if module is None:
            raise RuntimeError(f"{type(self).__name__}: no step module kept for step {step}")
        share_parameters(module, self.recurrentModule, self._shared())
        if self._decorates_any:
            for inner in top_recurrent(module, _RECURRENT):
                inner.setOutputStep(step)   # so module's backward sees that step's outputs inside it
        return module

    def _call(self, module, step, method, *args):
        """module.method(*args), an error naming this module and the step."""
        try:
            return getattr(module, method)(*args)
        except (ValueError, TypeError, RuntimeError, IndexError) as e:
            raise type(e)(f"{type(self).__name__} (step {step}) -> {_message(module, e)}") from e

    # ---- save_lua ----
    def _t7_rnn_layout(self, fields, package):
        """save_lua, for a recurrent module without a cell tree of its own
        (Recursor, Recurrence...): the fields the rnn package's
        AbstractRecurrent constructor made and its forward reads before it
        sets them (the step records, the shared clones), as a fresh sequence;
        torch/rnn's seqlen and modules[1], Element-Research/rnn's rho and
        recurrentModule."""
        step = self.recurrentModule
        for key in ("outputs", "gradInputs", "_gradOutputs", "gradOutputs"):
            fields[key] = {}
        fields["step"] = 1
        if package == "Element-Research/rnn":
            fields.update(rho=self.rho, recurrentModule=step, sharedClones={})
        else:
            fields.update(seqlen=self.rho, sharedClones=[step])
            fields.setdefault("modules", [step])
        return True

    def _t7_lua_cell(self, fields, tree, parts, package, keep):
        """save_lua: fields become those the rnn package's constructor of the
        cell made (its FastLSTM, LSTM, GRU) around tree, the step module it
        built: for package "Element-Research/rnn" rho and recurrentModule,
        for "torch/rnn" seqlen and modules[1] alone; the record of a fresh
        sequence (step 1, no outputs: a file read in Lua starts a sequence,
        as one read here does); keep: the fields of the cell's own kept as
        they are; parts: the fields that name modules of the tree (i2g...).
        A step module wrapped by maskZero is written wrapped, in a MaskZero
        of the tree."""
        from .MaskZero import MaskZero
        step = self.recurrentModule
        masked = isinstance(step, MaskZero)
        if masked:
            tree = MaskZero(tree, step.nInputDim, True)
        params = self.parameters()[0]
        dtype = np.dtype(params[0].dtype) if params else np.dtype(np.float64)
        out = {k: fields[k] for k in ("output", "gradInput", "train", "userPrevOutput", "userPrevCell") + keep
               if k in fields}
        out.update(_type=f"torch.{'Float' if dtype == np.float32 else 'Double'}Tensor", modules=[tree],
                   outputs={}, gradInputs={}, _gradOutputs={}, gradOutputs={}, step=1, sharedClones=[tree],
                   zeroTensor=np.zeros(0, dtype), cells={}, gradCells={})
        if package == "Element-Research/rnn":
            out.update(rho=self.rho, recurrentModule=tree)
        else:
            out["seqlen"] = self.rho
            if masked:
                out["maskzero"] = True
        out.update(parts)
        fields.clear()
        fields.update(out)

    #: the fields of a fresh sequence that the rnn package's AbstractRecurrent constructor made
    _T7_FRESH = ("outputs", "gradInputs", "_gradOutputs", "gradOutputs")

    def _t7_rnn_layout(self, fields, package):
        """save_lua, for a recurrent module whose step module is written as
        it is (Recursor, Recurrence, NormStabilizer...): the rnn package's
        AbstractRecurrent record of a fresh sequence around it (step 1,
        empty outputs..., sharedClones holding the step module).  For
        "Element-Research/rnn": rho, recurrentModule, and module where the
        class had that alias (Recursor, Recurrence); for "torch/rnn":
        seqlen and modules[1] alone, and maskzero where maskZero wrapped
        the step module (torch/rnn's flag).  A class of one package alone
        names it (``_t7_lua_package``): its layout whatever ``rnn`` says."""
        self._t7_recurrent_record(fields, self._t7_lua_package or package, self.recurrentModule)

    def _t7_recurrent_record(self, fields, package, step):
        """fields become the AbstractRecurrent record of package around step
        (see _t7_rnn_layout)."""
        from .MaskZero import MaskZero
        drop = ("rho", "seqlen", "recurrentModule", "modules", "maskzero", "sharedClones") + self._T7_FRESH
        out = {k: v for k, v in fields.items() if k not in drop}
        out.update({k: {} for k in self._T7_FRESH})
        out.update(step=1, modules=[step], sharedClones=[step])
        if package == "Element-Research/rnn":
            out.update(rho=self.rho, recurrentModule=step)
        else:
            out.pop("module", None)   # (torch/rnn's classes kept the step module in modules[1] only)
            out["seqlen"] = self.rho
            if isinstance(step, MaskZero):
                out["maskzero"] = True
        fields.clear()
        fields.update(out)

    # ---- time ----
    def _steps(self):
        """The step records, made again after clearState or loading."""
        if self._states is None or self._clones is None:
            self._forget_steps()

    def _forget_steps(self):
        self.step = 1
        self._states, self._outputs, self._gradInputs = {}, {}, {}
        self._gradStates, self._gradOutputs = {}, {}
        self.updateGradInputStep = self.accGradParametersStep = None
        if getattr(self, "_clones", None) is None or getattr(self, "_spare", None) is None:
            self._clones, self._spare = {}, []
        else:   # the clones stay, free for the new steps
            self._spare += self._clones.values()
            self._clones = {}

    def forget(self):
        """Start a new sequence: the next forward is step 1 from the initial
        state (recurrent modules inside the step module forget too)."""
        self._forget_steps()
        return super().forget()

    def maxBPTTstep(self, rho):
        """Set rho, the most steps backward goes back (Sequencer sets it to
        the length of its sequence)."""
        check_positive(type(self).__name__, rho=rho)
        self.rho = int(rho)
        if self._decorates_any:
            self.recurrentModule.maxBPTTstep(rho)

    def training(self):
        if not self.train:
            self._forget_steps()
        super().training()
        for m in self._spare or ():
            m.training()

    def evaluate(self):
        if self.train:
            self._forget_steps()
        super().evaluate()
        for m in self._spare or ():
            m.evaluate()

    def reinforce(self, reward):
        """The rnn package's AbstractRecurrent:reinforce: a list of rewards,
        or an array of 2 dims or more ``[steps, batch...]``, gives one to
        each of the last steps forwarded (the last reward to the last step),
        through the clone that computed it; one reward ``[batch]`` goes to
        the step module and every clone."""
        from ._helpers.arrays import is_array
        self._steps()
        if isinstance(reward, (list, tuple)) or (is_array(reward) and reward.ndim >= 2):
            n = len(reward)
            if n >= self.step:
                raise ValueError(f"{type(self).__name__}.reinforce: {n} rewards, one per step, but "
                                 f"{self.step - 1} steps were forwarded")
            for k in range(n):
                step = self.step - 1 - k
                module = self._clones.get(step) if self.train else None
                if module is None:
                    raise RuntimeError(f"{type(self).__name__}.reinforce: no step module kept for step {step} "
                                       "(training keeps the last rho + 1 steps; evaluate() none)")
                module.reinforce(reward[n - 1 - k])
            return
        for m in [self.recurrentModule] + list(self._clones.values()) + list(self._spare or ()):
            m.reinforce(reward)

    # ---- hidden states ----
    def setStartState(self, state):
        """The initial state of every sequence from now on (None: zeros)."""
        self.startState = state

    def getHiddenState(self, step=None, input=None):
        """The state after step (the last step forwarded when None); step 0:
        the initial state (for a batch like input, when it is zeros)."""
        self._steps()
        step = self.step - 1 if step is None else step
        if step in self._states:
            return self._states[step]
        if step == 0:
            return self._initial_state(input)
        raise RuntimeError(f"{type(self).__name__}: no hidden state of step {step} (steps 1 to {self.step - 1} "
                           f"were forwarded; the last {self.rho + 1} are kept)")

    def setHiddenState(self, step, state):
        """Make state the state after step (0: the initial state, until forget)."""
        self._steps()
        self._states[step] = state

    def getGradHiddenState(self, step=None):
        """The gradient w.r.t. the state after step, as backward carried it
        (None before backward reached step + 1)."""
        self._steps()
        step = (self.updateGradInputStep if self.updateGradInputStep is not None else self.step - 1) \
            if step is None else step
        return self._gradStates.get(step)

    def setGradHiddenState(self, step, gradState):
        """The gradient w.r.t. the state after step that backward adds at
        step (say from a decoder, at the last step of an encoder)."""
        self._steps()
        self._gradStates[step] = gradState

    def _initial_state(self, input):
        if 0 in self._states:
            return self._states[0]
        if self.startState is not None:
            return self.startState
        user = self._user_state(input)
        if user is not None:
            return user
        if input is None:
            raise RuntimeError(f"{type(self).__name__}: the initial state is zeros shaped by the input")
        return self._zero_state(input)

    def _user_state(self, input):
        """The rnn package's userPrevOutput (and userPrevCell): None here."""
        return None

    def setOutputStep(self, step):
        """output and gradInput of step again (Recursor, for a recurrent
        module inside its step module)."""
        self._steps()
        if step not in self._outputs:
            raise RuntimeError(f"{type(self).__name__}: no output kept for step {step}")
        self.output = self._outputs[step]
        self.gradInput = self._gradInputs.get(step)

    # ---- the verbs ----
    def updateOutput(self, input):
        self._steps()
        step = self.step
        prev = self.getHiddenState(step - 1, input)
        module = self._forward_module(step)
        out = self._call(module, step, "updateOutput", self._step_input(input, prev, step))
        self.output, state = self._step_output(out)
        self._states[step], self._outputs[step] = state, self.output
        self.step = step + 1
        self.updateGradInputStep = self.accGradParametersStep = None
        return self.output

    def _backward_step(self, which):
        """The step the next updateGradInput / accGradParameters is for."""
        if not self.train:
            raise RuntimeError(f"{type(self).__name__}: backward needs training mode (evaluate() keeps no steps)")
        self._steps()
        if self.step == 1:
            raise RuntimeError(f"{type(self).__name__}: backward needs a forward first")
        current = getattr(self, which)
        step = self.step - 1 if current is None else current
        if step < 1:
            raise RuntimeError(f"{type(self).__name__}: backward went past step 1 ({self.step - 1} steps forwarded); "
                               "call forward (or forget()) first")
        if step < self.step - self.rho:
            raise RuntimeError(f"{type(self).__name__}: backward cannot go back more than rho={self.rho} steps "
                               f"(step {step} of {self.step - 1}); raise rho (maxBPTTstep)")
        return step

    def updateGradInput(self, input, gradOutput):
        step = self._backward_step("updateGradInputStep")
        module = self._backward_module(step)
        check_like(self, gradOutput, self._outputs[step])
        state = self._states[step]
        total = self._step_gradOutput(gradOutput, self._gradStates.get(step), state)
        self._gradOutputs[step] = total
        stepInput = self._step_input(input, self.getHiddenState(step - 1, input), step)
        gradIn = self._call(module, step, "updateGradInput", stepInput, total)
        self.gradInput, self._gradStates[step - 1] = self._step_gradInput(gradIn, step)
        self._gradInputs[step] = self.gradInput
        self.updateGradInputStep = step - 1
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        step = self._backward_step("accGradParametersStep")
        if self.updateGradInputStep is None or step <= self.updateGradInputStep:
            raise RuntimeError(f"{type(self).__name__}: accGradParameters for step {step} needs its "
                               "updateGradInput first")
        module = self._backward_module(step)
        stepInput = self._step_input(input, self.getHiddenState(step - 1, input), step)
        self._call(module, step, "accGradParameters", stepInput, self._gradOutputs[step], scale)
        self.accGradParametersStep = step - 1

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def _seq_layout(self):
        """The step module as SeqLSTM's / SeqGRU's time loop takes it,
        ("SeqLSTM" or "SeqGRU", W_x, W_h, bias) in their layout, when that
        kernel computes it (Sequencer's fast path in evaluation, see
        nn_legacy/_bases/whole_sequence.py); None here: the cells that
        have such a step say so."""
        return None

    # ---- the hooks (a module of one array in and out, with no state) ----
    def _step_input(self, input, prev, step):
        return input

    def _step_output(self, out):
        return out, None

    def _step_gradOutput(self, gradOutput, gradState, state):
        return gradOutput

    def _step_gradInput(self, gradInput, step):
        return gradInput, None

    def _zero_state(self, input):
        return None

    # ---- Torch7 files ----
    def _t7_loaded_step(self, what="step module"):
        """The loaded step module of a _decorates_any subclass: recurrentModule
        (Element-Research) or modules[1] (torch/rnn)."""
        from .Module import Module
        fields = vars(self)
        step = fields.get("recurrentModule")
        if not isinstance(step, Module):
            modules = fields.get("modules")
            step = modules[0] if isinstance(modules, list) and modules else None
        if not isinstance(step, Module):
            from ._helpers.lua import T7Error
            raise T7Error(f"{type(self).__name__}: the file holds no {what} (recurrentModule or modules[1])")
        return step

    def _t7_finish(self, step, nInputDim=None):
        """After a subclass's _t7_fixup rebuilt the step module: the rnn
        package's record of the last sequence goes, time starts afresh."""
        from ._bases.rnn_t7 import CELL_RAW_FIELDS, drop_state_fields, rho_of
        self.rho = rho_of(self)
        drop_state_fields(self, CELL_RAW_FIELDS)
        for name in ("userPrevOutput", "userPrevCell"):
            value = vars(self).get(name)
            if value is not None and getattr(value, "size", 1) == 0:
                vars(self).pop(name)
        self.modules = [step]
        self.recurrentModule = step
        self.output = self.gradInput = None
        self._clones = self._spare = self._states = None
        self._forget_steps()
        if nInputDim is not None:
            self.maskZero(nInputDim)
        if not self.train:
            Container.evaluate(self)

    # ---- state, types, the tree ----
    def clearState(self):
        """Drop the clones and the record of the steps too (made again as needed)."""
        self._clones = self._spare = None
        super().clearState()
        self.step = 1
        self.updateGradInputStep = self.accGradParametersStep = None
        return self

    def type(self, dtype=None, _memo=None):
        if dtype is not None:   # the clones and the kept states are dropped, not converted
            self._clones = self._spare = None
            self._forget_steps()
        return super().type(dtype, _memo)

    def cuda(self, device=None):
        self._clones = self._spare = None
        self._forget_steps()
        return super().cuda(device)

    def _zeros_like(self, value):
        return zeros_like(value)

    def __repr__(self):
        inputSize, outputSize = getattr(self, "inputSize", None), getattr(self, "outputSize", None)
        if inputSize is not None and outputSize is not None:
            return f"nn.{type(self).__name__}({inputSize} -> {outputSize})"
        return f"nn.{type(self).__name__} @ " + repr(self.recurrentModule)

    def _onnx(self, g, x, y):
        """one step of its step module, from the state of the step before (Sequencer unrolls the steps)"""
        key = ("recurrent state", id(self))
        if key in g.memo:
            step, prev = g.memo[key]
        elif self.step != 1:
            from ._helpers.onnx_types import NotExportable
            raise NotExportable(f"it is at step {self.step} of a sequence, so its output depends on the calls before: "
                                "forget() it, or export the Sequencer that runs it")
        else:
            step, prev = 1, self._onnx_start(g, x)
        out = g.inner(self, self._onnx_step_module(step), self._step_input(x, prev, step))
        output, state = self._step_output(out)
        g.memo[key] = (step + 1, state)
        return output

    def _onnx_step_module(self, step):
        """The attribute holding the module that computes step."""
        return "recurrentModule"

    def _onnx_state_per_sample(self, first, a):
        """Whether state a holds a row per sample of the batch input first:
        a state of a batch input [batch, n] is [batch, m]."""
        return first.batched and first.ndim >= 2 and a.ndim == first.ndim and a.shape[0] == first.shape[0]

    def _onnx_start(self, g, x):
        """The initial state as Values: given ones as constants, zeros shaped
        by the input's batch at run time."""
        self._steps()
        example = g.arrays(x)
        given = 0 in self._states or self.startState is not None or self._user_state(example) is not None
        state = self._initial_state(example)
        first = x
        while isinstance(first, list):
            first = first[0]

        def value(a):
            per_sample = self._onnx_state_per_sample(first, a)
            if given and per_sample:
                g.fix_batch("its initial state is given for the example's batch")
            if given or not per_sample:
                return g.constant(a, "state")
            return g.expand_batch(np.zeros(a.shape[1:], a.dtype), first)
        return _nested(value, state)


_RECURRENT = (AbstractRecurrent,)


def _nested(fn, value):
    if isinstance(value, (list, tuple)):
        return [_nested(fn, v) for v in value]
    return None if value is None else fn(value)
