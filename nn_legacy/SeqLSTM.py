import math

from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._helpers.random import generator
from ._bases.seqrnn import SeqRecurrent


class SeqLSTM(SeqRecurrent):
    """An LSTM over a whole sequence per forward (the rnn package's SeqLSTM,
    from Justin Johnson's torch-rnn): input x ``[seqlen, batch, inputsize]``
    (``[batch, seqlen, inputsize]`` with ``batchfirst = True``), or the
    table ``[h0, x]`` or ``[c0, h0, x]`` with the initial states ``[batch,
    outputsize]``; output h ``[seqlen, batch, outputsize]``.  No peepholes::

        a_t = x_t W_x + h_{t-1} W_h + b        split as i, f, o, z (outputsize each)
        i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o);  z = tanh(a_z)
        c_t = f * c_{t-1} + i * z
        h_t = o * tanh(c_t)

    ``weight`` is ``[inputsize + outputsize, 4 * outputsize]`` (W_x's rows
    first, then W_h's: x multiplies from the left, unlike Linear), ``bias``
    ``[4 * outputsize]``.  reset() draws the weight from N(0, 1/(inputsize
    + outputsize)) and sets the bias to 0, the forget gate's to 1, as the
    rnn package did.  This is torch.nn.LSTM with weight_ih = W_x^T (gate
    rows reordered i, f, z, o) and one bias.

    Backward through time, from the last step, with gh the gradient w.r.t.
    h_t (gradOutput[t] plus what step t + 1 sent back) and gc w.r.t. c_t::

        dc  = gc + gh * o * (1 - tanh(c_t)^2)
        d_o = gh * tanh(c_t) * o (1 - o),  d_i = dc * z * i (1 - i)
        d_f = dc * c_{t-1} * f (1 - f),    d_z = dc * i * (1 - z^2)
        dL/dx_t = d W_x^T;  to step t - 1: gh = d W_h^T, gc = dc * f
        gradWeight += [x_t; h_{t-1}]^T d,  gradBias += sum over the batch of d

    The initial states are zeros unless given in the input, as
    ``userPrevOutput`` / ``userPrevCell`` (used once), or, with
    ``remember()``, the last states of the previous forward (a constant
    there: no gradient flows into the previous call).  gradInput is laid
    out as the input (``[grad_c0, grad_h0, grad_x]`` ...); after backward
    ``userGradPrevOutput`` / ``userGradPrevCell`` hold the gradients w.r.t.
    the initial states, and ``gradPrevOutput`` / ``userNextGradCell``, if
    set, are added to the gradients w.r.t. the last h and c (used once).
    ``maskZero()``: a sample whose x_t is all zeros gets h_t = c_t = 0.
    ``backward`` does one pass for gradInput and the parameters;
    ``updateGradInput`` and ``accGradParameters`` one each.

    ``SeqLSTM(inputsize, hiddensize, outputsize=None)``: outputsize is
    hiddensize (the default); another outputsize is the rnn package's
    projection variant (SeqLSTMP), not implemented (NotImplementedError).
    """

    _kernel = "SeqLSTM"
    _gates = 4
    _state_names = ("c0", "h0")
    _t7_lua_buffers = ("cell",) + SeqRecurrent._t7_lua_buffers

    def __init__(self, inputsize, hiddensize, outputsize=None):
        super().__init__()
        outputsize = hiddensize if outputsize is None else outputsize
        check_positive("SeqLSTM", inputsize=inputsize, hiddensize=hiddensize)
        if outputsize != hiddensize:
            raise NotImplementedError("SeqLSTM: an outputsize other than hiddensize (SeqLSTMP) is not implemented")
        self.inputsize, self.hiddensize, self.outputsize = int(inputsize), int(hiddensize), int(outputsize)
        self._init_parameters(self.inputsize, self.outputsize, 4)

    def _sizes(self):
        return self.inputsize, self.outputsize

    def _t7_fixup(self, version):
        from ._bases.rnn_t7 import size_field
        from ._helpers.lua import T7Error
        if vars(self).get("weightO") is not None:
            raise T7Error("SeqLSTM: this one has an output projection (weightO, SeqLSTMP), which nn_legacy does "
                          "not implement")
        self.inputsize = size_field(self, "inputsize")
        self.outputsize = size_field(self, "outputsize")
        self.hiddensize = size_field(self, "hiddensize", "outputsize")
        super()._t7_fixup(version)
        self._check_loaded()

    def reset(self, std=None):
        std = 1 / math.sqrt(self.outputsize + self.inputsize) if std is None else std
        self.bias[...] = 0
        self.bias[self.outputsize:2 * self.outputsize] = 1
        self.weight[...] = generator().normal(0, std, self.weight.shape).astype(self.weight.dtype)
        return self

    def _forward_steps(self, x, states, mask):
        """The T steps in one kernel call (THNN's SeqLSTM_updateOutput, or its
        CUDA twin): the input side of every step's gates in one product first."""
        c0, h0 = states
        T, N, _ = x.shape
        D, H = self._sizes()
        h, c = self._out("_h", x, (T, N, H)), self._out("_c", x, (T, N, H))
        gates = self._input_gates(x)
        self._h, self._c = self._step_kernel(x)(
            gates, self.weight[D:], c0, h0, self._kernel_mask(mask), h, c)
        self._last = [self._c[T - 1].copy(), self._h[T - 1].copy()]
        return self._h

    def _backward_steps(self, x, grad_h, states, mask, want_input, scale):
        xp = array_namespace(x)
        c0, h0 = states
        T, N, _ = x.shape
        H = self.H
        h, c, gates = self._h, self._c, self._gates_buffer
        grad_x = self._reuse("_grad_x", x.shape, x.dtype) if want_input else None
        gh, gc = self._start_gradients(N, x.dtype)
        d = xp.empty((N, 4 * H), x.dtype)
        for t in reversed(range(T)):
            prev_h, prev_c = (h0, c0) if t == 0 else (h[t - 1], c[t - 1])
            gh = gh + grad_h[t]
            if mask is not None:
                gh[mask[t]] = 0
                gc[mask[t]] = 0
            a = gates[t]
            i, f, o, z = a[:, :H], a[:, H:2 * H], a[:, 2 * H:3 * H], a[:, 3 * H:]
            tc = xp.tanh(c[t])
            dc = gc + gh * o * (1 - tc * tc)
            d[:, :H] = dc * z * i * (1 - i)
            d[:, H:2 * H] = dc * prev_c * f * (1 - f)
            d[:, 2 * H:3 * H] = gh * tc * o * (1 - o)
            d[:, 3 * H:] = dc * i * (1 - z * z)
            gh = self._step_gradients(d, t, x, prev_h, grad_x, scale)
            gc = dc * f
        return grad_x, (gc, gh)

    def __repr__(self):
        return f"nn.SeqLSTM({self.inputsize} -> {self.outputsize})"

    def _onnx(self, g, x, y):
        """LSTM (ONNX's, its gates i, o, f, c taken from this layout's i, f, o, z)"""
        return self._onnx_sequence(g, x, "LSTM", (0, 2, 1, 3))
