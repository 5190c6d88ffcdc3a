from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._bases.recurrent import check_like, onnx_step
from ._bases.seqrnn import sigmoid_in_place, tanh_in_place
from ._bases.step_rnn import StepRNN


class StepLSTM(StepRNN):
    """One step of SeqLSTM's LSTM, on its own (torch/rnn's StepLSTM): the
    step module ``RecLSTM`` clones for every time step.

    input ``[x, h, c]`` (x ``[batch, inputsize]``, h and c ``[batch,
    hiddensize]``; or all without the batch dim), output ``[h', c']``::

        a  = x W_x + h W_h + b            split as i, f, o, z (hiddensize each)
        c' = sigmoid(a_f) * c + sigmoid(a_i) * tanh(a_z)
        h' = sigmoid(a_o) * tanh(c')

    ``weight`` ``[inputsize + hiddensize, 4 * hiddensize]`` (W_x's rows, then
    W_h's) and ``bias`` ``[4 * hiddensize]``: SeqLSTM's layout and reset()
    (the forget gate's bias 1).  Backward: SeqLSTM's step (its class doc),
    gradInput ``[dL/dx, dL/dh, dL/dc]``.  Runs on CUDA (array arithmetic).

    ``StepLSTM(inputsize, hiddensize, outputsize=None)``: an outputsize other
    than hiddensize (torch/rnn's projection, LSTMP) is not implemented.
    """

    _gates = 4
    _step_inputs = ("x", "h", "c")
    _t7_dropped = StepRNN._t7_dropped + ("hidden",)
    _t7_lua_tables = {"output": 2, "gradInput": 3}

    def __init__(self, inputsize, hiddensize, outputsize=None):
        super().__init__()
        name = type(self).__name__
        check_positive(name, inputsize=inputsize, hiddensize=hiddensize)
        outputsize = hiddensize if outputsize is None else outputsize
        if outputsize != hiddensize:
            raise NotImplementedError(f"{name}: an outputsize other than hiddensize (a projection, LSTMP) is not "
                                      "implemented")
        self.inputsize, self.hiddensize, self.outputsize = int(inputsize), int(hiddensize), int(outputsize)
        self._init_weights()

    def updateOutput(self, input):
        x, h, c = self._unpack(input)
        xp = array_namespace(x, h, c)
        H, D = self.hiddensize, self.inputsize
        a = x @ self.weight[:D]     # the sums, sigmoid and tanh in place, on the host as on a device
        a += h @ self.weight[D:]
        a += self.bias
        sigmoid_in_place(a[..., :3 * H])
        tanh_in_place(a[..., 3 * H:])
        self.gates = a
        i, f, o, z = (a[..., k * H:(k + 1) * H] for k in range(4))
        hy, cy = self.output if isinstance(self.output, list) else (None, None)
        cy = reuse(cy, c.shape, c.dtype, x, h, c)
        xp.multiply(f, c, out=cy)
        cy += i * z
        hy = reuse(hy, c.shape, c.dtype, x, h, c, cy)
        xp.tanh(cy, out=hy)     # tanh(c') * o in h's own array, without a temporary
        hy *= o
        self.output = [hy, cy]
        return self.output

    def _deltas(self, input, gradOutput):
        if self.gates is None:
            raise RuntimeError(f"{type(self).__name__}: backward needs the gates of a forward pass first")
        x, h, c = self._unpack(input)
        check_like(self, gradOutput, self.output)
        xp = array_namespace(x, h, c)
        gh, gc = gradOutput
        H = self.hiddensize
        i, f, o, z = (self.gates[..., k * H:(k + 1) * H] for k in range(4))
        tc = xp.tanh(self.output[1])
        dc = gc + gh * o * (1 - tc * tc)
        d = xp.concatenate([dc * z * i * (1 - i), dc * c * f * (1 - f), gh * tc * o * (1 - o),
                            dc * i * (1 - z * z)], axis=-1)
        return x, h, c, d, dc * f

    def updateGradInput(self, input, gradOutput):
        x, h, c, d, gc = self._deltas(input, gradOutput)
        D = self.inputsize
        xp = array_namespace(x, h, c)
        old = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 3 else (None,) * 3
        gx, gh, gcx = (reuse(b, a.shape, a.dtype, x, h, c, *gradOutput) for b, a in zip(old, (x, h, c)))
        xp.matmul(d, self.weight[:D].T, out=gx)
        xp.matmul(d, self.weight[D:].T, out=gh)
        gcx[...] = gc
        self.gradInput = [gx, gh, gcx]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, h, c, d, _ = self._deltas(input, gradOutput)
        D = self.inputsize
        x2, h2, d2 = (v.reshape(1, -1) if v.ndim == 1 else v for v in (x, h, d))
        self.gradWeight[:D] += scale * (x2.T @ d2)
        self.gradWeight[D:] += scale * (h2.T @ d2)
        self.gradBias += scale * d2.sum(axis=0)

    _onnx_leaf = True

    def _onnx(self, g, x, y):
        """MatMul of x and of h by the weight's two blocks, Add the bias, Split into i, f, o, z, Sigmoid / Tanh, Mul, Add"""
        D = self.inputsize

        def build(names):
            xv, h, c = names
            a = g.op("Add", [g.op("Add", [g.op("MatMul", [xv, g.param(self.weight[:D], "Wx")]),
                                          g.op("MatMul", [h, g.param(self.weight[D:], "Wh")])]),
                             g.param(self.bias, "bias")])
            i, f, o, z = g.op("Split", [a], outputs=4, axis=-1, num_outputs=4)
            i, f, o, z = g.op("Sigmoid", [i]), g.op("Sigmoid", [f]), g.op("Sigmoid", [o]), g.op("Tanh", [z])
            cy = g.op("Add", [g.op("Mul", [f, c]), g.op("Mul", [i, z])])
            return [g.op("Mul", [o, g.op("Tanh", [cy])]), cy]
        return onnx_step(g, x, build)

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.inputsize} -> {self.outputsize})"
