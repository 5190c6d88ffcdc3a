from ._helpers.lua import T7Error
from .CAddTable import CAddTable
from .ConcatTable import ConcatTable
from .Decorator import Decorator
from .Module import Module
from .ReverseSequence import ReverseSequence
from .Sequential import Sequential


class ReverseUnreverse(Decorator):
    """Runs a sequence module on the sequence reversed in time and reverses
    its output back (torch/rnn's ReverseUnreverse, the backward direction
    of its BiSequencer, SeqBLSTM and SeqBGRU)::

        y = reverse(module(reverse(x)))

    with ``reverse`` a ReverseSequence (an array ``[seqlen, ...]`` along its
    first dim, or a table of steps).  The module tree is torch/rnn's:
    ``modules[0]`` is Sequential(ReverseSequence(), module,
    ReverseSequence()); ``getModule()`` is the module.  Gradients: the same
    reversals of gradOutput and gradInput.

    ``ReverseUnreverse(sequencer)``.
    """

    def __init__(self, sequencer):
        if not isinstance(sequencer, Module):
            raise TypeError(f"ReverseUnreverse: sequencer must be a Module, got {type(sequencer).__name__}")
        super().__init__(Sequential().add(ReverseSequence()).add(sequencer).add(ReverseSequence()))

    def getModule(self):
        return self.modules[0].modules[1]

    def _t7_fixup(self, version):
        tree = (vars(self).get("modules") or [None])[0]
        parts = vars(tree).get("modules") if isinstance(tree, Sequential) else None
        if not (isinstance(parts, list) and len(parts) == 3 and isinstance(parts[0], ReverseSequence)
                and isinstance(parts[2], ReverseSequence) and isinstance(parts[1], Module)):
            raise T7Error("ReverseUnreverse: the file's module is not Sequential(ReverseSequence, module, "
                          "ReverseSequence) as torch/rnn built it")
        self.modules = [tree]
        for name in ("_zeroMask", "_range"):
            vars(self).pop(name, None)


def bidirectional(forward, merge, name):
    """torch/rnn's BiSequencer module tree around a whole-sequence module:
    Sequential(ConcatTable(forward, ReverseUnreverse(backward)), merge),
    backward a copy of forward with new weights (``clone()``, ``reset()``),
    merge a CAddTable by default (the outputs summed)."""
    if merge is not None and not isinstance(merge, Module):
        raise TypeError(f"{name}: merge must be a Module, got {type(merge).__name__}")
    backward = forward.clone().reset()
    both = ConcatTable().add(forward).add(ReverseUnreverse(backward))
    return Sequential().add(both).add(CAddTable() if merge is None else merge)
