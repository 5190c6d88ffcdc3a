import numpy as np

from ._bases.recurrent import acc_update_by_swap, add_into, copy_of
from ._bases.tables import check_length, nested_copy
from ._helpers.arrays import check_like, describe, is_array
from ._helpers.namespace import array_namespace
from .AbstractRecurrent import AbstractRecurrent
from .AbstractSequencer import AbstractSequencer
from .Module import Module


class RecurrentAttention(AbstractSequencer):
    """The glimpse loop of the recurrent attention model (Mnih et al., 2014),
    as the rnn package's RecurrentAttention: an ``action`` module picks
    where to look from the rnn's last output, the ``rnn`` takes the input
    and that action, for ``nStep`` steps::

        a_1 = action(zeros [batch, *hiddenSize])
        h_t = rnn({x, a_t});   a_{t+1} = action(h_t)

    The output is the table of the nStep rnn outputs h_t (with
    ``forwardActions = True``, of the pairs ``[h_t, a_t]``).  A module that is
    not recurrent is wrapped in a Recursor (rnn and action both: each step
    on a clone sharing the parameters); both forget at each forward.

    Backward, as in the package: gradOutput a table of nStep gradients (of
    pairs with forwardActions); going back from the last step, the action's
    backward gives the gradient w.r.t. the rnn output it read, added to that
    step's gradOutput; the rnn's gradient w.r.t. the action it took is
    dropped (the action is trained by REINFORCE: an action ending in a
    Reinforce module ignores its gradOutput and uses the reward that
    ``reinforce`` gave it); gradInput is the sum over the steps of the rnn's
    gradient w.r.t. x.

    ``RecurrentAttention(rnn, action, nStep, hiddenSize)``: hiddenSize the
    shape of one sample's rnn output (a number or a list of numbers), the
    input of the first action.  In evaluation the outputs are copies (the
    modules reuse their buffers from step to step then).
    """

    _onnx_unsupported = "the glimpse loop's actions are sampled (REINFORCE) while training; not exported yet"

    def __init__(self, rnn, action, nStep, hiddenSize):
        super().__init__()
        from .Recursor import Recursor
        for name, m in (("rnn", rnn), ("action", action)):
            if not isinstance(m, Module):
                raise TypeError(f"RecurrentAttention: {name} must be a Module, got {type(m).__name__}")
        if isinstance(nStep, bool) or not isinstance(nStep, (int, np.integer)) or nStep < 1:
            raise ValueError(f"RecurrentAttention: nStep must be a positive integer, got {nStep!r}")
        self.nStep = int(nStep)
        self.hiddenSize = _size(hiddenSize)
        self.rnn = rnn if isinstance(rnn, AbstractRecurrent) else Recursor(rnn)
        self.action = action if isinstance(action, AbstractRecurrent) else Recursor(action)
        self.modules = [self.rnn, self.action]
        self.forwardActions = False
        self.output = None
        self.actions = None
        self._hidden = None     # the rnn outputs h_t, which the actions read
        self._initInput = None
        self._gradAction = None
        self.gradHidden = None

    def _sync(self):
        """rnn and action are modules[0] and [1] (a clone or a load keeps them)."""
        self.rnn, self.action = self.modules

    def updateOutput(self, input):
        self._sync()
        if not is_array(input) or input.ndim < 1:
            got = describe(input) if is_array(input) else type(input).__name__
            raise TypeError(f"RecurrentAttention: input must be an array [batch, ...], got {got}")
        xp = array_namespace(input)
        for m in (self.rnn, self.action):
            m.maxBPTTstep(max(m.rho, self.nStep))
            m.forget()
        self._initInput = xp.zeros((input.shape[0],) + self.hiddenSize, input.dtype)
        actions, hidden = [], []
        for t in range(self.nStep):
            a = self._child(1, "updateOutput", self._initInput if t == 0 else hidden[t - 1])
            if not self.train:
                a = copy_of(a)
            h = self._child(0, "updateOutput", [input, a])
            if not self.train:
                h = copy_of(h)
            actions.append(a)
            hidden.append(h)
        self.actions, self._hidden = actions, hidden
        self.output = [[h, a] for h, a in zip(hidden, actions)] if self.forwardActions else list(hidden)
        return self.output

    def _check(self, gradOutput):
        self._sync()
        if self._hidden is None or self.rnn.step - 1 != self.nStep:
            raise RuntimeError(f"RecurrentAttention: backward needs a forward of nStep={self.nStep} steps first")
        grads = check_length(self, gradOutput, self.nStep, "gradOutput", "nStep")
        for t, g in enumerate(grads):
            if self.forwardActions:
                if not isinstance(g, (list, tuple)) or len(g) != 2:
                    raise ValueError(f"RecurrentAttention: with forwardActions, gradOutput[{t}] must be the pair "
                                     "[gradient of h_t, gradient of a_t]")
                check_like(self, g[1], f"gradOutput[{t}][1]", self.actions[t], f"action {t}")
                g = g[0]
            if is_array(self._hidden[t]):
                check_like(self, g, f"gradOutput[{t}]" + ("[0]" if self.forwardActions else ""), self._hidden[t],
                           f"output {t}")
        return grads

    def _grad_action(self, grads, t):
        if self.forwardActions:
            return grads[t][1]
        a = self.actions[t]
        if not (is_array(self._gradAction) and self._gradAction.shape == a.shape and self._gradAction.dtype == a.dtype):
            self._gradAction = array_namespace(a).zeros(a.shape, a.dtype)
        return self._gradAction

    def updateGradInput(self, input, gradOutput):
        grads = self._check(gradOutput)
        hidden = [None] * self.nStep
        total = None
        for t in reversed(range(self.nStep)):
            g_out = grads[t][0] if self.forwardActions else grads[t]
            g_action = self._grad_action(grads, t)
            if t == self.nStep - 1:
                hidden[t] = nested_copy(None, g_out)
            else:
                add_into(hidden[t], g_out)
            if t == 0:
                self._child(1, "updateGradInput", self._initInput, g_action)
            else:
                hidden[t - 1] = nested_copy(None, self._child(1, "updateGradInput", self._hidden[t - 1], g_action))
            g = self._child(0, "updateGradInput", [input, self.actions[t]], hidden[t])[0]
            if total is None:
                total = nested_copy(self.gradInput if is_array(self.gradInput) else None, g)
            else:
                add_into(total, g)
        self.gradHidden = hidden
        self.gradInput = total
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        grads = self._check(gradOutput)
        if self.gradHidden is None:
            raise RuntimeError("RecurrentAttention: accGradParameters needs updateGradInput first")
        for t in reversed(range(self.nStep)):
            g_action = self._grad_action(grads, t)
            self._child(1, "accGradParameters", self._initInput if t == 0 else self._hidden[t - 1], g_action, scale)
            self._child(0, "accGradParameters", [input, self.actions[t]], self.gradHidden[t], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def clearState(self):
        self._hidden = self.actions = self._initInput = self._gradAction = self.gradHidden = None
        return super().clearState()

    # ---- Torch7 files ----
    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        from .Recursor import Recursor
        fields = vars(self)
        modules = fields.get("modules")
        if not (isinstance(modules, list) and len(modules) == 2 and all(isinstance(m, Module) for m in modules)):
            raise T7Error("RecurrentAttention: the file holds no modules {rnn, action}")
        n = fields.get("nStep")
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n < 1 or n != int(n) or n > 2 ** 31:
            raise T7Error(f"RecurrentAttention: nStep in the file must be a positive whole number, got {n!r}")
        self.nStep = int(n)
        try:
            self.hiddenSize = _size(fields.get("hiddenSize"))
        except (TypeError, ValueError) as e:
            raise T7Error(f"RecurrentAttention: hiddenSize in the file: {e}") from None
        self.modules = [m if isinstance(m, AbstractRecurrent) else Recursor(m) for m in modules]
        self._sync()
        self.forwardActions = bool(fields.get("forwardActions", False))
        for name in ("_input", "_actions", "_crop", "_pad", "_byte"):
            fields.pop(name, None)
        self.output = self.actions = self.gradInput = None
        self._hidden = self._initInput = self._gradAction = self.gradHidden = None

    def _t7_unfixup(self, fields):
        """save_lua: the tables the package's constructor made (output,
        actions, gradHidden: empty, as a fresh module's) and hiddenSize as a
        table."""
        fields.update(output={}, actions={}, gradHidden={}, hiddenSize=list(self.hiddenSize),
                      forwardActions=bool(self.forwardActions))

    _t7_tables = ("output",)

    def __repr__(self):
        action, rnn = (repr(m).replace("\n", "\n  ") for m in (self.action, self.rnn))
        return f"nn.RecurrentAttention {{\n  action : {action}\n  rnn    : {rnn}\n}}"


def _size(size):
    """hiddenSize as a shape tuple: a number, or a list of numbers (a table of
    tables, a table hidden layer, is refused, as in the package)."""
    if is_array(size) and size.ndim == 1:
        size = [float(v) for v in size.tolist()]
    if isinstance(size, dict):   # (a Lua table read raw)
        size = [size[k] for k in sorted(size)]
    if isinstance(size, (int, float, np.integer)) and not isinstance(size, bool):
        size = [size]
    if not isinstance(size, (list, tuple)) or not size:
        raise ValueError(f"hiddenSize must be a number or a list of numbers, got {size!r}")
    if not all(isinstance(v, (int, float, np.integer)) and not isinstance(v, bool) and v >= 1 and v == int(v)
               for v in size):
        raise ValueError(f"hiddenSize must hold positive whole numbers (a table hidden layer is not supported, as "
                         f"in the rnn package), got {list(size)!r}")
    return tuple(int(v) for v in size)
