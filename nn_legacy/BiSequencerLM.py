from .AbstractRecurrent import AbstractRecurrent
from .BiSequencer import BiSequencer


class BiSequencerLM(BiSequencer):
    """A bidirectional layer for language models: at step t the forward
    module has read x_1 .. x_{t-1} and the backward module x_T .. x_{t+1},
    so neither has seen x_t (which the model is to predict).

    ``BiSequencerLM(forward, backward=None, merge=None)`` as BiSequencer,
    except that a forward (or backward) module that is not recurrent is
    taken to be a sequencer already (a Sequencer, or a stack of them) and
    used as it is.  Input: a table of at least 2 steps or an array [seqlen,
    ...] with seqlen >= 2; output laid out the same::

        f_t = forward's output after x_1 .. x_{t-1}     (zeros for t = 1)
        b_t = backward's output after x_T .. x_{t+1}    (zeros for t = T)
        y_t = merge([f_t, b_t])

    The forward module runs over x_1 .. x_{T-1} and the backward over
    x_T .. x_2; gradInput[t] is the sum of what each sends back to x_t
    (only the forward module reaches x_1, only the backward one x_T).
    """

    _t7_raw_fields = ("_fwd", "_bwd", "_merge", "modules")
    _torch_rnn_form = False

    def _sequencer(self, module):
        if isinstance(module, AbstractRecurrent):
            return super()._sequencer(module)
        return module

    def _t7_fixup(self, version):
        """The file's _bwd and _merge wrap bwdSeq and mergeSeq with dpnn's
        ReverseTable and ZipTable: rebuilt from the sequencers."""
        for name in ("_fwd", "_bwd", "_merge", "_fwdOutput", "_bwdOutput", "_firstStep", "_lastStep",
                     "_fwdGradInput", "_bwdGradInput", "_mergeGradInput"):
            vars(self).pop(name, None)
        super()._t7_fixup(version)

    def _t7_rnn_layout(self, fields, package):
        """save_lua: the Element-Research package's BiSequencerLM (torch/rnn
        has none): _fwd, _bwd and _merge, the sequencers with dpnn's
        ReverseTable and ZipTable around them, as its constructor built
        them, and those three as its modules."""
        from .ReverseTable import ReverseTable
        from .Sequential import Sequential
        from .ZipTable import ZipTable
        bwd = Sequential().add(ReverseTable()).add(self.bwdSeq).add(ReverseTable())
        merge = Sequential().add(ZipTable()).add(self.mergeSeq)
        fields.update(_fwd=self.fwdSeq, _bwd=bwd, _merge=merge, modules=[self.fwdSeq, bwd, merge], output={},
                      gradInput={})

    def _as_steps(self, sequence, name="input"):
        steps = super()._as_steps(sequence, name)
        if name == "input" and len(steps) < 2:
            raise ValueError(f"BiSequencerLM: input must have at least 2 steps, got {len(steps)}")
        return steps

    def _reads(self, T):
        return range(T - 1), range(1, T), (1, -1)
