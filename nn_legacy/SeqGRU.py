import math


from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._helpers.random import generator
from ._bases.seqrnn import SeqRecurrent


class SeqGRU(SeqRecurrent):
    """The rnn package's GRU over a whole sequence per forward: input x
    ``[seqlen, batch, inputSize]`` (``[batch, seqlen, inputSize]`` with
    ``batchfirst = True``) or the table ``[h0, x]``; output h ``[seqlen,
    batch, outputSize]``::

        [r, u] = sigmoid(x_t W_x[:, :2H] + h_{t-1} W_h[:, :2H] + b[:2H])
        n      = tanh(x_t W_x[:, 2H:] + (r * h_{t-1}) W_h[:, 2H:] + b[2H:])
        h_t    = (1 - u) * n + u * h_{t-1}

    (H = outputSize; r the reset gate, u the update gate.)  ``weight`` is
    ``[inputSize + outputSize, 3 * outputSize]`` (W_x's rows, then W_h's),
    ``bias`` ``[3 * outputSize]``; the same GRU as GRU / GRUStep with its
    four matrices side by side.  reset() as SeqLSTM (the bias of u is 1).

    Backward through time, with g the gradient w.r.t. h_t (gradOutput[t]
    plus what step t + 1 sent back)::

        d_n = g * (1 - u) * (1 - n^2)
        s   = d_n W_h[:, 2H:]^T          (w.r.t. r * h_{t-1})
        d_r = s * h_{t-1} * r (1 - r),   d_u = g * (h_{t-1} - n) * u (1 - u)
        dL/dx_t = [d_r, d_u, d_n] W_x^T
        to step t - 1: g * u + s * r + [d_r, d_u] W_h[:, :2H]^T

    Initial state, remember, userPrevOutput, gradPrevOutput, maskZero,
    batchfirst and the three backward verbs: as SeqLSTM.
    ``SeqGRU(inputSize, outputSize)``.
    """

    _kernel = "SeqGRU"
    _gates = 3
    _state_names = ("h0",)

    def __init__(self, inputSize, outputSize):
        super().__init__()
        check_positive("SeqGRU", inputSize=inputSize, outputSize=outputSize)
        self.inputSize, self.outputSize = int(inputSize), int(outputSize)
        self._init_parameters(self.inputSize, self.outputSize, 3)

    def _sizes(self):
        return self.inputSize, self.outputSize

    def _t7_fixup(self, version):
        from ._bases.rnn_t7 import size_field
        self.inputSize = size_field(self, "inputSize", "inputsize")
        self.outputSize = size_field(self, "outputSize", "outputsize")
        for name in ("inputsize", "outputsize", "seqLength", "miniBatch"):
            vars(self).pop(name, None)
        super()._t7_fixup(version)
        self._check_loaded()

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the sizes are inputSize / outputSize in the
        Element-Research package's SeqGRU, inputsize / outputsize in
        torch/rnn's (and the flags, see SeqRNN)."""
        super()._t7_rnn_layout(fields, package)
        if package == "Element-Research/rnn":
            fields.update(seqLength=1, miniBatch=1)
        else:
            fields["inputsize"], fields["outputsize"] = fields.pop("inputSize"), fields.pop("outputSize")

    def reset(self, std=None):
        std = 1 / math.sqrt(self.outputSize + self.inputSize) if std is None else std
        self.bias[...] = 0
        self.bias[self.outputSize:2 * self.outputSize] = 1
        self.weight[...] = generator().normal(0, std, self.weight.shape).astype(self.weight.dtype)
        return self

    def _forward_steps(self, x, states, mask):
        """The T steps in one kernel call (THNN's SeqGRU_updateOutput, or its
        CUDA twin): the input side of every step's gates in one product first."""
        h0, = states
        T, N, _ = x.shape
        D, H = self._sizes()
        h = self._out("_h", x, (T, N, H))
        gates = self._input_gates(x)
        self._h = self._step_kernel(x)(gates, self.weight[D:], h0, self._kernel_mask(mask), h)
        self._last = [self._h[T - 1].copy()]
        return self._h

    def _backward_steps(self, x, grad_h, states, mask, want_input, scale):
        xp = array_namespace(x)
        h0, = states
        T, N, _ = x.shape
        H, D = self.H, self.D
        Wx, Wh = self.weight[:D], self.weight[D:]
        h, gates = self._h, self._gates_buffer
        grad_x = self._reuse("_grad_x", x.shape, x.dtype) if want_input else None
        g, _ = self._start_gradients(N, x.dtype)
        d = xp.empty((N, 3 * H), x.dtype)
        for t in reversed(range(T)):
            prev = h0 if t == 0 else h[t - 1]
            g = g + grad_h[t]
            if mask is not None:
                g[mask[t]] = 0
            a = gates[t]
            r, u, n = a[:, :H], a[:, H:2 * H], a[:, 2 * H:]
            d[:, 2 * H:] = g * (1 - u) * (1 - n * n)
            s = d[:, 2 * H:] @ Wh[:, 2 * H:].T
            d[:, :H] = s * prev * r * (1 - r)
            d[:, H:2 * H] = g * (prev - n) * u * (1 - u)
            if want_input:
                xp.matmul(d, Wx.T, out=grad_x[t])
            if scale is not None:
                self.gradWeight[:D] += scale * (x[t].T @ d)
                self.gradWeight[D:, :2 * H] += scale * (prev.T @ d[:, :2 * H])
                self.gradWeight[D:, 2 * H:] += scale * ((r * prev).T @ d[:, 2 * H:])
                self.gradBias += scale * d.sum(axis=0)
            g = g * u + s * r + d[:, :2 * H] @ Wh[:, :2 * H].T
        return grad_x, (g,)

    def __repr__(self):
        return f"nn.SeqGRU({self.inputSize} -> {self.outputSize})"

    def _onnx(self, g, x, y):
        """GRU (ONNX's, linear_before_reset 0, its gates z, r, h taken from this layout's r, u, n)"""
        return self._onnx_sequence(g, x, "GRU", (1, 0, 2), linear_before_reset=0)
