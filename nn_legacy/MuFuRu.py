from ._helpers.checks import check_positive
from ._bases.recurrent import OutputIsState, batch_size, zeros
from .AbstractRecurrent import AbstractRecurrent
from .Abs import Abs
from .CAddTable import CAddTable
from .CMulTable import CMulTable
from .CSubTable import CSubTable
from .ConcatTable import ConcatTable
from .JoinTable import JoinTable
from .Linear import Linear
from .MapTable import MapTable
from .Max import Max
from .Min import Min
from .MulConstant import MulConstant
from .NarrowTable import NarrowTable
from .ParallelTable import ParallelTable
from .SelectTable import SelectTable
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SoftMax import SoftMax
from .Sqrt import Sqrt
from .Sum import Sum
from .Transpose import Transpose
from .Unsqueeze import Unsqueeze
from .View import View

#: the operations a MuFuRu may combine, each a module of {s, v} (the previous
#: state and the feature vector), in the package's default order
OPERATIONS = ("keep", "replace", "mul", "diff", "forget", "sqrt_diff", "max", "min")


def _extremum(cls):
    return Sequential(MapTable(Unsqueeze(0)), JoinTable(0), cls(0))


def _operation(name):
    """The module the package built for an operation of {s, v}."""
    if name == "keep":
        return SelectTable(0)
    if name == "replace":
        return SelectTable(1)
    if name == "mul":
        return CMulTable()
    if name == "diff":
        return CSubTable()
    if name == "forget":
        return Sequential(SelectTable(0), MulConstant(0.0))
    if name == "sqrt_diff":
        return Sequential(CSubTable(), Abs(), Sqrt(), MulConstant(0.25))
    return _extremum(Max if name == "max" else Min)


