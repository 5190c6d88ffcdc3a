"""What torch/rnn's bidirectional whole-sequence layers share (SeqBLSTM,
SeqBGRU): a BiSequencer of two SeqLSTMs or SeqGRUs, as a decorator of the
module tree ReverseUnreverse.bidirectional builds."""
from .._helpers.lua import T7Error
from ..ConcatTable import ConcatTable
from ..Container import _NAMED, same_list
from ..ReverseSequence import ReverseSequence
from ..ReverseUnreverse import ReverseUnreverse
from ..Sequential import Sequential


def tree_forward(owner, input):
    """The forward of torch/rnn's BiSequencer tree ``owner.modules[0]``
    (Sequential(ConcatTable(forward, ReverseUnreverse(backward)), merge),
    ReverseUnreverse's own tree Sequential(ReverseSequence, backward,
    ReverseSequence)): the five leaves' updateOutput called in the order the
    containers call them, and each container's output set as its own
    forward sets it, without the seven container calls between them (a
    few microseconds each, of a forward of tens at small sizes).  An error
    is named as the containers name it ("Sequential (0) -> ConcatTable (1)
    -> ..."), the owner's name in front.  A tree of other container types
    or sizes (a subclass, a module added) goes through the containers."""
    tree = owner.modules[0]
    both = tree.modules[0] if type(tree) is Sequential and len(tree.modules) == 2 else None
    backward = both.modules[1] if type(both) is ConcatTable and len(both.modules) == 2 else None
    steps = backward.modules[0] if type(backward) is ReverseUnreverse and len(backward.modules) == 1 else None
    if (type(steps) is not Sequential or len(steps.modules) != 3 or type(steps.modules[0]) is not ReverseSequence
            or type(steps.modules[2]) is not ReverseSequence):
        owner.output = owner._child(0, "updateOutput", input)
        return owner.output
    reverse, rnn, unreverse = steps.modules
    stage = 0   # (the leaf running: forward, the reversal, backward, the reversal back, the merge)
    try:
        ahead = both.modules[0].updateOutput(input)
        stage = 1
        reversed_input = reverse.updateOutput(input)
        stage = 2
        behind = rnn.updateOutput(reversed_input)
        stage = 3
        behind = steps.output = backward.output = unreverse.updateOutput(behind)
        both.output = same_list(both.output, [ahead, behind])
        stage = 4
        tree.output = owner.output = tree.modules[1].updateOutput(both.output)
    except _NAMED as e:
        # the containers around that leaf, outermost first, with the index of what each called
        path = [(owner, 0), (tree, 0), (both, 0)] if stage == 0 else [(owner, 0), (tree, 1)] if stage == 4 else \
            [(owner, 0), (tree, 0), (both, 1), (backward, 0), (steps, stage - 1)]
        error = e
        for container, index in reversed(path):
            cause, error = error, container._child_error(index, "updateOutput", error)
            error.__cause__ = cause
        raise error from error.__cause__
    return owner.output


class SeqBidirectional:
    """Mixin for a Decorator whose ``modules[0]`` is torch/rnn's BiSequencer
    tree Sequential(ConcatTable(forward, ReverseUnreverse(backward)),
    merge); ``_rnn`` is the class of forward and backward."""

    _rnn = None

    def getForward(self):
        return self.modules[0].modules[0].modules[0]

    def getBackward(self):
        return self.modules[0].modules[0].modules[1].getModule()

    def updateOutput(self, input):
        return tree_forward(self, input)

    def remember(self, mode="both"):
        """torch/rnn's BiSequencer: the forward direction remembers as asked,
        the backward one never (it reads each sequence from its end)."""
        self.getForward().remember(mode)
        self.getBackward().remember("neither")
        return self

    def _t7_fixup(self, version):
        name = type(self).__name__
        try:
            tree = vars(self)["modules"][0]
            forward, backward = self.getForward(), self.getBackward()
            merge = tree.modules[1]
        except (KeyError, IndexError, TypeError, AttributeError):
            raise T7Error(f"{name}: the file's module tree is not torch/rnn's BiSequencer "
                          f"(Sequential(ConcatTable(forward, ReverseUnreverse(backward)), merge))") from None
        for what, m in (("forward", forward), ("backward", backward)):
            if not isinstance(m, self._rnn):
                raise T7Error(f"{name}: its {what} module is a {type(m).__name__}, a {self._rnn.__name__} expected")
        if len(tree.modules) != 2 or not callable(getattr(merge, "updateOutput", None)):
            raise T7Error(f"{name}: the file's module tree holds {len(tree.modules)} modules, 2 expected "
                          f"(the two directions, the merge)")
        self.modules = [tree]

    def __repr__(self):
        return (f"nn.{type(self).__name__} {{\n  forward:  {self.getForward()!r}\n  backward: "
                f"{self.getBackward()!r}\n  merge:    {self.modules[0].modules[1]!r}\n}}")
