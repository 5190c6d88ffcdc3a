"""What SeqLSTM and SeqGRU share: a recurrent layer over a whole sequence
``[seqlen, batch, inputSize]`` per forward, with the rnn package's options
(initial states in the input table, ``remember``, ``batchfirst``,
``maskzero``, ``userPrevOutput``...)."""
import numpy as np

import thnn

from .._helpers.arrays import describe, is_array, reuse
from .._helpers.namespace import array_namespace
from .recurrent import check_remember, remembers
from ..Module import Module, _plain_dtype

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def sigmoid(a):
    return 1 / (1 + array_namespace(a).exp(-a))


def sigmoid_in_place(a):
    """a[...] = sigmoid(a): on the host in place, without the temporaries (the same operations, rounded
    alike: negate, exp, add 1, 1 / that)."""
    if type(a) is np.ndarray:
        np.negative(a, out=a)
        np.exp(a, out=a)
        a += 1
        np.reciprocal(a, out=a)
    else:
        a[...] = sigmoid(a)


def tanh_in_place(a):
    if type(a) is np.ndarray:
        np.tanh(a, out=a)
    else:
        a[...] = array_namespace(a).tanh(a)


def _zeros(shape, dtype):
    """A read-only array of zeros (kept: the initial states of the usual
    case, one per batch size, hidden size and dtype)."""
    key = shape, dtype
    zeros = _ZEROS.get(key)
    if zeros is None:
        if len(_ZEROS) >= 64:   # (many batch sizes: start again)
            _ZEROS.clear()
        zeros = _ZEROS[key] = np.zeros(shape, dtype)
        zeros.flags.writeable = False
    return zeros


_ZEROS = {}


class _Kernels(dict):
    """(kernel name, host dtype) -> THNN's ``<name>_updateOutput`` for it, looked up once."""

    def __missing__(self, key):
        name, dtype = key
        kernel = self[key] = getattr(thnn.Float if dtype == _F32 else thnn.Double, f"{name}_updateOutput")
        return kernel


_HOST_KERNELS = _Kernels()


