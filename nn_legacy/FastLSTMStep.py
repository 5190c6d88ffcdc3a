from thnn.cuda import CudaTensor

from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._bases.rnn_t7 import OwnT7Module
from ._bases.recurrent import acc_update_by_swap, onnx_gemm, onnx_step, step_inputs
from .CAddTable import CAddTable
from .CMulTable import CMulTable
from .ConcatTable import ConcatTable
from .Container import Container
from .FlattenTable import FlattenTable
from .LSTMCellFused import LSTMCellFused
from .Linear import Linear
from .LinearNoBias import LinearNoBias
from .NarrowTable import NarrowTable
from .ParallelTable import ParallelTable
from .Reshape import Reshape
from .SelectTable import SelectTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SplitTable import SplitTable
from .Tanh import Tanh


def _swap_middle_gates(src, buffer, H):
    """src's gate blocks [a, b, c, d] (hiddenSize H each, along the last dim)
    as [a, c, b, d], into buffer when it fits: FastLSTM's order i, z, f, o
    to THNN's i, f, z, o, and back.  A strided copy on the host or device."""
    out = reuse(buffer, src.shape, src.dtype, src)
    last = src.ndim - 1
    if not isinstance(src, CudaTensor) and out.flags.c_contiguous:   # (so the reshape below is a view of out)
        blocks, into = src.reshape(src.shape[:-1] + (4, H)), out.reshape(out.shape[:-1] + (4, H))
        into[..., ::3, :] = blocks[..., ::3, :]          # as [..., 4, H] blocks: a and d in one copy,
        into[..., 1:3, :] = blocks[..., 2:0:-1, :]      # c and b (reversed) in the other
        return out
    for to, frm in ((0, 0), (1, 2), (2, 1), (3, 3)):
        if isinstance(src, CudaTensor):
            out.narrow(last, to * H, H).copy_(src.narrow(last, frm * H, H))
        else:
            out[..., to * H:(to + 1) * H] = src[..., frm * H:(frm + 1) * H]
    return out


