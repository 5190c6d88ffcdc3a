from ._recurrent import acc_update_by_swap, plus, zeros_like
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

    def _as_steps(self, sequence, name="input"):
        steps = super()._as_steps(sequence, name)
        if name == "input" and len(steps) < 2:
            raise ValueError(f"BiSequencerLM: input must have at least 2 steps, got {len(steps)}")
        return steps

    def updateOutput(self, input):
        xs = self._as_steps(input)
        f = self._child(0, "updateOutput", xs[:-1])
        b = self._child(1, "updateOutput", xs[:0:-1])[::-1]
        f = [zeros_like(f[0])] + list(f)
        b = list(b) + [zeros_like(b[0])]
        self._mergeInput = [[ft, bt] for ft, bt in zip(f, b)]
        self.output = self._laid_out(self._child(2, "updateOutput", self._mergeInput), input, self.output)
        self._mergeGrad = None
        return self.output

    def updateGradInput(self, input, gradOutput):
        if self._mergeInput is None:
            raise RuntimeError("BiSequencerLM: backward needs a forward first")
        xs = self._as_steps(input)
        self._mergeGrad = self._child(2, "updateGradInput", self._mergeInput, self._as_steps(gradOutput, "gradOutput"))
        gf = self._child(0, "updateGradInput", xs[:-1], [g[0] for g in self._mergeGrad[1:]])
        gb = self._child(1, "updateGradInput", xs[:0:-1], [g[1] for g in self._mergeGrad[:-1]][::-1])[::-1]
        grads = [gf[0]] + [plus(a, b) for a, b in zip(gf[1:], gb[:-1])] + [gb[-1]]
        self.gradInput = self._laid_out(grads, input, self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self._mergeGrad is None:
            raise RuntimeError("BiSequencerLM: accGradParameters needs updateGradInput first")
        xs = self._as_steps(input)
        self._child(2, "accGradParameters", self._mergeInput, self._as_steps(gradOutput, "gradOutput"), scale)
        self._child(0, "accGradParameters", xs[:-1], [g[0] for g in self._mergeGrad[1:]], scale)
        self._child(1, "accGradParameters", xs[:0:-1], [g[1] for g in self._mergeGrad[:-1]][::-1], scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))
