import numpy as np

from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._bases.rnn_t7 import OwnT7Module
from ._bases.recurrent import CachedDeltas, acc_update_by_swap, check_like, onnx_gemm, onnx_step, step_inputs
from .CAddTable import CAddTable
from .CMul import CMul
from .CMulTable import CMulTable
from .ConcatTable import ConcatTable
from .Container import Container
from .Dropout import Dropout
from .FlattenTable import FlattenTable
from .Linear import Linear
from .LinearNoBias import LinearNoBias
from .NarrowTable import NarrowTable
from .ParallelTable import ParallelTable
from .SelectTable import SelectTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .Tanh import Tanh


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


class LSTMStep(OwnT7Module, CachedDeltas, Container):
    """One step of the rnn package's LSTM, with peephole connections: the step
    module ``LSTM`` clones for every time step.

    input ``[x, h, c]`` (x ``[batch, inputSize]``, the previous output h and
    cell c ``[batch, outputSize]``; or all without the batch dim); output
    ``[h', c']``::

        i  = sigmoid(W_xi x + b_i + W_hi h + w_ci * c)
        f  = sigmoid(W_xf x + b_f + W_hf h + w_cf * c)
        z  = tanh(W_xz x + b_z + W_hz h)
        c' = f * c + i * z
        o  = sigmoid(W_xo x + b_o + W_ho h + w_co * c')
        h' = o * tanh(c')

    (``*`` elementwise: the cell-to-gate weights are diagonal.)  Each W_x. is
    a Linear, each W_h. a LinearNoBias and each w_c. a CMul, in the order of
    the rnn package's parameters(): forget gate (W_xf, W_hf, w_cf), input gate
    (W_xi, W_hi, w_ci), hidden (W_xz, W_hz), output gate (W_xo, W_ho, w_co);
    ``cell2gate=False`` drops the w_c. terms.

    Backward, with gh = dL/dh' and gc = dL/dc' (what later steps send back)::

        a_o: do = gh * tanh(c') * o (1 - o)
        dc' = gc + gh * o * (1 - tanh(c')^2) + do * w_co
        a_i: di = dc' * z * i (1 - i),   a_f: df = dc' * c * f (1 - f)
        a_z: dz = dc' * i * (1 - z^2)
        dL/dc = dc' * f + di * w_ci + df * w_cf
        dL/dx = sum of W_x.^T d.,   dL/dh = sum of W_h.^T d.

    and each Linear, LinearNoBias and CMul accumulates its gradient from
    its own d. (the CMuls from c, or c' for w_co).
    """

    _buffer_names = ("_gates", "_cache")

    def _t7_fresh(self):
        return LSTMStep(self.inputSize, self.outputSize, bool(self.cell2gate))

    def __init__(self, inputSize, outputSize, cell2gate=True):
        check_positive("LSTMStep", inputSize=inputSize, outputSize=outputSize)
        super().__init__()
        self.inputSize, self.outputSize, self.cell2gate = int(inputSize), int(outputSize), bool(cell2gate)
        D, H = self.inputSize, self.outputSize
        for gate in "fizo":
            self.add(Linear(D, H))
            self.add(LinearNoBias(H, H))
            if gate != "z" and self.cell2gate:
                self.add(CMul(H))
        self._gates = self._cache = None

    def _parts(self):
        """gate -> (Linear from x, LinearNoBias from h, CMul from the cell or None)."""
        parts, k = {}, 0
        for gate in "fizo":
            peep = gate != "z" and self.cell2gate
            parts[gate] = (self.modules[k], self.modules[k + 1], self.modules[k + 2] if peep else None)
            k += 3 if peep else 2
        return parts

    def _unpack(self, input):
        return step_inputs(self, input, ("x", "h", "c"))

    def _t7_lua_tree(self, package, mono=False):
        """save_lua: the step module the rnn package's LSTM.buildModel built
        (its gates of nn modules, a dropout of p = 0 before each weight
        layer) around this step's weight layers (package: "torch/rnn" or
        "Element-Research/rnn", which differ in the class of the layers from
        h).  Returns (tree, {field: module}) for the cell."""
        parts = {gate: (wx, wh._t7_lua(package), wc) for gate, (wx, wh, wc) in self._parts().items()}
        return lstm_tree(parts, mono)

    def _pre(self, gate, x, h, c):
        wx, wh, wc = self._parts()[gate]
        a = wx.forward(x) + wh.forward(h)
        if wc is not None:
            a += wc.forward(c)
        return a

    def updateOutput(self, input):
        self._cache = None
        x, h, c = self._unpack(input)
        i = _sigmoid(self._pre("i", x, h, c))
        f = _sigmoid(self._pre("f", x, h, c))
        z = np.tanh(self._pre("z", x, h, c))
        hy, cy = self.output if isinstance(self.output, list) else (None, None)
        cy = reuse(cy, c.shape, c.dtype, x, h, c)
        np.multiply(f, c, out=cy)
        cy += i * z
        o = _sigmoid(self._pre("o", x, h, cy))
        hy = reuse(hy, c.shape, c.dtype, x, h, c, cy)
        np.multiply(o, np.tanh(cy), out=hy)
        self._gates = [i, f, z, o]
        self.output = [hy, cy]
        return self.output

    def _deltas(self, input, gradOutput):
        """(x, h, c, {gate: dL/d pre-activation}, dL/dc' in total)."""
        if self._gates is None:
            raise RuntimeError("LSTMStep: backward needs the gates of a forward pass first")
        x, h, c = self._unpack(input)
        check_like(self, gradOutput, self.output)
        gh, gc = gradOutput
        i, f, z, o = self._gates
        cy = self.output[1]
        tc = np.tanh(cy)
        do = gh * tc * o * (1 - o)
        dcy = gc + gh * o * (1 - tc * tc)
        wco = self._parts()["o"][2]
        if wco is not None:
            dcy += do * wco.weight
        d = {"i": dcy * z * i * (1 - i), "f": dcy * c * f * (1 - f), "z": dcy * i * (1 - z * z), "o": do}
        return x, h, c, d, dcy

    def updateGradInput(self, input, gradOutput):
        self._cache = None
        x, h, c, d, dcy = self._deltas_of(input, gradOutput)
        old = self.gradInput if isinstance(self.gradInput, list) else (None, None, None)
        gx, gh, gcx = (reuse(b, a.shape, a.dtype, x, h, c, *gradOutput) for b, a in zip(old, (x, h, c)))
        gx[...] = gh[...] = 0
        np.multiply(dcy, self._gates[1], out=gcx)
        for gate, (wx, wh, wc) in self._parts().items():
            gx += wx.updateGradInput(x, d[gate])
            gh += wh.updateGradInput(h, d[gate])
            if wc is not None and gate != "o":
                gcx += wc.updateGradInput(c, d[gate])
        self.gradInput = [gx, gh, gcx]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, h, c, d, _ = self._deltas_of(input, gradOutput)
        for gate, (wx, wh, wc) in self._parts().items():
            wx.accGradParameters(x, d[gate], scale)
            wh.accGradParameters(h, d[gate], scale)
            if wc is not None:
                wc.accGradParameters(self.output[1] if gate == "o" else c, d[gate], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def __repr__(self):
        return f"nn.LSTMStep({self.inputSize} -> {self.outputSize}{'' if self.cell2gate else ', no peepholes'})"

    _onnx_leaf = True   # mapped as a whole: its gates are not modules of their own

    def _onnx(self, g, x, y):
        """Gemm of x and of h per gate (Mul by the peephole weights), Sigmoid / Tanh, Mul, Add"""
        parts = {gate: [None if m is None else self.modules.index(m) for m in ms] for gate, ms in self._parts().items()}

        def build(names):
            xv, h, c = names

            def pre(gate, cell):
                wx, wh, wc = parts[gate]
                a = g.op("Add", [onnx_gemm(g, xv, self, wx), onnx_gemm(g, h, self, wh)])
                return a if wc is None else g.op("Add", [a, g.op("Mul", [cell, g.param(self.modules[wc].weight,
                                                                                       f"{wc}.weight")])])
            i, f, z = g.op("Sigmoid", [pre("i", c)]), g.op("Sigmoid", [pre("f", c)]), g.op("Tanh", [pre("z", c)])
            cy = g.op("Add", [g.op("Mul", [f, c]), g.op("Mul", [i, z])])
            o = g.op("Sigmoid", [pre("o", cy)])
            return [g.op("Mul", [o, g.op("Tanh", [cy])]), cy]
        return onnx_step(g, x, build)


# ---- save_lua: the step module Lua's rnn package built for this step's cell (its buildModel, read in the
# Element-Research and torch/rnn sources, the branch without dropout and nngraph), made of nn_legacy modules around
# this step's own weight layers; only written (tests/test_rnn_save_lua.py runs it against the step).  Indices and
# dims 0-based: save_lua writes them 1-based.
_seq, _concat, _para = Sequential, ConcatTable, ParallelTable   # short names for the trees below


def lazy_dropout(mono=False):
    """The rnn package's ``nn.Dropout(p, false, false, true, mono)`` with p
    = 0, which its LSTM put before each weight layer: the fields its Dropout
    constructor set (lazy, mono and flag are the rnn package's own)."""
    d = Dropout(0.0, inplace=False)
    vars(d).pop("stochastic_inference", None)   # (nn's 2017 field: the rnn package's constructor made none)
    d.lazy, d.mono, d.flag = True, bool(mono), True
    return d


def lstm_gate(wx, wh, wc, mono=False):
    """LSTM.buildGate: sigmoid(Linear(x) + LinearNoBias(h) [+ CMul(c)]),
    input {x, h, c}; without a peephole (wc None) the gate narrows its
    input to {x, h} first."""
    branches = [_seq(lazy_dropout(mono), wx), _seq(lazy_dropout(mono), wh)]
    gate = Sequential()
    if wc is None:
        gate.add(NarrowTable(0, 2))
    else:
        branches.append(wc)
    return gate.add(_para(*branches)).add(CAddTable()).add(Sigmoid())


def lstm_tree(parts, mono=False):
    """LSTM.buildModel, from parts {gate: (Linear, no-bias Linear, CMul or
    None)} for the gates i, f, o and the hidden z.  Returns (tree, the
    cell's fields inputGate, forgetGate, hiddenLayer, outputGate,
    cellLayer)."""
    input_gate = lstm_gate(*parts["i"], mono=mono)
    forget_gate = lstm_gate(*parts["f"], mono=mono)
    zx, zh, _ = parts["z"]
    hidden = _seq(NarrowTable(0, 2), _para(_seq(lazy_dropout(mono), zx), _seq(lazy_dropout(mono), zh)),
                  CAddTable(), Tanh())
    forget = _seq(_concat(forget_gate, SelectTable(2)), CMulTable())         # f * c
    inp = _seq(_concat(input_gate, hidden), CMulTable())                     # i * z
    cell = _seq(_concat(forget, inp), CAddTable())
    output_gate = lstm_gate(*parts["o"], mono=mono)                           # (its peephole sees c')
    cell_act = _seq(SelectTable(2), Tanh())
    output = _seq(_concat(output_gate, cell_act), CMulTable())
    tree = _seq(_concat(NarrowTable(0, 2), cell), FlattenTable(),           # x, h, c'
                _concat(output, SelectTable(2)))
    return tree, {"inputGate": input_gate, "forgetGate": forget_gate, "hiddenLayer": hidden,
                  "outputGate": output_gate, "cellLayer": cell}
