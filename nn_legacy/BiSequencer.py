import re

import numpy as np

from ._bases.recurrent import acc_update_by_swap, plus, zeros_like
from ._bases.seq_bidirectional import tree_forward
from .AbstractSequencer import AbstractSequencer
from .CAddTable import CAddTable
from .ConcatTable import ConcatTable
from .JoinTable import JoinTable
from .Module import Module
from .ReverseUnreverse import ReverseUnreverse
from .Sequencer import Sequencer
from .Sequential import Sequential

PACKAGES = ("Element-Research/rnn", "torch/rnn")
_FORMS = {"Element-Research/rnn": "steps merged one by one, JoinTable by default",
          "torch/rnn": "whole sequences merged, CAddTable by default"}


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


def _is_seq(module):
    """torch/rnn's BiSequencer.isSeq: a sequencer, or a module whose torch
    class name matches the Lua pattern 'nn.Seq.+' (SeqLSTM, SeqGRU, and
    Sequential too): such a module takes the whole sequence itself."""
    cls = type(module)
    name = getattr(cls, "_t7_name", None) or f"nn.{cls.__name__}"
    return isinstance(module, AbstractSequencer) or re.search(r"nn.Seq.", name) is not None


def _whole_sequence_tree(name, forward, backward, merge):
    """torch/rnn's BiSequencer.__init: backward a reset copy of forward
    unless given, each wrapped in a Sequencer unless it is a sequence module
    already, backward inside a ReverseUnreverse; merge a CAddTable unless
    given: Sequential(ConcatTable(forward, ReverseUnreverse(backward)), merge)."""
    backward = _backward_of(name, forward, backward)
    if merge is None:
        merge = CAddTable()
    elif not isinstance(merge, Module):
        raise TypeError(f"{name}: merge must be a Module (torch/rnn's form), got {type(merge).__name__}")
    forward, backward = (m if _is_seq(m) else Sequencer(m) for m in (forward, backward))
    return Sequential().add(ConcatTable().add(forward).add(ReverseUnreverse(backward))).add(merge)


