import numpy as np

from ._bases.recurrent import acc_update_by_swap, plus, zeros_like
from .AbstractSequencer import AbstractSequencer
from .JoinTable import JoinTable
from .Module import Module
from .Sequencer import Sequencer


def _merge_module(cls, merge):
    """The rnn package's merge argument: None -> JoinTable over features,
    a number n -> JoinTable with nInputDims n, or a module."""
    if merge is None:
        return JoinTable(0, 1)
    if isinstance(merge, (int, np.integer)) and not isinstance(merge, bool):
        return JoinTable(0, int(merge))
    if isinstance(merge, Module):
        return merge
    raise TypeError(f"{cls}: merge must be a Module or a number, got {type(merge).__name__}")


def _backward_of(cls, forward, backward):
    if not isinstance(forward, Module):
        raise TypeError(f"{cls}: forward must be a Module, got {type(forward).__name__}")
    if backward is None:   # the rnn package's default: a fresh copy of forward
        return forward.clone().reset()
    if not isinstance(backward, Module):
        raise TypeError(f"{cls}: backward must be a Module, got {type(backward).__name__}")
    return backward


class BiSequencer(AbstractSequencer):
    """A bidirectional recurrent layer: one module reads the sequence
    forwards, another backwards, and a merge module combines their outputs
    step by step.

    ``BiSequencer(forward, backward=None, merge=None)``: forward and
    backward are recurrent modules (or any modules, run by Sequencers);
    backward defaults to a copy of forward with new weights (``clone()``
    then ``reset()``); merge defaults to ``JoinTable(0, 1)`` (the two
    outputs side by side along their features; a number n gives
    ``JoinTable(0, n)``).  Input: a table of steps or an array [seqlen,
    ...], as Sequencer; output laid out the same::

        f_t = forward's output after x_1 .. x_t
        b_t = backward's output after x_T .. x_t
        y_t = merge([f_t, b_t])

    Backward: the merge's gradients go to f_t and b_t, then each direction
    backpropagates through time in its own order, and gradInput[t] is the
    sum of the two gradients w.r.t. x_t.  ``fwdSeq``, ``bwdSeq`` and
    ``mergeSeq`` are the three Sequencers (``modules``, in that order).
    """

    _t7_raw_fields = ("module", "modules")
    _buffer_names = ("_mergeInput", "_mergeGrad")

    def __init__(self, forward, backward=None, merge=None):
        name = type(self).__name__
        self.forwardModule = forward
        self.backwardModule = _backward_of(name, forward, backward)
        self.mergeModule = _merge_module(name, merge)
        self.fwdSeq, self.bwdSeq = self._sequencer(self.forwardModule), self._sequencer(self.backwardModule)
        self.mergeSeq = Sequencer(self.mergeModule)
        super().__init__(self.fwdSeq, self.bwdSeq, self.mergeSeq)
        self._mergeInput = self._mergeGrad = None

    def _sequencer(self, module):
        return Sequencer(module)

    def _t7_fixup(self, version):
        """The file's ``module`` is the rnn package's Sequential around the
        three sequencers (with dpnn's ReverseTable): rebuilt from them."""
        from ._helpers.lua import T7Error
        for name in ("fwdSeq", "bwdSeq", "mergeSeq"):
            if not isinstance(vars(self).get(name), Module):
                raise T7Error(f"{type(self).__name__}: the file has no {name}; torch/rnn's later "
                              f"{type(self).__name__} (merging whole sequences) is not implemented")
        vars(self).pop("module", None)
        self.modules = [self.fwdSeq, self.bwdSeq, self.mergeSeq]
        self.output = self.gradInput = None
        self._mergeInput = self._mergeGrad = None

    def _t7_rnn_layout(self, fields, package):
        """save_lua: Element-Research/rnn's BiSequencer decorates the
        Sequential its constructor built around the three sequencers
        (ConcatTable(fwdSeq, Sequential(ReverseTable, bwdSeq, ReverseTable)),
        ZipTable, mergeSeq), its ``module`` and ``modules[1]``: its forward
        runs that, so it is written so.  torch/rnn's nn.BiSequencer is
        another module (it merges whole sequences, by default with
        CAddTable): refused there."""
        if package != "Element-Research/rnn":
            raise TypeError("save_lua: nn.BiSequencer is Element-Research/rnn's (steps merged one by one); "
                            "torch/rnn's nn.BiSequencer is another module (whole sequences merged, CAddTable by "
                            "default) that would compute something else: save it with rnn='Element-Research/rnn'")
        from .ConcatTable import ConcatTable
        from .ReverseTable import ReverseTable
        from .Sequential import Sequential
        from .ZipTable import ZipTable
        backward = Sequential().add(ReverseTable()).add(self.bwdSeq).add(ReverseTable())
        brnn = Sequential().add(ConcatTable().add(self.fwdSeq).add(backward)).add(ZipTable()).add(self.mergeSeq)
        fields.update(module=brnn, modules=[brnn], output={}, gradInput={})

    # ---- the sequence as a list of steps ----
    def _as_steps(self, sequence, name="input"):
        return self.mergeSeq._steps(sequence, name)

    def _laid_out(self, steps, like, buffer):
        return self.mergeSeq._gather(buffer, steps, like)

    def _reads(self, T):
        """(the input steps the forward module reads, those the backward one
        reads, each in increasing order; where the output for input step s
        is merged: s + offset, forward then backward)."""
        return range(T), range(T), (0, 0)

    def _directions(self, xs):
        """Each direction's steps in the order it reads them, and where its
        outputs go: [(child index, input steps, merge steps)]."""
        fwd, bwd, (f_off, b_off) = self._reads(len(xs))
        return [(0, list(fwd), [s + f_off for s in fwd]),
                (1, list(reversed(bwd)), [s + b_off for s in reversed(bwd)])]

    def updateOutput(self, input):
        xs = self._as_steps(input)
        merged = [[None, None] for _ in xs]
        for k, steps, at in self._directions(xs):
            for t, y in zip(at, self._child(k, "updateOutput", [xs[s] for s in steps])):
                merged[t][k] = y
        for pair in merged:      # a step a direction does not reach: zeros
            for k in (0, 1):
                if pair[k] is None:
                    pair[k] = zeros_like(next(p[k] for p in merged if p[k] is not None))
        self._mergeInput = merged
        self.output = self._laid_out(self._child(2, "updateOutput", merged), input, self.output)
        self._mergeGrad = None
        return self.output

    def updateGradInput(self, input, gradOutput):
        if self._mergeInput is None:
            raise RuntimeError(f"{type(self).__name__}: backward needs a forward first")
        xs = self._as_steps(input)
        self._mergeGrad = self._child(2, "updateGradInput", self._mergeInput, self._as_steps(gradOutput, "gradOutput"))
        total = [None] * len(xs)
        for k, steps, at in self._directions(xs):
            grads = self._child(k, "updateGradInput", [xs[s] for s in steps], [self._mergeGrad[t][k] for t in at])
            for s, g in zip(steps, grads):
                total[s] = plus(total[s], g)
        self.gradInput = self._laid_out(total, input, self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self._mergeGrad is None:
            raise RuntimeError(f"{type(self).__name__}: accGradParameters needs updateGradInput first")
        xs = self._as_steps(input)
        self._child(2, "accGradParameters", self._mergeInput, self._as_steps(gradOutput, "gradOutput"), scale)
        for k, steps, at in self._directions(xs):
            self._child(k, "accGradParameters", [xs[s] for s in steps], [self._mergeGrad[t][k] for t in at], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def __repr__(self):
        lines = [f"nn.{type(self).__name__} {{"]
        for name, m in (("fwd", self.fwdSeq), ("bwd", self.bwdSeq), ("merge", self.mergeSeq)):
            lines.append(f"  ({name}): " + repr(m).replace("\n", "\n  "))
        return "\n".join(lines + ["}"])

    def _onnx(self, g, x, y):
        """a Sequencer forwards and one backwards over the steps, a third merging their outputs step by step"""
        xs = self.mergeSeq._onnx_steps(g, x)
        merged = [[None, None] for _ in xs]
        for k, steps, at in self._directions(xs):
            for t, out in zip(at, g.child(self, k, [xs[s] for s in steps])):
                merged[t][k] = out
        for pair in merged:      # a step a direction does not reach: zeros
            for k in (0, 1):
                if pair[k] is None:
                    pair[k] = g.zeros_like(next(p[k] for p in merged if p[k] is not None))
        out = g.child(self, 2, merged)
        return out if isinstance(x, list) else g.stack(out)