class MuFuRu(OutputIsState, AbstractRecurrent):
    """The rnn package's Multi-Function Recurrent Unit (Weissenborn &
    Rocktaschel, MuFuRu), fed one step per forward: ``h_t =
    mufuru.forward(x_t)``, x_t ``[batch, inputSize]`` (a batch, as in the
    package), the state h_t ``[batch, outputSize]`` (zeros at step 0 unless
    ``userPrevOutput`` or ``setStartState`` gives it).  With s = h_{t-1}::

        r = sigmoid(W_r x + b_r + U_r s + c_r)           (reset gate)
        v = sigmoid(W_v [x, r * s] + b_v)                 (feature vector)
        p = softmax over the ops of W_p [x, s] + b_p      (op weights, [ops, batch, H])
        h_t = sum over the ops k of p_k * op_k(s, v)

    where the ops are among keep (s), replace (v), mul (s v), diff (s -
    v), forget (0), sqrt_diff (sqrt(|s - v|) / 4), max and min (elementwise;
    the first, s, on ties).  ``MuFuRu(inputSize, outputSize, ops=None,
    rho=9999)``: ops a list of those names (all eight, in that order, by
    default; keep and replace alone is a GRU-like unit).  The step module is
    the package's own tree of nn modules (so gradients are those of its
    layers; sqrt_diff has none where s = v), and a file of it loads in Lua.
    Time, BPTT and rho are AbstractRecurrent's.
    """

    userPrevOutput = None

    def __init__(self, inputSize, outputSize, ops=None, rho=9999):
        check_positive("MuFuRu", inputSize=inputSize, outputSize=outputSize)
        ops = list(OPERATIONS if ops is None else ops)
        unknown = [op for op in ops if op not in OPERATIONS]
        if unknown or not ops:
            raise ValueError(f"MuFuRu: ops must be a non-empty list of {', '.join(OPERATIONS)}, got {ops!r}")
        self.inputSize, self.outputSize = int(inputSize), int(outputSize)
        self.ops, self.num_ops = ops, len(ops)
        self.p, self.mono = 0, False
        super().__init__(self._build_step(), rho)

    def _build_step(self):
        """MuFuRu.buildModel: {x, s} -> h_t (see the class doc)."""
        D, H, N = self.inputSize, self.outputSize, self.num_ops
        reset = Sequential(ParallelTable(Linear(D, H), Linear(H, H)), CAddTable(), Sigmoid())
        feature = Sequential(ConcatTable(SelectTable(0), Sequential(NarrowTable(1, 2), CMulTable())), JoinTable(1),
                             Linear(D + H, H), Sigmoid())
        weights = Sequential(NarrowTable(0, 2), JoinTable(1), Linear(D + H, N * H),
                             View(N, H).setNumInputDims(1), Transpose((0, 1)), SoftMax())
        activations = Sequential(NarrowTable(0, 2), ConcatTable(*[_operation(op) for op in self.ops]),
                                 MapTable(Unsqueeze(0)), JoinTable(0, 3))
        combine = Sequential(ConcatTable(activations, SelectTable(2)), CMulTable(), Sum(0, 3))
        return Sequential(ConcatTable(SelectTable(0), SelectTable(1), reset),
                          ConcatTable(SelectTable(1), feature, weights), combine)

    def _linears(self, step=None):
        """The four weight layers of the step module: U/W of the reset gate,
        the feature's, the op weights'."""
        step = self.recurrentModule if step is None else step
        return [m for m in step.listModules() if type(m) is Linear]

    def _batch(self, input):
        b = batch_size(self, input, self.inputSize)
        if b is None:
            raise ValueError(f"MuFuRu: input must be a batch, 2D [batch, {self.inputSize}] (as in the rnn package), "
                             f"got 1D of size [{self.inputSize}]")
        return b

    def _zero_state(self, input):
        return zeros(input, (self._batch(input), self.outputSize))

    def _user_state(self, input):
        return self.userPrevOutput

    def updateOutput(self, input):
        self._batch(input)
        return super().updateOutput(input)

    # ---- Torch7 files ----
    _t7_raw_fields = ("recurrentModule", "modules", "sharedClones", "operations", "outputs", "cells", "gradInputs",
                      "gradOutputs", "_gradOutputs", "gradCells", "zeroTensor")

    def _t7_fixup(self, version):
        """The step module is built again from the file's sizes and ops; the
        four Linears of the file's (in its order) give the weights."""
        from ._bases import rnn_t7
        from ._helpers.lua import T7Error
        fields = vars(self)
        rnn_t7.refuse_dropout("MuFuRu", self)
        raw = rnn_t7.step_module(self, "MuFuRu")
        self.inputSize = rnn_t7.size_field(self, "inputSize")
        self.outputSize = rnn_t7.size_field(self, "outputSize")
        ops = rnn_t7._items(fields.get("ops"))
        if not ops or any(op not in OPERATIONS for op in ops):
            raise T7Error(f"MuFuRu: ops in the file must be a list of {', '.join(OPERATIONS)}, got {ops!r}")
        self.ops, self.num_ops, self.p, self.mono = list(ops), len(ops), 0, False
        linears = [m for m in rnn_t7.walk(raw) if m.class_name == "nn.Linear"]
        D, H, N = self.inputSize, self.outputSize, self.num_ops
        need = (D + 1) * H + (H + 1) * H + (D + H + 1) * H + (D + H + 1) * N * H
        have = sum(a.size for m in linears for a in rnn_t7.linear_arrays(m, "MuFuRu") if a is not None)
        if len(linears) != 4 or need != have:
            raise T7Error(f"MuFuRu: the file's step module must hold 4 Linears of {need} numbers for its sizes "
                          f"(input {D}, output {H}, {N} ops), got {len(linears)} of {have}")
        step = self._build_step()
        for k, (mine, theirs) in enumerate(zip(self._linears(step), linears)):
            weight, bias = rnn_t7.linear_arrays(theirs, f"MuFuRu weight layer {k}")
            rnn_t7.set_parameters(mine, weight, bias, f"MuFuRu weight layer {k}")
        step.type(self._linears(step)[0].weight.dtype)   # (the file's type, the first layer's)
        self._t7_finish(step)

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the package's fields (its GRU constructor's too); the
        step module is the package's tree already."""
        step = self.recurrentModule
        step = step.modules[0] if type(step).__name__ == "MaskZero" else step
        ops = step.modules[2].modules[0].modules[0].modules[1].modules
        self._t7_lua_cell(fields, step, {"operations": list(ops)}, package,
                          ("p", "mono", "inputSize", "outputSize", "ops", "num_ops"))

    def __repr__(self):
        return f"nn.MuFuRu({self.inputSize} -> {self.outputSize}) {{ {' '.join(self.ops)} }}"