class FastLSTMStep(OwnT7Module, Container):
    """One step of the rnn package's FastLSTM (an LSTM without peepholes, its
    four gates from one projection of x and one of h): the step module
    ``FastLSTM`` clones for every time step.

    input ``[x, h, c]`` (x ``[batch, inputSize]``, the previous output h and
    cell c ``[batch, outputSize]``; or all without the batch dim); output
    ``[h', c']``.  With ``a = i2g(x) + o2g(h)`` split into four blocks of
    outputSize in the rnn package's order i, z, f, o::

        i = sigmoid(a_i), z = tanh(a_z), f = sigmoid(a_f), o = sigmoid(a_o)
        c' = f * c + i * z
        h' = o * tanh(c')

    i2g is a Linear(inputSize -> 4*outputSize), o2g a
    LinearNoBias(outputSize -> 4*outputSize), their weights in the rnn
    package's layout.  The gates and their gradients are computed by THNN's
    fused kernel (``LSTMCellFused``, no bias of its own); its gate order is
    i, f, z, o, so the two middle blocks are swapped on the way in and the
    gradient's on the way out.  Backward: see LSTMCellFused; the gradient
    w.r.t. the gate pre-activations ``d`` goes to both projections:
    ``dL/dx = i2g^T d``, ``dL/dh = o2g^T d``, ``dL/dc = dc' * f``.  This is
    torch.nn.LSTM's step with its weight rows reordered.  Runs on CUDA
    (``cuda()``): every part has a twin.
    """

    _buffer_names = ("_gates", "_hidden", "_gradGates")

    def __init__(self, inputSize, outputSize):
        check_positive("FastLSTMStep", inputSize=inputSize, outputSize=outputSize)
        super().__init__(Linear(inputSize, 4 * outputSize), LinearNoBias(outputSize, 4 * outputSize),
                         LSTMCellFused(outputSize, bias=False))
        self.inputSize, self.outputSize = int(inputSize), int(outputSize)
        self._gates = self._hidden = self._gradGates = None

    i2g = property(lambda self: self.modules[0])
    o2g = property(lambda self: self.modules[1])

    def _unpack(self, input):
        return step_inputs(self, input, ("x", "h", "c"))

    def _t7_lua_tree(self, package, mono=False):
        """save_lua: the step module the rnn package's FastLSTM.buildModel
        built (without dropout, without nngraph), around this step's i2g and
        o2g (package: "torch/rnn" or "Element-Research/rnn", which differ in
        o2g's class).  Returns (tree, {field: module}) for the cell."""
        o2g = self.o2g._t7_lua(package)
        return fast_lstm_tree(self.i2g, o2g, self.outputSize), {"i2g": self.i2g, "o2g": o2g}

    def updateOutput(self, input):
        x, h, c = self._unpack(input)
        H = self.outputSize
        self._gates = _swap_middle_gates(self._child(0, "updateOutput", x), self._gates, H)
        self._hidden = _swap_middle_gates(self._child(1, "updateOutput", h), self._hidden, H)
        self.output = self._child(2, "updateOutput", [self._gates, self._hidden, c])
        return self.output

    def _gate_gradient(self, c, gradOutput):
        """dL/da in the rnn package's gate order (into _gradGates) and dL/dc."""
        if self._gates is None:
            raise RuntimeError("FastLSTMStep: backward needs the gates of a forward pass first")
        d, _, gc = self._child(2, "updateGradInput", [self._gates, self._hidden, c], gradOutput)
        self._gradGates = _swap_middle_gates(d, self._gradGates, self.outputSize)
        return self._gradGates, gc

    def updateGradInput(self, input, gradOutput):
        x, h, c = self._unpack(input)
        d, gc = self._gate_gradient(c, gradOutput)
        gx = self._child(0, "updateGradInput", x, d)
        gh = self._child(1, "updateGradInput", h, d)
        self.gradInput = [gx, gh, gc]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, h, c = self._unpack(input)
        # the gate gradient again: what updateGradInput left may have been changed since
        d, _ = self._gate_gradient(c, gradOutput)
        self._child(0, "accGradParameters", x, d, scale)
        self._child(1, "accGradParameters", h, d, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def __repr__(self):
        return f"nn.FastLSTMStep({self.inputSize} -> {self.outputSize})"

    _onnx_leaf = True   # mapped as a whole: its gates are not modules of their own

    def _onnx(self, g, x, y):
        """Gemm of x and of h, Split into the gates i, z, f, o, Sigmoid / Tanh, Mul, Add"""
        def build(names):
            xv, h, c = names
            a = g.op("Add", [onnx_gemm(g, xv, self, 0), onnx_gemm(g, h, self, 1)])
            i, z, f, o = g.op("Split", [a], outputs=4, axis=-1, num_outputs=4)
            i, z, f, o = g.op("Sigmoid", [i]), g.op("Tanh", [z]), g.op("Sigmoid", [f]), g.op("Sigmoid", [o])
            cy = g.op("Add", [g.op("Mul", [f, c]), g.op("Mul", [i, z])])
            return [g.op("Mul", [o, g.op("Tanh", [cy])]), cy]
        return onnx_step(g, x, build)


# ---- save_lua: the step module Lua's rnn package built for this step's cell (its buildModel, read in the
# Element-Research and torch/rnn sources, the branch without dropout and nngraph), made of nn_legacy modules around
# this step's own weight layers; only written (tests/test_rnn_save_lua.py runs it against the step).  Indices and
# dims 0-based: save_lua writes them 1-based.
_seq, _concat, _para = Sequential, ConcatTable, ParallelTable   # short names for the trees below


def fast_lstm_tree(i2g, o2g, H):
    """FastLSTM.buildModel: input {x, h, c}, output {h', c'}; the gates as
    four blocks i, z, f, o of one projection."""
    gates = _seq(NarrowTable(0, 2), _para(i2g, o2g), CAddTable(), Reshape(4, H), SplitTable(0, 2),
                 _para(Sigmoid(), Tanh(), Sigmoid(), Sigmoid()))
    hidden = _seq(NarrowTable(0, 2), CMulTable())                             # i * z
    cell = _seq(_concat(SelectTable(2), SelectTable(4)), CMulTable())        # f * c
    next_cell = _seq(_concat(hidden, cell), CAddTable())
    cell_act = _seq(SelectTable(0), Tanh())
    output = _seq(_concat(cell_act, SelectTable(1)), CMulTable())           # tanh(c') * o
    return _seq(_concat(gates, SelectTable(2)), FlattenTable(),             # i, z, f, o, c
                _concat(next_cell, SelectTable(3)), FlattenTable(),         # c', o
                _concat(output, SelectTable(0)))
