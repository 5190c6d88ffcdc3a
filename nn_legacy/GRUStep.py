import numpy as np

from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._bases.rnn_t7 import OwnT7Module
from ._bases.recurrent import CachedDeltas, acc_update_by_swap, check_like, onnx_gemm, onnx_step, step_inputs
from .CAddTable import CAddTable
from .CMulTable import CMulTable
from .ConcatTable import ConcatTable
from .Container import Container
from .FlattenTable import FlattenTable
from .Identity import Identity
from .Linear import Linear
from .LinearNoBias import LinearNoBias
from .NarrowTable import NarrowTable
from .ParallelTable import ParallelTable
from .Reshape import Reshape
from .SAdd import SAdd
from .SelectTable import SelectTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SplitTable import SplitTable
from .Tanh import Tanh


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


class GRUStep(OwnT7Module, CachedDeltas, Container):
    """One step of the rnn package's GRU: the step module ``GRU`` clones for
    every time step.

    input ``[x, h]`` (x ``[batch, inputSize]``, the previous output h
    ``[batch, outputSize]``; or both without the batch dim); output h'::

        [r, z] = sigmoid(i2g(x) + o2g(h))      r: reset gate, z: update gate
        n      = tanh(W_xn x + b_n + W_hn (r * h))
        h'     = (1 - z) * n + z * h

    i2g is a Linear(inputSize -> 2*outputSize) (r then z), o2g a
    LinearNoBias(outputSize -> 2*outputSize), W_xn a Linear and W_hn a
    LinearNoBias of outputSize outputs: ``modules`` in that order, the order
    of the rnn package's parameters().  The reset gate scales h *before* W_hn,
    and the candidate n has no recurrent bias: this is not torch.nn.GRU,
    whose reset gate scales ``W_hn h + b_hn`` (so GRUCellFused cannot run it).

    Backward, with g = dL/dh'::

        dn = g * (1 - z) * (1 - n^2)            (w.r.t. n's pre-activation)
        dz = g * (h - n) * z (1 - z)
        ds = W_hn^T dn                          (w.r.t. s = r * h)
        dr = ds * h * r (1 - r)
        dL/dx = i2g^T [dr, dz] + W_xn^T dn
        dL/dh = g * z + ds * r + o2g^T [dr, dz]

    i2g accumulates from (x, [dr, dz]), o2g from (h, [dr, dz]), W_xn from
    (x, dn) and W_hn from (r * h, dn).
    """

    _buffer_names = ("_saved", "_cache")
    _t7_gates = 3

    def __init__(self, inputSize, outputSize):
        check_positive("GRUStep", inputSize=inputSize, outputSize=outputSize)
        super().__init__()
        self.inputSize, self.outputSize = int(inputSize), int(outputSize)
        D, H = self.inputSize, self.outputSize
        self.add(Linear(D, 2 * H)).add(LinearNoBias(H, 2 * H)).add(Linear(D, H)).add(LinearNoBias(H, H))
        self._saved = self._cache = None

    def _unpack(self, input):
        return step_inputs(self, input, ("x", "h"))

    def _t7_lua_tree(self, package):
        """save_lua: the step module the rnn package's GRU.buildModel built
        (without dropout) around this step's weight layers (package:
        "torch/rnn" or "Element-Research/rnn", which differ in the class of
        the layers without a bias).  Returns (tree, {field: module})."""
        i2g, o2g, xn, hn = self.modules
        o2g, hn = o2g._t7_lua(package), hn._t7_lua(package)
        return gru_tree(i2g, o2g, xn, hn, self.outputSize), {"i2g": i2g, "o2g": o2g}

    def updateOutput(self, input):
        self._cache = None
        x, h = self._unpack(input)
        i2g, o2g, xn, hn = self.modules
        H = self.outputSize
        gates = _sigmoid(i2g.forward(x) + o2g.forward(h))
        r, z = gates[..., :H], gates[..., H:]
        s = r * h
        n = np.tanh(xn.forward(x) + hn.forward(s))
        self.output = reuse(self.output, h.shape, h.dtype, x, h)
        np.multiply(1 - z, n, out=self.output)
        self.output += z * h
        self._saved = [r, z, s, n]
        return self.output

    def _deltas(self, input, gradOutput):
        """(x, h, s, dL/d[r, z] pre-activations, dL/dn pre-activation, dL/ds)."""
        if self._saved is None:
            raise RuntimeError("GRUStep: backward needs the gates of a forward pass first")
        x, h = self._unpack(input)
        check_like(self, gradOutput, self.output)
        r, z, s, n = self._saved
        g = gradOutput
        dn = g * (1 - z) * (1 - n * n)
        ds = self.modules[3].updateGradInput(s, dn)
        dgates = np.concatenate([ds * h * r * (1 - r), g * (h - n) * z * (1 - z)], axis=-1)
        return x, h, s, dgates, dn, ds

    def updateGradInput(self, input, gradOutput):
        self._cache = None
        x, h, s, dgates, dn, ds = self._deltas_of(input, gradOutput)
        i2g, o2g, xn, _ = self.modules
        r, z = self._saved[:2]
        old = self.gradInput if isinstance(self.gradInput, list) else (None, None)
        gx, gh = (reuse(b, a.shape, a.dtype, x, h, gradOutput) for b, a in zip(old, (x, h)))
        np.add(i2g.updateGradInput(x, dgates), xn.updateGradInput(x, dn), out=gx)
        np.multiply(gradOutput, z, out=gh)
        gh += ds * r
        gh += o2g.updateGradInput(h, dgates)
        self.gradInput = [gx, gh]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, h, s, dgates, dn, _ = self._deltas_of(input, gradOutput)
        i2g, o2g, xn, hn = self.modules
        i2g.accGradParameters(x, dgates, scale)
        o2g.accGradParameters(h, dgates, scale)
        xn.accGradParameters(x, dn, scale)
        hn.accGradParameters(s, dn, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def __repr__(self):
        return f"nn.GRUStep({self.inputSize} -> {self.outputSize})"

    _onnx_leaf = True   # mapped as a whole: its gates are not modules of their own

    def _onnx(self, g, x, y):
        """Gemm of x and of h, Sigmoid, Split into the gates r, z, Gemm of x and of r * h, Tanh, Mul, Add"""
        def build(names):
            xv, h = names
            gates = g.op("Sigmoid", [g.op("Add", [onnx_gemm(g, xv, self, 0), onnx_gemm(g, h, self, 1)])])
            r, z = g.op("Split", [gates], outputs=2, axis=-1, num_outputs=2)
            n = g.op("Tanh", [g.op("Add", [onnx_gemm(g, xv, self, 2), onnx_gemm(g, g.op("Mul", [r, h]), self, 3)])])
            return g.op("Add", [n, g.op("Mul", [z, g.op("Sub", [h, n])])])
        return onnx_step(g, x, build)


# ---- save_lua: the step module Lua's rnn package built for this step's cell (its buildModel, read in the
# Element-Research and torch/rnn sources, the branch without dropout and nngraph), made of nn_legacy modules around
# this step's own weight layers; only written (tests/test_rnn_save_lua.py runs it against the step).  Indices and
# dims 0-based: save_lua writes them 1-based.
_seq, _concat, _para = Sequential, ConcatTable, ParallelTable   # short names for the trees below


def gru_tree(i2g, o2g, xn, hn, H):
    """GRU.buildModel: input {x, h}, output h'; r and z from i2g + o2g,
    the candidate from Linear(x) + LinearNoBias(r * h), h' = n (1 - z) + z h."""
    gates = _seq(_para(i2g, o2g), CAddTable(), Reshape(2, H), SplitTable(0, 2), _para(Sigmoid(), Sigmoid()))
    t1 = _seq(SelectTable(0), xn)
    t2 = _seq(NarrowTable(1, 2), CMulTable(), hn)                           # W_hn (h * r)
    hidden = _seq(_concat(t1, t2), CAddTable(), Tanh())
    z1 = _seq(SelectTable(3), SAdd(-1, True))                                 # 1 - z
    z2 = _seq(NarrowTable(3, 2), CMulTable())                                 # z * h
    o1 = _seq(_concat(hidden, z1), CMulTable())
    o2 = _seq(_concat(o1, z2), CAddTable())
    return _seq(_concat(Identity(), gates), FlattenTable(),                  # x, h, r, z
                _concat(NarrowTable(0, 4), SelectTable(1)), FlattenTable(),  # x, h, r, z, h
                o2)
