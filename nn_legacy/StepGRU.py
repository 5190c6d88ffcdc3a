from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._bases.recurrent import check_like, onnx_step
from ._bases.seqrnn import sigmoid_in_place, tanh_in_place
from ._bases.step_rnn import StepRNN


class StepGRU(StepRNN):
    """One step of SeqGRU's GRU, on its own (torch/rnn's StepGRU): the step
    module ``RecGRU`` clones for every time step.

    input ``[x, h]`` (x ``[batch, inputsize]``, h ``[batch, outputsize]``; or
    both without the batch dim), output h'::

        [r, u] = sigmoid(x W_x[:, :2H] + h W_h[:, :2H] + b[:2H])
        n      = tanh(x W_x[:, 2H:] + (r * h) W_h[:, 2H:] + b[2H:])
        h'     = (1 - u) * n + u * h

    ``weight`` ``[inputsize + outputsize, 3 * outputsize]`` (W_x's rows, then
    W_h's), ``bias`` ``[3 * outputsize]``: SeqGRU's layout and reset() (the
    update gate's bias 1).  Backward: SeqGRU's step (its class doc),
    gradInput ``[dL/dx, dL/dh]``.  Runs on CUDA (array arithmetic).
    """

    _t7_lua_tables = {"gradInput": 2}

    _gates = 3

    def __init__(self, inputsize, outputsize):
        super().__init__()
        check_positive("StepGRU", inputsize=inputsize, outputsize=outputsize)
        self.inputsize, self.outputsize = int(inputsize), int(outputsize)
        self._init_weights()

    def updateOutput(self, input):
        x, h = self._unpack(input)
        xp = array_namespace(x, h)
        H, D = self.outputsize, self.inputsize
        Wx, Wh = self.weight[:D], self.weight[D:]
        a = x @ Wx      # the sums, sigmoid and tanh in place, on the host as on a device
        a += self.bias
        ru, n = a[..., :2 * H], a[..., 2 * H:]
        ru += h @ Wh[:, :2 * H]
        sigmoid_in_place(ru)
        r, u = a[..., :H], a[..., H:2 * H]
        n += (r * h) @ Wh[:, 2 * H:]
        tanh_in_place(n)
        self.gates = a
        out = reuse(self.output, h.shape, h.dtype, x, h)
        xp.multiply(1 - u, a[..., 2 * H:], out=out)
        out += u * h
        self.output = out
        return self.output

    def _deltas(self, input, gradOutput):
        if self.gates is None:
            raise RuntimeError("StepGRU: backward needs the gates of a forward pass first")
        x, h = self._unpack(input)
        check_like(self, gradOutput, self.output)
        xp = array_namespace(x, h)
        H, D = self.outputsize, self.inputsize
        Wh = self.weight[D:]
        g = gradOutput
        r, u, n = (self.gates[..., k * H:(k + 1) * H] for k in range(3))
        dn = g * (1 - u) * (1 - n * n)
        s = dn @ Wh[:, 2 * H:].T
        d = xp.concatenate([s * h * r * (1 - r), g * (h - n) * u * (1 - u), dn], axis=-1)
        return x, h, d, s, r, u

    def updateGradInput(self, input, gradOutput):
        x, h, d, s, r, u = self._deltas(input, gradOutput)
        H, D = self.outputsize, self.inputsize
        Wh = self.weight[D:]
        xp = array_namespace(x, h)
        old = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 2 else (None, None)
        gx, gh = (reuse(b, a.shape, a.dtype, x, h, gradOutput) for b, a in zip(old, (x, h)))
        xp.matmul(d, self.weight[:D].T, out=gx)
        xp.multiply(gradOutput, u, out=gh)
        gh += s * r + d[..., :2 * H] @ Wh[:, :2 * H].T
        self.gradInput = [gx, gh]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, h, d, s, r, u = self._deltas(input, gradOutput)
        H, D = self.outputsize, self.inputsize
        x2, h2, d2, rh = (v.reshape(1, -1) if v.ndim == 1 else v for v in (x, h, d, r * h))
        self.gradWeight[:D] += scale * (x2.T @ d2)
        self.gradWeight[D:, :2 * H] += scale * (h2.T @ d2[:, :2 * H])
        self.gradWeight[D:, 2 * H:] += scale * (rh.T @ d2[:, 2 * H:])
        self.gradBias += scale * d2.sum(axis=0)

    _onnx_leaf = True

    def _onnx(self, g, x, y):
        """MatMul by the weight's blocks, Add the bias, Sigmoid for r and u, Tanh of the candidate, Mul, Add"""
        D, H = self.inputsize, self.outputsize
        w = self.weight

        def build(names):
            xv, h = names
            ax = g.op("Add", [g.op("MatMul", [xv, g.param(w[:D], "Wx")]), g.param(self.bias, "bias")])
            ax_ru, ax_n = g.op("Split", [ax, g.ints([2 * H, H])], outputs=2, axis=-1)
            ru = g.op("Sigmoid", [g.op("Add", [ax_ru, g.op("MatMul", [h, g.param(w[D:, :2 * H], "Wh_ru")])])])
            r, u = g.op("Split", [ru], outputs=2, axis=-1, num_outputs=2)
            n = g.op("Tanh", [g.op("Add", [ax_n, g.op("MatMul", [g.op("Mul", [r, h]),
                                                                 g.param(w[D:, 2 * H:], "Wh_n")])])])
            return g.op("Add", [n, g.op("Mul", [u, g.op("Sub", [h, n])])])
        return onnx_step(g, x, build)

    def __repr__(self):
        return f"nn.StepGRU({self.inputsize} -> {self.outputsize})"