class SeqRecurrent(Module):
    """The plumbing of SeqLSTM and SeqGRU (not a layer itself).

    A subclass names its states (``_state_names``: ("c0", "h0") or
    ("h0",), in the order the input table gives them before x) and
    supplies ``_forward_steps(x, states, mask)`` and ``_backward_steps(x,
    gradOutput, states, mask, want_input, scale)``; the forward of both runs
    its time loop in one THNN kernel call (``<Layer>_updateOutput``, a
    CUDA twin on a device): there is no Python step loop left to fall back
    on, as the kernel takes every case (masks, given or remembered states,
    strided weights, float and double).  weight is ``[inputSize
    + outputSize, gates * outputSize]`` (x's rows first), bias ``[gates *
    outputSize]``: the rnn package's layout."""

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("_h", "_c", "_gates_buffer", "_grad_x", "_saved", "_last")
    _state_names = ()
    #: save_lua: the work tensors the package's constructor made (empty) besides the initial states
    _t7_lua_buffers = ("gates", "buffer1", "buffer2", "buffer3", "grad_a_buffer")
    batchfirst = False
    maskzero = False
    _remember = "neither"
    userPrevOutput = userPrevCell = gradPrevOutput = userNextGradCell = None

    def _init_parameters(self, D, H, gates):
        self.weight = np.zeros((D + H, gates * H))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(gates * H)
        self.gradBias = np.zeros_like(self.bias)
        self._last = None        # the final states of the previous forward, for remember
        self._saved = None       # what backward needs from the forward
        self.reset()

    D = property(lambda self: self._sizes()[0])    # inputSize
    H = property(lambda self: self._sizes()[1])    # outputSize

    # ---- options ----
    def remember(self, mode="both"):
        """Keep the final state of a forward as the initial state of the
        next one (AbstractSequencer's modes); returns self."""
        self._remember = check_remember(self, mode)
        return self

    def forget(self):
        self._last = None
        return self

    def maskZero(self):
        """Steps whose input row is all zeros give zero output and state for
        that sample (and no gradient): padding between sequences."""
        self.maskzero = True
        return self

    def training(self):
        if not self.train:
            self.forget()
        super().training()

    def evaluate(self):
        if self.train:
            self.forget()
        super().evaluate()

    # ---- input ----
    def _unpack(self, input):
        """(states given in the input table or None, x as [T, N, D])."""
        n = len(self._state_names)
        if isinstance(input, (list, tuple)):
            if not 2 <= len(input) <= n + 1:
                forms = ["x"] + ["[" + ", ".join(self._state_names[n - k:] + ("x",)) + "]" for k in range(1, n + 1)]
                raise ValueError(f"{type(self).__name__}: input must be {', '.join(forms[:-1])} or {forms[-1]}, "
                                 f"got a table of {len(input)}")
            given = dict(zip(self._state_names[n - len(input) + 1:], input[:-1]))
            x = input[-1]
        else:
            given, x = {}, input
        if not is_array(x):
            raise TypeError(f"{type(self).__name__}: x must be an array, got {type(x).__name__}")
        self._kernels(x, "x")
        if x.ndim != 3 or x.shape[2] != self.D:
            order = "[batch, seqlen, " if self.batchfirst else "[seqlen, batch, "
            raise ValueError(f"{type(self).__name__}: x must be 3D {order}{self.D}], got {describe(x)}")
        if self.batchfirst:
            x = x.transpose(1, 0, 2)
        if x.shape[0] == 0:
            raise ValueError(f"{type(self).__name__}: x must have at least one time step, got {describe(x)}")
        shape = (x.shape[1], self.H)
        for name, s in given.items():
            if not is_array(s) or s.shape != shape or s.dtype != x.dtype:
                got = f"{s.dtype} of size {list(s.shape)}" if is_array(s) else type(s).__name__
                raise ValueError(f"{type(self).__name__}: {name} must be {x.dtype} of size {list(shape)}, got {got}")
        return given, x

    def _initial(self, given, x):
        """The initial states, in _state_names order: from the input table,
        the user's, the previous forward's (remember) or zeros."""
        N, xp = x.shape[1], array_namespace(x)
        user = {"h0": self.userPrevOutput, "c0": self.userPrevCell}
        last = self._last if remembers(self._remember, self.train) else None
        states = []
        for k, name in enumerate(self._state_names):
            if name in given:
                s = given[name]
            elif user[name] is not None:
                s = xp.asarray(user[name], dtype=x.dtype)
                if s.shape != (N, self.H):
                    raise ValueError(f"{type(self).__name__}: {'userPrevOutput' if name == 'h0' else 'userPrevCell'} "
                                     f"must be of size {[N, self.H]}, got {list(s.shape)}")
            elif last is not None and last[k].shape == (N, self.H) and last[k].dtype == x.dtype:
                s = last[k]
            else:
                s = xp.zeros((N, self.H), x.dtype)
            states.append(s)
        self.userPrevOutput = self.userPrevCell = None
        return states

    def _mask(self, x):
        """[T, N] bool: the samples whose step input is all zeros (None without maskzero)."""
        return ~array_namespace(x).any(x != 0, axis=2) if self.maskzero else None

    def _plain_sequence(self, input):
        """updateOutput's usual case, found in a few tests: input one host
        array [T >= 1, N, D] of the host weights' dtype, no state given,
        kept or set (no remember in effect, no userPrevOutput /
        userPrevCell; SeqRecurrent's own _initial), no maskzero.  Returns x
        [T, N, D] (batchfirst: the transposed view) and the zero initial
        states (one read-only array for all), or None: the general path
        then checks the input and names what is wrong."""
        if (type(input) is not np.ndarray or input.ndim != 3 or self.maskzero or self.userPrevOutput is not None
                or self.userPrevCell is not None or type(self)._initial is not SeqRecurrent._initial
                or remembers(self._remember, self.train)):
            return None
        D, H = self._sizes()
        dtype = input.dtype
        if input.shape[2] != D or (dtype is not _F32 and dtype is not _F64) or _plain_dtype(self) is not dtype:
            return None
        x = input.transpose(1, 0, 2) if self.batchfirst else input
        if x.shape[0] == 0:
            return None
        return x, [_zeros((x.shape[1], H), dtype)] * len(self._state_names)

    # ---- the verbs ----
    def updateOutput(self, input):
        plain = self._plain_sequence(input)
        if plain is not None:
            (x, states), given, mask = plain, (), None
        else:
            given, x = self._unpack(input)
            states = self._initial(given, x)
            mask = self._mask(x)
        out = self._forward_steps(x, states, mask)
        self._saved = [list(given), states, mask]   # (lists: type() converts them)
        self.output = out.transpose(1, 0, 2) if self.batchfirst else out
        return self.output

    def _backward(self, input, gradOutput, want_input, scale):
        if self._saved is None:
            raise RuntimeError(f"{type(self).__name__}: backward needs a forward first")
        given, x = self._unpack(input)
        if not is_array(gradOutput):
            raise TypeError(f"{type(self).__name__}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if gradOutput.dtype != self.output.dtype:
            raise TypeError(f"{type(self).__name__}: gradOutput must be {self.output.dtype} like the output, "
                            f"got {gradOutput.dtype}")
        if gradOutput.shape != self.output.shape:
            got = describe(gradOutput)
            raise ValueError(f"{type(self).__name__}: gradOutput must be of size {list(self.output.shape)} like "
                             f"the output, got {got}")
        g = gradOutput.transpose(1, 0, 2) if self.batchfirst else gradOutput
        names, states, mask = self._saved
        grad_x, grad_states = self._backward_steps(x, g, states, mask, want_input, scale)
        self.gradPrevOutput = self.userNextGradCell = None
        if not want_input:
            return None
        gradStates = dict(zip(self._state_names, grad_states))
        self.userGradPrevOutput = gradStates.get("h0")
        self.userGradPrevCell = gradStates.get("c0")
        if self.batchfirst:
            grad_x = grad_x.transpose(1, 0, 2)
        if not isinstance(input, (list, tuple)):
            self.gradInput = grad_x
        else:
            self.gradInput = [gradStates[n] for n in self._state_names if n in names] + [grad_x]
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._backward(input, gradOutput, True, None)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._backward(input, gradOutput, False, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """The step -lr * gradient, computed whole before the weights move
        (the pass through time reads them)."""
        saved = self.gradWeight, self.gradBias
        xp = array_namespace(self.weight)
        self.gradWeight, self.gradBias = xp.zeros_like(self.weight), xp.zeros_like(self.bias)
        try:
            self.accGradParameters(input, gradOutput, 1)
            self.weight -= lr * self.gradWeight
            self.bias -= lr * self.gradBias
        finally:
            self.gradWeight, self.gradBias = saved

    def backward(self, input, gradOutput, scale=1):
        """updateGradInput and accGradParameters in one pass through time."""
        return self._backward(input, gradOutput, True, scale)

    def _start_gradients(self, N, dtype):
        """The gradients w.r.t. the last h (and c) from outside: gradPrevOutput,
        userNextGradCell (the rnn package's hooks), else zeros."""
        xp = array_namespace(self.weight)
        h = xp.zeros((N, self.H), dtype) if self.gradPrevOutput is None else xp.array(self.gradPrevOutput, dtype)
        c = xp.zeros((N, self.H), dtype) if self.userNextGradCell is None else xp.array(self.userNextGradCell, dtype)
        return h, c

    def _step_gradients(self, d, t, x, prev_h, grad_x, scale):
        """Step t's share of the gradients, d being dL/d(the gates'
        pre-activations) of a cell whose gates all read x_t and h_{t-1}
        through the whole weight: dL/dx_t into grad_x[t] (None: not
        wanted), with a scale (None: none) the weight's x and h rows and the
        bias; returns dL/dh_{t-1} through the weight."""
        D = self.D
        if grad_x is not None:
            array_namespace(d).matmul(d, self.weight[:D].T, out=grad_x[t])
        if scale is not None:
            self.gradWeight[:D] += scale * (x[t].T @ d)
            self.gradWeight[D:] += scale * (prev_h.T @ d)
            self.gradBias += scale * d.sum(axis=0)
        return d @ self.weight[D:].T

    def _input_gates(self, x):
        """The input side of every step's gates, x_t W_x + b for all t in one
        product, in the work buffer the step kernel then turns into the gates."""
        T, N, D = x.shape
        weight = self.weight
        G = weight.shape[1]
        gates = self.__dict__.get("_gates_buffer")
        if (type(x) is not np.ndarray or type(weight) is not np.ndarray or type(gates) is not np.ndarray
                or gates.shape != (T, N, G) or gates.dtype is not x.dtype or not gates.flags.writeable):
            gates = self._reuse("_gates_buffer", (T, N, G), x.dtype)
        # (on the host a kept buffer of the right form is used as it is: it is this module's own work array,
        # which no caller gets and which cannot overlap the weight reuse() keeps it apart from; np.dot: the
        # product matmul gives, without its few microseconds of dispatch)
        product = np.dot if type(x) is np.ndarray else array_namespace(x).matmul
        product(x.reshape(T * N, D), weight[:D], out=gates.reshape(T * N, G))
        gates += self.bias
        return gates

    def _step_kernel(self, x):
        """THNN's ``<Layer>_updateOutput`` for x (its dtype and device
        already checked: by _plain_sequence or _unpack)."""
        if type(x) is np.ndarray:
            dtype = x.dtype
            if dtype is _F32 or dtype is _F64:
                return _HOST_KERNELS[self._kernel, dtype]
        return self._kernel_of(x, "updateOutput", "x")

    def _out(self, name, x, shape):
        """The work buffer ``name`` for a kernel's [OUT] argument: on the host
        the kept array as it is (the binding writes into it when it fits,
        else hands back a new one: no reuse() call), on a device reuse()'s."""
        if type(x) is np.ndarray:
            buffer = getattr(self, name, None)
            return buffer if type(buffer) is np.ndarray else None
        return self._reuse(name, shape, x.dtype)

    @staticmethod
    def _kernel_mask(mask):
        """The mask as the step kernels take it (int64, nonzero: masked), or None."""
        return None if mask is None else mask.astype(np.int64)

    def _reuse(self, name, shape, dtype):
        value = reuse(getattr(self, name, None), shape, dtype, self.weight)   # (where the weights live)
        setattr(self, name, value)
        return value

    def _check_loaded(self):
        from .._helpers.lua import T7Error
        D, H = self._sizes()
        if not (isinstance(self.weight, np.ndarray) and isinstance(self.bias, np.ndarray)
                and self.weight.shape == (D + H, self._gates * H) and self.bias.shape == (self._gates * H,)):
            raise T7Error(f"{type(self).__name__}: weight {list(np.shape(self.weight))} and bias "
                          f"{list(np.shape(self.bias))} do not fit {D} inputs and {H} outputs")

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the flags the package's constructor set, which are
        class defaults (or private) here: _remember and maskzero; batchfirst
        in the Element-Research package, v2 in torch/rnn (false when
        masked: the mask comes from the input, as here; true under a
        VariableLength, which hands the mask down in Lua).  torch/rnn's Seq
        modules have no batchfirst: one that has it is refused for that
        package (ValueError), as Lua would read it time first."""
        fields["_remember"], fields["maskzero"] = self._remember, bool(self.maskzero)
        for name in self._state_names:
            fields[name] = np.zeros(0, self.weight.dtype)
        dtype = self.weight.dtype
        for name in self._t7_lua_buffers:   # (Lua's forward resizes them: they must exist)
            fields[name] = np.zeros(0, dtype)
        if package == "Element-Research/rnn":
            fields["batchfirst"] = bool(self.batchfirst)
            grads = {"grad_" + name: np.zeros(0, dtype) for name in self._state_names + ("x",)}
            fields.update(grads)
            fields["gradInput"] = list(grads.values())   # (the same tensors, as the constructor made them)
        else:
            if self.batchfirst:
                raise ValueError(f"save_lua: {type(self).__name__} has batchfirst, which torch/rnn's "
                                 f"{type(self).__name__} does not have (it would read the input time first): "
                                 "write it with rnn='Element-Research/rnn', or without batchfirst")
            fields.pop("batchfirst", None)
            fields["v2"] = not self.maskzero or getattr(self, "_zero_mask_from_decorator", False)

    def _t7_fixup(self, version):
        vars(self).pop("v2", None)
        self._saved = None
        self._last = None
        for name in ("h0", "c0", "grad_h0", "grad_c0", "grad_x", "_grad_x", "buffer1", "buffer2", "buffer3",
                     "grad_a_buffer", "_output", "cell", "gates", "zeroMask", "_zeroMask", "_maskbyte",
                     "_maskindices", "next_h", "grad_next_h", "recompute_backward", "_return_grad_h0",
                     "_return_grad_c0", "userGradPrevOutput", "userGradPrevCell"):
            vars(self).pop(name, None)
        self.output = self.gradInput = None

    def _onnx_sequence(self, g, x, op, order, **attributes):
        """ONNX's LSTM or GRU (op) over the sequence: the weight's gate blocks
        in ONNX's order (``order``: this layout's block of each of ONNX's), the
        bias on the input side, the states the input table gives (none: zeros)."""
        from .._helpers.onnx_types import NotExportable
        if remembers(self._remember, False):
            raise NotExportable(f"it remembers its state from call to call (remember('{self._remember}')), which an "
                                "ONNX graph cannot keep; remember('neither') to export it")
        if self.maskzero:
            raise NotExportable("maskZero (a padded sample's state zeroed at every step) is not mapped: ONNX's "
                                f"{op} has no such masking")
        names, states, _ = self._saved   # what this module's forward just used
        given = dict(zip(names, x[:-1])) if isinstance(x, list) else {}
        sequence = x[-1] if isinstance(x, list) else x
        D, H = self.D, self.H
        columns = np.concatenate([np.arange(b * H, (b + 1) * H) for b in order])
        W, R = self.weight[:D, columns].T[None], self.weight[D:, columns].T[None]
        B = np.concatenate([self.bias[columns], np.zeros(len(columns), self.bias.dtype)])[None]
        initial = {}
        for name, state in zip(self._state_names, states):
            if name in given:
                initial[name] = g.op("Unsqueeze", [given[name], g.ints([0])])
            elif np.any(state != 0):   # userPrevOutput / userPrevCell: constants for the example's batch
                if self.batchfirst and sequence.batched:
                    g.fix_batch(f"its initial {name} is given for the example's batch")
                initial[name] = g.const(state[None], name)
        # time first (onnxruntime does not take the op's batch-first layout)
        steps = g.op("Transpose", [sequence], perm=[1, 0, 2]) if self.batchfirst else sequence
        inputs = [steps, g.param(W, "W"), g.param(R, "R"), g.param(B, "B"), None, initial.get("h0")]
        if "c0" in self._state_names:
            inputs.append(initial.get("c0"))
        out = g.op("Squeeze", [g.op(op, inputs, hidden_size=H, **attributes), g.ints([1])])   # the one direction
        return g.op("Transpose", [out], perm=[1, 0, 2]) if self.batchfirst else out
