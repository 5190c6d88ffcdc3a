"""The step modules Lua's rnn package built for its FastLSTM, LSTM and GRU,
made of nn_legacy modules, for ``save_lua`` to write in their place.

nn_legacy runs each of those cells' steps as one module of its own
(FastLSTMStep, LSTMStep, GRUStep), which Lua's ``torch.load`` does not
know.  The functions here build, around that step's own weight layers,
the tree of nn modules the rnn package's ``buildModel`` made (read in the
Element-Research and torch/rnn sources: FastLSTM.lua, LSTM.lua, GRU.lua,
their branches without dropout and without nngraph), so that the file
loads and runs in Lua.  Indices and dims are nn_legacy's (0-based);
save_lua writes them 1-based.  The trees are only written: the cells never
run them (the tests do, to check that they compute the step)."""
from .CAddTable import CAddTable
from .CMulTable import CMulTable
from .ConcatTable import ConcatTable
from .Dropout import Dropout
from .FlattenTable import FlattenTable
from .Identity import Identity
from .NarrowTable import NarrowTable
from .ParallelTable import ParallelTable
from .Reshape import Reshape
from .SAdd import SAdd
from .SelectTable import SelectTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SplitTable import SplitTable
from .Tanh import Tanh

PACKAGES = ("torch/rnn", "Element-Research/rnn")


def _seq(*modules):
    return Sequential(*modules)


def _concat(*modules):
    return ConcatTable(*modules)


def _para(*modules):
    return ParallelTable(*modules)


def lazy_dropout(mono=False):
    """The rnn package's ``nn.Dropout(p, false, false, true, mono)`` with p
    = 0, which its LSTM put before each weight layer: the fields its Dropout
    constructor set (lazy, mono and flag are the rnn package's own)."""
    d = Dropout(0.0, inplace=False)
    vars(d).pop("stochastic_inference", None)   # (nn's 2017 field: the rnn package's constructor made none)
    d.lazy, d.mono, d.flag = True, bool(mono), True
    return d


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
