from ._helpers.arrays import reuse
from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._bases.rnn_t7 import OwnT7Module
from ._bases.recurrent import acc_update_by_swap, check_like, step_inputs
from .Add import Add
from .BatchNormalization import BatchNormalization
from .Container import Container
from .Linear import Linear
from .LinearNoBias import LinearNoBias


class FastLSTMBNStep(OwnT7Module, Container):
    """One step of the rnn package's FastLSTM with recurrent batch
    normalization (``FastLSTM.bn = true``; Cooijmans et al. 2016, "Recurrent
    Batch Normalization"): the step module ``FastLSTM(..., bn=True)`` clones
    for every time step.

    input ``[x, h, c]`` (x ``[batch, inputSize]``, h and c ``[batch,
    outputSize]``), output ``[h', c']``.  The input-to-hidden and the
    hidden-to-hidden projections are batch-normalized separately, the bias
    added after, and the cell normalized on its way to the output::

        a  = BN_x(i2g(x)) + BN_h(o2g(h)) + b      split as i, z, f, o (outputSize each)
        i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o);  z = tanh(a_z)
        c' = f * c + i * z
        h' = o * tanh(BN_c(c'))

    (c', not BN_c(c'), is the state carried to the next step.)  Modules, in
    the order of parameters(): ``i2g`` Linear(inputSize -> 4*outputSize),
    ``o2g`` LinearNoBias(outputSize -> 4*outputSize), ``bn_wx`` and ``bn_wh``
    BatchNormalization(4*outputSize), ``bias`` Add(4*outputSize), ``bn_c``
    BatchNormalization(outputSize); each BN's gamma starts at 0.1 (the
    paper's advice, as the rnn package did), its beta at 0.  While training,
    each BN normalizes with the batch's statistics of its own step (so a
    batch needs two samples or more) and updates its running averages;
    the clones of every step share one set of running averages, as the rnn
    package's clones did, and evaluation uses them.

    Backward, with gh = dL/dh', gc = dL/dc' and t = tanh(BN_c(c'))::

        d_o = gh * t * o (1 - o);   dc' = gc + BN_c'(gh * o * (1 - t^2))
        d_i = dc' * z * i (1 - i);  d_f = dc' * c * f (1 - f);  d_z = dc' * i * (1 - z^2)
        dL/dc = dc' * f;  dL/dx = i2g'(BN_x'(d));  dL/dh = o2g'(BN_h'(d))

    (BN_' the batch-normalization backward of that step.)  Runs on CUDA
    (``cuda()``): every part has a twin and the gate arithmetic is array
    arithmetic.

    ``FastLSTMBNStep(inputSize, outputSize, eps=1e-5, momentum=0.1, affine=True)``.
    """

    _buffer_names = ("_cache",)

    def __init__(self, inputSize, outputSize, eps=None, momentum=None, affine=True):
        check_positive("FastLSTMBNStep", inputSize=inputSize, outputSize=outputSize)
        D, H = int(inputSize), int(outputSize)
        eps = 1e-5 if eps is None else eps
        momentum = 0.1 if momentum is None else momentum
        bns = [BatchNormalization(n, eps, momentum, affine) for n in (4 * H, 4 * H, H)]
        for bn in bns:
            if bn.weight is not None:
                bn.weight.fill(0.1)
        super().__init__(Linear(D, 4 * H), LinearNoBias(H, 4 * H), bns[0], bns[1], Add(4 * H), bns[2])
        self.inputSize, self.outputSize = D, H
        self.eps, self.momentum, self.affine = float(eps), float(momentum), bool(affine)
        self._cache = None

    def _t7_fresh(self):
        return FastLSTMBNStep(self.inputSize, self.outputSize, float(self.eps), float(self.momentum),
                              bool(self.affine))

    def _t7_lua_tree(self, package, mono=False):
        """save_lua: the nngraph gModule the rnn package's
        FastLSTM:nngraphModel built while ``FastLSTM.bn`` was true (the same
        in both packages), around this step's modules: {x, h, c} ->
        {h', c'}, BN_x(i2g(x)) + Add(BN_h(o2g(h))) split into the gates
        i, z, f, o, h' = o * tanh(BN_c(c')).  package: "torch/rnn" or
        "Element-Research/rnn" (o2g's class).  Returns (graph, {field:
        module}) for the cell."""
        from .CAddTable import CAddTable
        from .CMulTable import CMulTable
        from .gModule import gModule
        from .Identity import Identity
        from .Reshape import Reshape
        from .Sigmoid import Sigmoid
        from .SplitTable import SplitTable
        from .Tanh import Tanh
        H = self.outputSize
        o2g = self.o2g._t7_lua(package)
        x, prev_h, prev_c = Identity()(), Identity()(), Identity()()
        i2h = self.bn_wx(self.i2g(x).annotate(name="i2h")).annotate(name="bn_wx")
        h2h = self.bias_module(self.bn_wh(o2g(prev_h).annotate(name="h2h")).annotate(name="bn_wh"))
        n1, n2, n3, n4 = SplitTable(1)(Reshape(4, H)(CAddTable()([i2h, h2h]))).split(4)
        in_gate, in_transform, forget_gate, out_gate = Sigmoid()(n1), Tanh()(n2), Sigmoid()(n3), Sigmoid()(n4)
        next_c = CAddTable()([CMulTable()([forget_gate, prev_c]), CMulTable()([in_gate, in_transform])])
        next_h = CMulTable()([out_gate, Tanh()(self.bn_c(next_c).annotate(name="bn_c"))])
        return gModule([x, prev_h, prev_c], [next_h, next_c]), {"i2g": self.i2g, "o2g": o2g}

    i2g = property(lambda self: self.modules[0])
    o2g = property(lambda self: self.modules[1])
    bn_wx = property(lambda self: self.modules[2])
    bn_wh = property(lambda self: self.modules[3])
    bias_module = property(lambda self: self.modules[4])
    bn_c = property(lambda self: self.modules[5])

    def _unpack(self, input):
        return step_inputs(self, input, ("x", "h", "c"))

    def updateOutput(self, input):
        x, h, c = self._unpack(input)
        xp = array_namespace(x, h, c)
        H = self.outputSize
        ax = self._child(0, "updateOutput", x)
        bx = self._child(2, "updateOutput", ax)
        ah = self._child(1, "updateOutput", h)
        bh = self._child(3, "updateOutput", ah)
        a = bx + self._child(4, "updateOutput", bh)
        i = 1 / (1 + xp.exp(-a[..., :H]))
        z = xp.tanh(a[..., H:2 * H])
        f = 1 / (1 + xp.exp(-a[..., 2 * H:3 * H]))
        o = 1 / (1 + xp.exp(-a[..., 3 * H:]))
        hy, cy = self.output if isinstance(self.output, list) else (None, None)
        cy = reuse(cy, c.shape, c.dtype, x, h, c)
        xp.multiply(f, c, out=cy)
        cy += i * z
        t = xp.tanh(self._child(5, "updateOutput", cy))
        hy = reuse(hy, c.shape, c.dtype, x, h, c, cy)
        xp.multiply(o, t, out=hy)
        self._cache = [i, z, f, o, ax, ah, bh, t]
        self.output = [hy, cy]
        return self.output

    def _deltas(self, input, gradOutput):
        """(x, h, c, dL/d(BN_c input), dL/da, dL/dc', dL/d(o2g out), dL/d(i2g out))."""
        if self._cache is None:
            raise RuntimeError("FastLSTMBNStep: backward needs the gates of a forward pass first")
        x, h, c = self._unpack(input)
        check_like(self, gradOutput, self.output)
        xp = array_namespace(x, h, c)
        gh, gc = gradOutput
        i, z, f, o, ax, ah, bh, t = self._cache
        cy = self.output[1]
        dn = gh * o * (1 - t * t)
        dcy = gc + self._child(5, "updateGradInput", cy, dn)
        da = xp.concatenate([dcy * z * i * (1 - i), dcy * i * (1 - z * z), dcy * c * f * (1 - f),
                             gh * t * o * (1 - o)], axis=-1)
        dah = self._child(3, "updateGradInput", ah, da)
        dax = self._child(2, "updateGradInput", ax, da)
        return x, h, c, dn, da, dcy, dah, dax

    def updateGradInput(self, input, gradOutput):
        x, h, c, dn, da, dcy, dah, dax = self._deltas(input, gradOutput)
        gx = self._child(0, "updateGradInput", x, dax)
        gh = self._child(1, "updateGradInput", h, dah)
        old = self.gradInput[2] if isinstance(self.gradInput, list) and len(self.gradInput) == 3 else None
        gc = reuse(old, c.shape, c.dtype, x, h, c, *gradOutput)
        array_namespace(c).multiply(dcy, self._cache[2], out=gc)
        self.gradInput = [gx, gh, gc]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        # the deltas again: what updateGradInput left may have been changed since
        x, h, c, dn, da, dcy, dah, dax = self._deltas(input, gradOutput)
        _, _, _, _, ax, ah, bh, _ = self._cache
        self._child(5, "accGradParameters", self.output[1], dn, scale)
        self._child(4, "accGradParameters", bh, da, scale)
        self._child(3, "accGradParameters", ah, da, scale)
        self._child(2, "accGradParameters", ax, da, scale)
        self._child(1, "accGradParameters", h, dah, scale)
        self._child(0, "accGradParameters", x, dax, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    _onnx_unsupported = "its recurrent batch normalization is not mapped (FastLSTMStep, without bn, is)"

    def __repr__(self):
        return f"nn.FastLSTMBNStep({self.inputSize} -> {self.outputSize}, batch-normalized)"