def _check_whole_sequence_tree(name, modules, error):
    tree = modules[0] if isinstance(modules, list) and len(modules) == 1 else None
    parts = vars(tree).get("modules") if isinstance(tree, Sequential) else None
    both = parts[0] if isinstance(parts, list) and len(parts) == 2 else None
    directions = vars(both).get("modules") if isinstance(both, ConcatTable) else None
    if not (isinstance(directions, list) and len(directions) == 2 and isinstance(directions[0], Module)
            and isinstance(directions[1], ReverseUnreverse) and isinstance(parts[1], Module)):
        raise error(f"{name}: the file holds neither Element-Research's {name} (fwdSeq, bwdSeq, mergeSeq) nor "
                    f"torch/rnn's (modules[1] = Sequential(ConcatTable(forward, ReverseUnreverse(backward)), "
                    f"merge))")


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
    That is Element-Research/rnn's nn.BiSequencer (``package`` says which).

    ``BiSequencer(forward, backward=None, merge=None, package="torch/rnn")``
    is torch/rnn's (2017) nn.BiSequencer, another module under the same
    name: it merges whole sequences.  forward and backward (a reset copy
    of forward by default) are wrapped in Sequencers unless they take whole
    sequences already (a sequencer, SeqLSTM, SeqGRU, Sequential: torch/rnn's
    isSeq); merge (a Module, CAddTable by default) gets the two output
    sequences as a table::

        y = merge([fwd(x), reverse(bwd(reverse(x)))])

    with ``reverse`` along the first dim (time) of an array [seqlen, ...]
    (or a table of steps: then merge must take two tables).  The module
    tree is torch/rnn's, ``modules[0]``: Sequential(ConcatTable(forward,
    ReverseUnreverse(backward)), merge); ``getForward()``,
    ``getBackward()`` are the two sequence modules, and ``remember()``
    applies to the forward one only (SeqBLSTM and SeqBGRU are this form
    with SeqLSTMs, SeqGRUs).  ``load_lua`` tells the two forms apart by
    their fields; ``save_lua`` writes each only for its own package.
    """

    _buffer_names = ("_mergeInput", "_mergeGrad")
    #: whether the class also has torch/rnn's form (BiSequencerLM: Element-Research's alone)
    _torch_rnn_form = True

    def __init__(self, forward, backward=None, merge=None, package="Element-Research/rnn"):
        name = type(self).__name__
        if package not in PACKAGES:
            raise ValueError(f"{name}: package must be 'Element-Research/rnn' or 'torch/rnn', got {package!r}")
        if package == "torch/rnn":
            if not self._torch_rnn_form:
                raise ValueError(f"{name}: torch/rnn's {name} is Element-Research's (kept in its deprecated/): "
                                 f"package='torch/rnn' has no other form of it")
            super().__init__(_whole_sequence_tree(name, forward, backward, merge))
            return
        self.forwardModule = forward
        self.backwardModule = _backward_of(name, forward, backward)
        self.mergeModule = _merge_module(name, merge)
        self.fwdSeq, self.bwdSeq = self._sequencer(self.forwardModule), self._sequencer(self.backwardModule)
        self.mergeSeq = Sequencer(self.mergeModule)
        super().__init__(self.fwdSeq, self.bwdSeq, self.mergeSeq)
        self._mergeInput = self._mergeGrad = None

    @property
    def package(self):
        """The rnn package whose BiSequencer this is: ``"Element-Research/rnn"``
        (steps merged one by one: fwdSeq, bwdSeq, mergeSeq) or
        ``"torch/rnn"`` (whole sequences merged: ``modules[0]``)."""
        return "Element-Research/rnn" if "fwdSeq" in vars(self) else "torch/rnn"

    def getForward(self):
        """The sequence module of the forward direction (torch/rnn's
        getForward; Element-Research's form: fwdSeq)."""
        if self.package == "torch/rnn":
            return self.modules[0].modules[0].modules[0]
        return self.fwdSeq

    def getBackward(self):
        """The sequence module of the backward direction, which reads the
        sequence reversed (torch/rnn's getBackward, the module inside the
        ReverseUnreverse; Element-Research's form: bwdSeq)."""
        if self.package == "torch/rnn":
            return self.modules[0].modules[0].modules[1].getModule()
        return self.bwdSeq

    def remember(self, mode="both"):
        """torch/rnn's form: the forward direction remembers as asked, the
        backward one never (it reads each sequence from its end).
        Element-Research's: AbstractSequencer's."""
        if self.package == "torch/rnn":
            self.getForward().remember(mode)
            self.getBackward().remember("neither")
            return self
        return super().remember(mode)

    def _sequencer(self, module):
        return Sequencer(module)

    def _t7_fixup(self, version):
        """Element-Research's files hold fwdSeq, bwdSeq and mergeSeq, and as
        ``module`` the rnn package's Sequential around them (with dpnn's
        ReverseTable and ZipTable): rebuilt from the three.  torch/rnn's
        (2017) hold none of them, only ``modules[1]``:
        Sequential(ConcatTable(forward, ReverseUnreverse(backward)), merge),
        which its forward runs: kept as it is."""
        from ._helpers.lua import T7Error
        name = type(self).__name__
        own = [k for k in ("fwdSeq", "bwdSeq", "mergeSeq") if k in vars(self)]
        if not own and self._torch_rnn_form:
            _check_whole_sequence_tree(name, vars(self).get("modules"), T7Error)
            for key in ("module", "forwardModule", "backwardModule", "mergeModule", "_mergeInput", "_mergeGrad",
                        "_remember"):
                vars(self).pop(key, None)
            self.output = self.gradInput = None
            return
        for key in ("fwdSeq", "bwdSeq", "mergeSeq"):
            if not isinstance(vars(self).get(key), Module):
                raise T7Error(f"{name}: the file's {key} is {type(vars(self).get(key)).__name__}, not a module "
                              f"(Element-Research's {name} holds fwdSeq, bwdSeq and mergeSeq)")
        vars(self).pop("module", None)
        self.modules = [self.fwdSeq, self.bwdSeq, self.mergeSeq]
        self.output = self.gradInput = None
        self._mergeInput = self._mergeGrad = None

    def _t7_rnn_layout(self, fields, package):
        """save_lua: each package's BiSequencer as its constructor built it,
        and only for that package (the other one's nn.BiSequencer computes
        something else).  Element-Research's decorates the Sequential around
        the three sequencers (ConcatTable(fwdSeq, Sequential(ReverseTable,
        bwdSeq, ReverseTable)), ZipTable, mergeSeq), its ``module`` and
        ``modules[1]``: its forward runs that, so it is written so.
        torch/rnn's holds ``modules[1]`` alone."""
        if package != self.package:
            raise TypeError(f"save_lua: this nn.BiSequencer is {self.package}'s ({_FORMS[self.package]}); "
                            f"{package}'s nn.BiSequencer is another module ({_FORMS[package]}) that would compute "
                            f"something else: save it with rnn={self.package!r}, or build it with "
                            f"BiSequencer(..., package={package!r})")
        if package == "torch/rnn":
            return
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
        if self.package == "torch/rnn":
            return tree_forward(self, input)
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
        if self.package == "torch/rnn":
            self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
            return self.gradInput
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
        if self.package == "torch/rnn":
            self._child(0, "accGradParameters", input, gradOutput, scale)
            return
        if self._mergeGrad is None:
            raise RuntimeError(f"{type(self).__name__}: accGradParameters needs updateGradInput first")
        xs = self._as_steps(input)
        self._child(2, "accGradParameters", self._mergeInput, self._as_steps(gradOutput, "gradOutput"), scale)
        for k, steps, at in self._directions(xs):
            self._child(k, "accGradParameters", [xs[s] for s in steps], [self._mergeGrad[t][k] for t in at], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        if self.package == "torch/rnn":
            self._child(0, "accUpdateGradParameters", input, gradOutput, lr)
            return
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))

    def backward(self, input, gradOutput, scale=1):
        if self.package == "torch/rnn" and not self.gradInputSkipped:
            self.gradInput = self._child(0, "backward", input, gradOutput, scale)
            return self.gradInput
        return super().backward(input, gradOutput, scale)

    def __repr__(self):
        if self.package == "torch/rnn":
            return (f"nn.{type(self).__name__} {{\n  forward:  {self.getForward()!r}\n  backward: "
                    f"{self.getBackward()!r}\n  merge:    {self.modules[0].modules[1]!r}\n}}")
        lines = [f"nn.{type(self).__name__} {{"]
        for name, m in (("fwd", self.fwdSeq), ("bwd", self.bwdSeq), ("merge", self.mergeSeq)):
            lines.append(f"  ({name}): " + repr(m).replace("\n", "\n  "))
        return "\n".join(lines + ["}"])

    def _onnx(self, g, x, y):
        """a Sequencer forwards and one backwards over the steps, a third merging their outputs step by step
        (torch/rnn's form: its module tree's nodes)"""
        if self.package == "torch/rnn":
            return g.child(self, 0, x)
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
