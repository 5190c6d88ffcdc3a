"""What torch/rnn's bidirectional whole-sequence layers share (SeqBLSTM,
SeqBGRU): a BiSequencer of two SeqLSTMs or SeqGRUs, as a decorator of the
module tree ReverseUnreverse.bidirectional builds."""
from .._helpers.lua import T7Error


class SeqBidirectional:
    """Mixin for a Decorator whose ``modules[0]`` is torch/rnn's BiSequencer
    tree Sequential(ConcatTable(forward, ReverseUnreverse(backward)),
    merge); ``_rnn`` is the class of forward and backward."""

    _rnn = None

    def getForward(self):
        return self.modules[0].modules[0].modules[0]

    def getBackward(self):
        return self.modules[0].modules[0].modules[1].getModule()

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
